package io.tetradb.server.gremlin;

import com.mongodb.MongoCredential;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import io.tetradb.cosmos.CosmosRestOptions;
import io.tetradb.server.ServerConfig;
import io.tetradb.server.TestGremlin;
import io.tetradb.server.TetraDbServer;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.exception.ResponseException;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource.traversal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Gremlin Server with {@code --gremlin-auth}: gremlin-driver's credentials (SASL PLAIN) against the server's users
 * (made with the Mongo face's createUser, their roles applied per graph database) and against the Cosmos DB Gremlin
 * API's form ({@code /dbs/DB/colls/COLL} with the Cosmos key); no, wrong or unknown credentials are refused; a
 * read-only principal's traversals cannot write and its scripts are refused; a principal reaches only its graphs.
 */
class GremlinAuthTest {
    @TempDir
    static Path dataDir;
    static TetraDbServer server;
    static GremlinEndpoint gremlin;

    @BeforeAll
    static void start() {
        server = new TetraDbServer(ServerConfig.ephemeral(dataDir).withGremlinPort(0).withMongoPort(0)
                .withGraphs(List.of(GraphSpec.parse("other=otherdb/people/pk"))).withGremlinAuth(true)).start();
        gremlin = (GremlinEndpoint) server.endpoint("gremlin");
        String url = server.endpoint("mongo").url();
        try (MongoClient mongo = MongoClients.create(url)) {
            // the first user may be made without credentials (MongoDB's localhost exception)
            mongo.getDatabase("admin").runCommand(new Document("createUser", "boss").append("pwd", "boss-pw")
                    .append("roles", List.of(new Document("role", "root").append("db", "admin"))));
        }
        MongoClientSettings asBoss = MongoClientSettings.builder().applyConnectionString(new ConnectionString(url))
                .credential(MongoCredential.createScramSha256Credential("boss", "admin", "boss-pw".toCharArray()))
                .build();
        try (MongoClient mongo = MongoClients.create(asBoss)) {
            mongo.getDatabase("admin").runCommand(new Document("createUser", "reader").append("pwd", "reader-pw")
                    .append("roles", List.of(new Document("role", "read").append("db", "graphdb"))));
            mongo.getDatabase("graphdb").runCommand(new Document("createUser", "writer").append("pwd", "writer-pw")
                    .append("roles", List.of(new Document("role", "readWrite").append("db", "graphdb"))));
        }
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static Cluster cluster(String user, String password) {
        Cluster.Builder b = TestGremlin.cluster(gremlin.address());
        if (user != null) {
            b.credentials(user, password);
        }
        return b.create();
    }

    private static ResponseException refusal(Cluster cluster, String script) {
        Client c = cluster.connect();
        Throwable t = assertThrows(Exception.class, () -> c.submit(script).all().get());
        while (t != null && !(t instanceof ResponseException)) {
            t = t.getCause();
        }
        assertInstanceOf(ResponseException.class, t, "refused with a Gremlin status");
        return (ResponseException) t;
    }

    @Test
    void noWrongOrUnknownCredentialsAreRefused() {
        for (String[] creds : new String[][] {{null, null}, {"writer@graphdb", "nope"}, {"nobody", "x"},
                {"/dbs/graphdb/colls/graph", "not-the-key"}, {"writer", "writer-pw"} /* writer is graphdb's */}) {
            Cluster c = cluster(creds[0], creds[1]);
            try {
                ResponseException e = refusal(c, "g.V().count()");
                // Gremlin Server answers a connection that never authenticates 403, wrong credentials 401
                assertEquals(creds[0] == null ? ResponseStatusCode.FORBIDDEN : ResponseStatusCode.UNAUTHORIZED,
                        e.getResponseStatusCode(), creds[0] == null ? "no credentials" : creds[0]);
            } finally {
                c.close();
            }
        }
    }

    @Test
    void theCosmosFormOpensItsGraphWithTheKey() throws Exception {
        Cluster c = cluster("/dbs/otherdb/colls/people", CosmosRestOptions.EMULATOR_KEY);
        try {
            GraphTraversalSource other = traversal().withRemote(DriverRemoteConnection.using(c, "g_other"));
            other.addV("person").property("pk", "p").property("name", "ann").iterate();
            assertEquals(1L, other.V().has("name", "ann").count().next());
            // the default graph lives in another container: the same credentials do not open it
            GraphTraversalSource g = traversal().withRemote(DriverRemoteConnection.using(c, "g"));
            Exception e = assertThrows(Exception.class, () -> g.V().count().next());
            assertTrue(String.valueOf(e.getMessage()).contains("no access to the graph graph"), e.getMessage());
            // scripts can reach every served graph, and these credentials cannot write the default one
            ResponseException script = refusal(c, "g_other.V().count()");
            assertEquals(ResponseStatusCode.UNAUTHORIZED, script.getResponseStatusCode());
        } finally {
            c.close();
        }
    }

    @Test
    void rolesDecideWhatAStoredUserMayDo() throws Exception {
        Cluster w = cluster("writer@graphdb", "writer-pw");
        Cluster r = cluster("reader", "reader-pw");
        try {
            GraphTraversalSource asWriter = traversal().withRemote(DriverRemoteConnection.using(w, "g"));
            asWriter.addV("city").property("pk", "S").property("name", "Arles").iterate();
            GraphTraversalSource asReader = traversal().withRemote(DriverRemoteConnection.using(r, "g"));
            assertEquals(1L, asReader.V().has("name", "Arles").count().next());
            // read-only: a mutating traversal fails and changes nothing
            assertThrows(Exception.class, () -> asReader.addV("city").property("pk", "S").property("name", "Caen")
                    .iterate());
            assertEquals(0L, asWriter.V().has("name", "Caen").count().next());
            // a reader may not send scripts at all; the writer neither, since a script reaches otherdb too
            assertEquals(ResponseStatusCode.UNAUTHORIZED, refusal(r, "g.V().count()").getResponseStatusCode());
            assertEquals(ResponseStatusCode.UNAUTHORIZED, refusal(w, "g.V().count()").getResponseStatusCode());
            // neither may touch otherdb's graph
            GraphTraversalSource otherAsWriter = traversal().withRemote(DriverRemoteConnection.using(w, "g_other"));
            assertThrows(Exception.class, () -> otherAsWriter.V().count().next());
        } finally {
            w.close();
            r.close();
        }
    }

    @Test
    void rootMaySendScriptsToEveryGraph() throws Exception {
        Cluster c = cluster("boss", "boss-pw");
        try {
            Client client = c.connect();
            client.submit("g_other.addV('person').property('pk','q').property('name','bob').iterate()").all().get();
            assertEquals(1L, client.submit("g_other.V().has('name','bob').count()").one().getLong());
        } finally {
            c.close();
        }
    }
}
