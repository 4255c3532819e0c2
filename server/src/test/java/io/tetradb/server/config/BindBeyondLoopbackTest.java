package io.tetradb.server.config;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.mongodb.MongoCommandException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import io.tetradb.server.Endpoint;
import io.tetradb.server.ServerConfig;
import io.tetradb.server.StartupException;
import io.tetradb.server.TestGremlin;
import io.tetradb.server.TetraDbServer;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.Result;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The non-loopback rule: a server bound to an address of this machine other than loopback (reached through that
 * address) starts only with credentials on every face it serves, and then each face asks for them through its own
 * client — the MongoDB Java driver, the Azure Tables SDK, gremlin-driver — and the admin routes need the Cosmos key
 * (HTTP basic with the key as the password, or a Cosmos master-key signature). Without them the start is refused,
 * naming what is missing.
 */
public class BindBeyondLoopbackTest {
    private static final String COSMOS_KEY = newKey();
    private static final String TABLE_KEY = newKey();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void everyFaceAsksForCredentialsBeyondLoopback(@TempDir Path dir) throws Exception {
        InetAddress address = nonLoopbackAddress();
        // MongoDB's localhost exception: the first user is made over loopback
        try (TetraDbServer local = new TetraDbServer(ServerConfig.ephemeral(dir).withMongoPort(0)).start();
             MongoClient mongo = MongoClients.create(local.endpoint("mongo").url())) {
            mongo.getDatabase("admin").runCommand(new Document("createUser", "ops").append("pwd", "ops-secret")
                    .append("roles", List.of("root")));
        }
        ServerConfig config = ServerConfig.ephemeral(dir).withCosmosPort(0).withMongoPort(0)
                .withTablePort(0).withGremlinPort(0).withCosmosKeys(COSMOS_KEY, null).withGremlinAuth(true)
                .withSecurity(new SecurityConfig(null, null, Map.of("shop", List.of(TABLE_KEY)), true, null, null,
                        null))
                .withBindAddress(address);
        try (TetraDbServer server = new TetraDbServer(config).start()) {
            for (Endpoint e : server.endpoints()) {
                assertEquals(address, e.address().getAddress(), e.name() + " listens on the address given");
            }
            String cosmos = "http://" + Endpoint.hostPort(server.endpoint("cosmos").address());

            // admin routes: the Cosmos key, as a basic-auth password or a master-key signature
            HttpResponse<String> anonymous = get(cosmos + "/health", null);
            assertEquals(401, anonymous.statusCode());
            assertTrue(anonymous.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Basic"));
            assertFalse(anonymous.body().contains("cosmos"), "no face list without the key");
            assertEquals(200, get(cosmos + "/health", basic("admin", COSMOS_KEY)).statusCode());
            assertEquals(401, get(cosmos + "/health", basic("admin", TABLE_KEY)).statusCode());
            assertEquals(200, get(cosmos + "/metrics", basic("", COSMOS_KEY)).statusCode());
            for (String path : List.of("/api/partitions", "/partitions", "/api/metrics", "/metrics")) {
                assertEquals(401, get(cosmos + path, null).statusCode(), path);
            }
            String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
            HttpResponse<String> signed = HTTP.send(HttpRequest.newBuilder(URI.create(cosmos + "/api/partitions"))
                    .header("x-ms-date", date).header("Authorization", masterSignature("GET", date, COSMOS_KEY))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, signed.statusCode(), signed.body());
            String admin = "http://" + Endpoint.hostPort(server.endpoint("admin").address());
            assertEquals(401, get(admin + "/health", null).statusCode(), "the separate admin port too");
            assertEquals(401, get(admin + "/api/partitions", basic("x", TABLE_KEY)).statusCode());
            assertEquals(200, get(admin + "/api/partitions", basic("x", COSMOS_KEY)).statusCode());
            // the data explorer: its page to anyone (the sign-in), its API with the Cosmos key only
            assertEquals(200, get(cosmos + "/_explorer/", null).statusCode());
            assertEquals(401, get(cosmos + "/_explorer/api/databases", null).statusCode());
            assertEquals(401, get(cosmos + "/_explorer/api/databases", basic("", TABLE_KEY)).statusCode());
            assertEquals(200, get(cosmos + "/_explorer/api/databases", basic("", COSMOS_KEY)).statusCode());
            String explorerDate = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
            HttpResponse<String> explorerSigned = HTTP.send(HttpRequest.newBuilder(
                            URI.create(cosmos + "/_explorer/api/databases")).header("x-ms-date", explorerDate)
                    .header("Authorization", masterSignature("GET", explorerDate, COSMOS_KEY)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, explorerSigned.statusCode(), explorerSigned.body());

            // Mongo: SCRAM for every connection
            String mongoHost = Endpoint.hostPort(server.endpoint("mongo").address());
            try (MongoClient anonymousMongo = MongoClients.create("mongodb://" + mongoHost)) {
                MongoCommandException e = assertThrows(MongoCommandException.class,
                        () -> anonymousMongo.getDatabase("shop").getCollection("orders").countDocuments());
                assertEquals(13, e.getErrorCode());
            }
            try (MongoClient ops = MongoClients.create("mongodb://ops:ops-secret@" + mongoHost + "/?authSource=admin")) {
                ops.getDatabase("shop").getCollection("orders").insertOne(new Document("_id", 1));
                assertEquals(1, ops.getDatabase("shop").getCollection("orders").countDocuments());
            }

            // Tables: the configured account and key; Azurite's well-known key is not served
            String tables = "http://" + Endpoint.hostPort(server.endpoint("table").address());
            TableClient people = new TableClientBuilder().endpoint(tables + "/shop").tableName("people")
                    .credential(new AzureNamedKeyCredential("shop", TABLE_KEY)).buildClient();
            people.createTable();
            people.upsertEntity(new TableEntity("Smith", "Ben"));
            assertEquals(403, assertThrows(com.azure.data.tables.models.TableServiceException.class,
                    () -> new TableClientBuilder().endpoint(tables + "/devstoreaccount1").tableName("people")
                            .credential(new AzureNamedKeyCredential(io.tetradb.table.http.AccountKeys.DEV_ACCOUNT,
                                    io.tetradb.table.http.AccountKeys.DEV_KEY)).buildClient().getEntity("a", "b"))
                    .getResponse().getStatusCode());

            // Gremlin: SASL PLAIN, here in the Cosmos DB Gremlin API's form
            InetSocketAddress g = server.endpoint("gremlin").address();
            Cluster cluster = TestGremlin.cluster(g)
                    .credentials("/dbs/graphdb/colls/graph", COSMOS_KEY).create();
            try {
                assertEquals(List.of(0L), cluster.connect().submit("g.V().count()").all().get().stream()
                        .map(Result::getObject).toList());
            } finally {
                cluster.close();
            }
        }
    }

    @Test
    void withoutCredentialsOnEveryFaceTheStartIsRefused(@TempDir Path dir) throws Exception {
        InetAddress address = nonLoopbackAddress();
        ServerConfig open = ServerConfig.ephemeral(dir).withoutHttpPort().withCosmosPort(0).withMongoPort(0)
                .withTablePort(0).withGremlinPort(0).withBindAddress(address);
        StartupException refused = assertThrows(StartupException.class, () -> new TetraDbServer(open).start());
        for (String missing : List.of("Cosmos master key", "Tables accounts", "Gremlin authentication",
                "a Mongo user")) {
            assertTrue(refused.getMessage().contains(missing), refused.getMessage());
        }
        // everything but a Mongo user: still refused, naming only that
        ServerConfig noMongoUser = open.withCosmosKeys(COSMOS_KEY, null).withGremlinAuth(true)
                .withSecurity(new SecurityConfig(null, null, Map.of("shop", List.of(TABLE_KEY)), true, null, null,
                        null));
        StartupException mongo = assertThrows(StartupException.class, () -> new TetraDbServer(noMongoUser).start());
        assertTrue(mongo.getMessage().endsWith("missing: a Mongo user (start on 127.0.0.1 and run "
                + "db.getSiblingDB('admin').createUser(...) first)"), mongo.getMessage());
        // Azurite's key among the configured ones does not lock the Tables face
        ServerConfig azurite = noMongoUser.withMongoPort(0).withSecurity(new SecurityConfig(null, null,
                Map.of("devstoreaccount1", List.of(io.tetradb.table.http.AccountKeys.DEV_KEY)), true, null, null, null));
        assertTrue(assertThrows(StartupException.class, () -> new TetraDbServer(azurite).start()).getMessage()
                .contains("Tables accounts"));
        // the data directory was released each time: a loopback server opens it
        new TetraDbServer(ServerConfig.ephemeral(dir)).start().close();
    }

    /** An address of this machine other than loopback (the test reaches the server through it). */
    public static InetAddress nonLoopbackAddress() throws Exception {
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nic.isUp() || nic.isLoopback()) {
                continue;
            }
            for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                if (a instanceof Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress()) {
                    return a;
                }
            }
        }
        throw new IllegalStateException("this machine has no non-loopback IPv4 address to bind");
    }

    private static HttpResponse<String> get(String url, String authorization) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(StandardCharsets.UTF_8));
    }

    /** A Cosmos master-key signature for a route outside the resource model (empty resource type and link). */
    private static String masterSignature(String verb, String date, String key) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(Base64.getDecoder().decode(key), "HmacSHA256"));
        String payload = verb.toLowerCase() + "\n\n\n" + date.toLowerCase() + "\n\n";
        String sig = Base64.getEncoder().encodeToString(mac.doFinal(payload.getBytes(StandardCharsets.UTF_8)));
        return URLEncoder.encode("type=master&ver=1.0&sig=" + sig, StandardCharsets.UTF_8);
    }

    private static String newKey() {
        byte[] k = new byte[64];
        new SecureRandom().nextBytes(k);
        return Base64.getEncoder().encodeToString(k);
    }
}
