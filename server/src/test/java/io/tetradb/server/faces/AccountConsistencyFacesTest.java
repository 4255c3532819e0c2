package io.tetradb.server.faces;

import com.azure.core.http.rest.Response;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import com.azure.data.tables.models.TableEntity;
import io.tetradb.document.ConsistencyLevel;
import io.tetradb.server.Endpoint;
import io.tetradb.server.ServerConfig;
import io.tetradb.server.StoreOptions;
import io.tetradb.server.TestGremlin;
import io.tetradb.server.TetraDbServer;
import io.tetradb.server.gremlin.GraphSpec;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.ResultSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Tables and Gremlin faces have no consistency level of their own: they read at the account's
 * ({@code --consistency}), as Cosmos DB's Table and Gremlin APIs do, so under a Strong account the same read reports
 * twice the charge it reports under Session, through each face's own client: the Azure Tables Java SDK's
 * {@code x-ms-request-charge} header and gremlin-driver's {@code x-ms-total-request-charge} status attribute.
 */
class AccountConsistencyFacesTest {
    private static final String DEV_KEY =
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
    private static final String ACCOUNT = "devstoreaccount1";
    @TempDir
    static Path sessionDir;
    @TempDir
    static Path strongDir;
    static TetraDbServer session;
    static TetraDbServer strong;

    @BeforeAll
    static void start() {
        session = start(sessionDir, ConsistencyLevel.SESSION);
        strong = start(strongDir, ConsistencyLevel.STRONG);
    }

    static TetraDbServer start(Path dir, ConsistencyLevel level) {
        ServerConfig config = ServerConfig.ephemeral(dir).withGremlinPort(0).withTablePort(0)
                .withGraphs(List.of(GraphSpec.parse("people=" + ACCOUNT + "/people/pk")));
        return new TetraDbServer(config, StoreOptions.DEFAULTS.withConsistency(level)).start();
    }

    @AfterAll
    static void stop() {
        for (TetraDbServer s : new TetraDbServer[]{session, strong}) {
            if (s != null) {
                s.close();
            }
        }
    }

    private static TableClient table(TetraDbServer server) {
        InetSocketAddress a = server.endpoint("table").address();
        return new TableClientBuilder().connectionString("DefaultEndpointsProtocol=http;AccountName=" + ACCOUNT
                + ";AccountKey=" + DEV_KEY + ";TableEndpoint=http://" + Endpoint.hostPort(a) + "/" + ACCOUNT + ";")
                .tableName("accounts").buildClient();
    }

    /** The charge the Tables face reports for a point read of one small entity. */
    private static double tablesPointReadCharge(TetraDbServer server) {
        TableClient t = table(server);
        t.createTable();
        t.createEntity(new TableEntity("p1", "r1").addProperty("name", "marko").addProperty("age", 29));
        Response<TableEntity> read = t.getEntityWithResponse("p1", "r1", null, null, null);
        assertEquals(200, read.getStatusCode());
        assertEquals("marko", read.getValue().getProperty("name"));
        return Double.parseDouble(read.getHeaders().getValue("x-ms-request-charge"));
    }

    @Test
    void tablesPointReadCostsTwiceUnderAStrongAccount() {
        double atSession = tablesPointReadCharge(session);
        double atStrong = tablesPointReadCharge(strong);
        assertEquals(1.0, atSession, "a 1 KB point read at Session");
        assertEquals(2.0, atStrong, "the same read under a Strong account");
    }

    /** The total charge gremlin-driver reports for {@code script}, over the same two vertices and edge. */
    private static double gremlinReadCharge(TetraDbServer server, String script) throws Exception {
        InetSocketAddress a = server.endpoint("gremlin").address();
        Cluster cluster = TestGremlin.cluster(a).create();
        try {
            Client client = cluster.connect();
            if (client.submit("g_people.V('marko').count()").all().get().get(0).getLong() == 0) {
                client.submit("g_people.addV('person').property(T.id,'marko').property('pk','p1').property('age',29)"
                        + ".as('a').addV('person').property(T.id,'vadas').property('pk','p1')"
                        + ".addE('knows').from('a').iterate()").all().get();
            }
            ResultSet rs = client.submit(script);
            List<?> results = rs.all().get();
            assertEquals(1, results.size(), script);
            Map<String, Object> attributes = rs.statusAttributes().get();
            return ((Number) attributes.get("x-ms-total-request-charge")).doubleValue();
        } finally {
            cluster.close();
        }
    }

    @Test
    void gremlinReadsCostTwiceUnderAStrongAccount() throws Exception {
        for (String read : new String[]{"g_people.V('marko').has('pk','p1').values('age')",
                "g_people.V('marko').out('knows').id()"}) {
            double atSession = gremlinReadCharge(session, read);
            double atStrong = gremlinReadCharge(strong, read);
            assertTrue(atSession > 0, read + ": " + atSession);
            assertEquals(2 * atSession, atStrong, 0.011, read + " at Session " + atSession + ", Strong " + atStrong);
        }
    }
}
