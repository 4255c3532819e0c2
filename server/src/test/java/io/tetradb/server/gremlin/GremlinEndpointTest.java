package io.tetradb.server.gremlin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.PartitionKey;
import io.tetradb.server.ServerConfig;
import io.tetradb.server.TestGremlin;
import io.tetradb.server.TetraDbServer;
import io.tetradb.server.gremlin.charge.ChargeMeter;
import io.tetradb.testing.SharedExamples;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.RequestOptions;
import org.apache.tinkerpop.gremlin.driver.Result;
import org.apache.tinkerpop.gremlin.driver.ResultSet;
import org.apache.tinkerpop.gremlin.driver.exception.ResponseException;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.util.MessageSerializer;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;
import org.apache.tinkerpop.gremlin.util.ser.GraphBinaryMessageSerializerV1;
import org.apache.tinkerpop.gremlin.util.ser.GraphSONMessageSerializerV2;
import org.apache.tinkerpop.gremlin.util.ser.GraphSONMessageSerializerV3;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;

import static org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource.traversal;
import static org.apache.tinkerpop.gremlin.process.traversal.P.gt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Gremlin Server inside a running TetraDB server, driven by TinkerPop's Java driver the way an application does:
 * scripts (gremlin-groovy and gremlin-lang) through {@link Client}, bytecode through {@link DriverRemoteConnection},
 * with each serializer the server offers. One server for the class; each test writes its own partitions or graph.
 */
class GremlinEndpointTest {
    @TempDir
    static Path dataDir;

    static TetraDbServer server;
    static GremlinEndpoint gremlin;
    static final List<Cluster> clusters = new ArrayList<>();
    static Client client;           // GraphBinary
    static GraphTraversalSource g;  // bytecode over GraphBinary

    @BeforeAll
    static void start() throws Exception {
        server = new TetraDbServer(ServerConfig.ephemeral(dataDir).withGremlinPort(0)
                .withGraphs(List.of(GraphSpec.parse("modern=moderndb/modern/pk")))).start();
        gremlin = (GremlinEndpoint) server.endpoint("gremlin");
        Cluster cluster = cluster(new GraphBinaryMessageSerializerV1());
        client = cluster.connect();
        g = traversal().withRemote(DriverRemoteConnection.using(cluster, "g"));
        loadAirGraph();
    }

    @AfterAll
    static void stop() throws Exception {
        if (g != null) {
            g.close();
        }
        clusters.forEach(Cluster::close);
        if (server != null) {
            server.close();
        }
    }

    static Cluster cluster(MessageSerializer<?> serializer) {
        Cluster c = TestGremlin.cluster(gremlin.address()).serializer(serializer).create();
        clusters.add(c);
        return c;
    }

    /** The shared example, sent as it is written: one Groovy script. */
    static void loadAirGraph() throws Exception {
        client.submit(Files.readString(SharedExamples.dir().resolve("air-graph.groovy"))).all().get();
    }

    static List<Object> script(Client c, String gremlin) throws Exception {
        return c.submit(gremlin).all().get().stream().map(Result::getObject).toList();
    }

    static List<Object> gremlinLang(String gremlin) throws Exception {
        return client.submit(gremlin, RequestOptions.build().language("gremlin-lang").create())
                .all().get().stream().map(Result::getObject).toList();
    }

    // ---------------------------------------------------------------------------------------- air-graph.groovy

    @Test
    void airGraphAnswersThroughGroovyScripts() throws Exception {
        airGraphMustHold(this::groovyOrFail);
    }

    @Test
    void airGraphAnswersThroughGremlinLang() throws Exception {
        airGraphMustHold(s -> {
            try {
                return gremlinLang(s);
            } catch (Exception e) {
                throw new AssertionError(s, e);
            }
        });
    }

    private List<Object> groovyOrFail(String s) {
        try {
            return script(client, s);
        } catch (Exception e) {
            throw new AssertionError(s, e);
        }
    }

    /** The "Must hold" lines of air-graph.groovy, sent as scripts in the given language. */
    private static void airGraphMustHold(Function<String, List<Object>> run) {
        assertEquals(List.of("Seattle"), run.apply("g.V(['USA','Seattle']).values('name')"));
        assertEquals(List.of(174), run.apply("g.E(['USA','I5']).values('miles')"));
        assertEquals(List.of("Portland", "Vancouver"),
                run.apply("g.V(['USA','Seattle']).out('highway').values('name').order()"));
        assertEquals(List.of("Seattle"), run.apply("g.V(['CAN','Vancouver']).in('highway').values('name')"));
        assertEquals(List.of(2L), run.apply("g.V().has('pk','USA').count()"));
        // the other id forms of the issue
        assertEquals(List.of(List.of("USA", "Seattle")), run.apply("g.V(['USA','Seattle']).id()"));
        assertEquals(List.of("Seattle", "Vancouver"),
                run.apply("g.V(['USA','Seattle'], ['CAN','Vancouver']).values('name')"));
        assertEquals(List.of("Vancouver"), run.apply("g.V('Vancouver').values('name')"));
        assertEquals(List.of("Portland"), run.apply("g.V('Portland').has('pk','USA').values('name')"));
    }

    @Test
    void airGraphAnswersThroughBytecode() {
        assertEquals(List.of("Seattle"), g.V(List.of("USA", "Seattle")).values("name").toList());
        assertEquals(List.of(174), g.E(List.of("USA", "I5")).values("miles").toList());
        assertEquals(List.of("Portland", "Vancouver"),
                g.V(List.of("USA", "Seattle")).out("highway").values("name").order().toList());
        assertEquals(List.of("Seattle"), g.V(List.of("CAN", "Vancouver")).in("highway").values("name").toList());
        assertEquals(2L, g.V().has("pk", "USA").count().next());
        assertEquals(List.of("Seattle", "Vancouver"),
                g.V(List.of("USA", "Seattle"), List.of("CAN", "Vancouver")).values("name").toList());
        assertEquals(List.of("Portland"), g.V("Portland").has("pk", "USA").values("name").toList());
        Vertex seattle = g.V(List.of("USA", "Seattle")).next();
        assertEquals(List.of("USA", "Seattle"), seattle.id());
        assertEquals("city", seattle.label());
    }

    @Test
    void aVertexWrittenThroughGremlinIsADocument() throws Exception {
        script(client, "g.addV('city').property('pk','MEX').property(T.id,'Tijuana').property('population',1900000)");
        CosmosContainer container = server.client().getDatabase("graphdb").getContainer("graph");
        ObjectNode item = container.readItem("Tijuana", new PartitionKey("MEX"), ObjectNode.class).getItem();
        assertEquals("city", item.get("label").asText());
        assertEquals(1900000, item.get("population").get(0).get("_value").asInt());
        // and an edge is an item in its source's partition (the air graph's I5)
        ObjectNode i5 = container.readItem("I5", new PartitionKey("USA"), ObjectNode.class).getItem();
        assertEquals("Portland", i5.get("_sink").asText());
    }

    // ------------------------------------------------------------------------------------------------ modern

    @Test
    void modernGraphCreatedThroughTheServer() throws Exception {
        Client modern = client.alias("g_modern");
        script(modern, """
                g.addV('person').property(T.id,'1').property('pk','p').property('name','marko').property('age',29).as('marko').
                  addV('person').property(T.id,'2').property('pk','p').property('name','vadas').property('age',27).as('vadas').
                  addV('software').property(T.id,'3').property('pk','s').property('name','lop').property('lang','java').as('lop').
                  addV('person').property(T.id,'4').property('pk','p').property('name','josh').property('age',32).as('josh').
                  addV('software').property(T.id,'5').property('pk','s').property('name','ripple').property('lang','java').as('ripple').
                  addV('person').property(T.id,'6').property('pk','p').property('name','peter').property('age',35).as('peter').
                  addE('knows').from('marko').to('vadas').property(T.id,'7').property('weight',0.5d).
                  addE('knows').from('marko').to('josh').property(T.id,'8').property('weight',1.0d).
                  addE('created').from('marko').to('lop').property(T.id,'9').property('weight',0.4d).
                  addE('created').from('josh').to('ripple').property(T.id,'10').property('weight',1.0d).
                  addE('created').from('josh').to('lop').property(T.id,'11').property('weight',0.4d).
                  addE('created').from('peter').to('lop').property(T.id,'12').property('weight',0.2d).iterate()""");
        assertEquals(List.of(6L), script(modern, "g.V().count()"));
        assertEquals(List.of(6L), script(modern, "g.E().count()"));
        assertEquals(List.of("josh", "vadas"),
                script(modern, "g.V().has('name','marko').out('knows').values('name').order()"));
        assertEquals(List.of(123), script(modern, "g.V().hasLabel('person').values('age').sum()"));
        assertEquals(List.of("lop", "ripple"),
                script(modern, "g.V().has('name','marko').repeat(out()).times(2).values('name').order()"));
        assertEquals(List.of(Map.of("lop", 3L, "ripple", 1L)),
                script(modern, "g.V().out('created').groupCount().by('name')"));
        // the path's objects read by the client: a lambda (map{ it.get().objects() }) is refused, as in Cosmos DB
        assertEquals(List.of("marko", "josh", "ripple"), modern.submit(
                "g.V(['p','1']).out('knows').has('age', gt(30)).out('created').has('name','ripple').path().by('name')")
                .one().getPath().objects());

        // the same graph through bytecode on its own traversal source
        GraphTraversalSource gm = traversal().withRemote(DriverRemoteConnection.using(client.getCluster(), "g_modern"));
        assertEquals(List.of("josh"), gm.V().has("name", "marko").out("knows").has("age", gt(30)).values("name").toList());
        assertEquals(List.of("josh", "marko", "peter"),
                gm.V(List.of("s", "3")).in("created").values("name").order().toList());
        assertEquals(3L, gm.V().has("lang", "java").in("created").dedup().count().next());
        gm.close();

        // the modern graph is its own container: the default graph does not see it
        assertEquals(List.of(0L), script(client, "g.V().has('name','marko').count()"));
    }

    // ------------------------------------------------------------------------------------------- serializers

    @Test
    void theShippedRemoteYamlConnects() throws Exception {
        // what the Gremlin Console reads for ":remote connect tinkerpop.server conf/remote.yaml" (port aside)
        Cluster console = TestGremlin.patient(Cluster.build(Path.of("..", "conf", "remote.yaml").toFile()))
                .port(gremlin.address().getPort()).create();
        clusters.add(console);
        // serializeResultToString: the console's results arrive as the strings it prints
        assertEquals(List.of("v[[USA, Seattle]]"), script(console.connect(), "g.V(['USA','Seattle'])"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"graphbinary-v1", "graphson-v3", "graphson-v2"})
    void eachSerializerCarriesIdsElementsAndCharges(String name) throws Exception {
        MessageSerializer<?> serializer = switch (name) {
            case "graphbinary-v1" -> new GraphBinaryMessageSerializerV1();
            case "graphson-v3" -> new GraphSONMessageSerializerV3();
            default -> new GraphSONMessageSerializerV2();
        };
        Cluster cluster = cluster(serializer);
        Client c = cluster.connect();
        String pk = "ser-" + name;

        ResultSet written = c.submit("g.addV('thing').property('pk', p).property(T.id, 'a').property('n', 1)"
                + ".property('when', new Date(1000))", Map.of("p", pk));
        Vertex v = written.one().getVertex();
        assertEquals(List.of(pk, "a"), v.id());
        assertEquals("thing", v.label());
        assertCharges(written.statusAttributes().get());

        assertEquals(List.of(Map.of("n", List.of(1), "when", List.of(new java.util.Date(1000)), "pk", List.of(pk))),
                c.submit("g.V([p,'a']).valueMap()", Map.of("p", pk)).all().get().stream().map(Result::getObject)
                        .toList());

        GraphTraversalSource remote = traversal().withRemote(DriverRemoteConnection.using(cluster, "g"));
        assertEquals(List.of(pk, "a"), remote.V(List.of(pk, "a")).id().next());
        assertEquals(1, remote.V(List.of(pk, "a")).values("n").next());
        Vertex same = remote.V(List.of(pk, "a")).next();
        assertEquals(v.id(), same.id());
        remote.close();

        ResultSet bytecode = c.alias("g").submit(remote.V(List.of(pk, "a")).values("n"));
        assertEquals(1, bytecode.one().getInt());
        assertCharges(bytecode.statusAttributes().get());
    }

    // ------------------------------------------------------------------------------------------------ charges

    static void assertCharges(Map<String, Object> attributes) {
        assertInstanceOf(Number.class, attributes.get(ChargeMeter.REQUEST_CHARGE), attributes.toString());
        assertInstanceOf(Number.class, attributes.get(ChargeMeter.TOTAL_REQUEST_CHARGE), attributes.toString());
        double charge = ((Number) attributes.get(ChargeMeter.REQUEST_CHARGE)).doubleValue();
        double total = ((Number) attributes.get(ChargeMeter.TOTAL_REQUEST_CHARGE)).doubleValue();
        assertTrue(charge >= 0 && total > 0 && total >= charge, attributes.toString());
    }

    @Test
    void everyResponseCarriesItsRequestCharge() throws Exception {
        script(client, "(1..10).each{ g.addV('n').property('pk','charges').property(T.id, 'c' + it).iterate() }");

        // a point read: about one request unit, as in the document API
        ResultSet point = client.submit("g.V(['charges','c1'])");
        point.all().get();
        Map<String, Object> read = point.statusAttributes().get();
        assertCharges(read);
        assertEquals(read.get(ChargeMeter.REQUEST_CHARGE), read.get(ChargeMeter.TOTAL_REQUEST_CHARGE));
        double pointRead = ((Number) read.get(ChargeMeter.REQUEST_CHARGE)).doubleValue();
        assertTrue(pointRead >= 0.5 && pointRead < 3, "a point read of a small vertex is about 1 RU: " + read);

        // a write answered with "no content" (iterate) is charged too
        ResultSet write = client.submit("g.addV('n').property('pk','charges').property(T.id,'c11').iterate()");
        assertEquals(0, write.all().get().size());
        assertCharges(write.statusAttributes().get());

        // three batches of 4, 4 and 3 results: the last response reports its own charge and the whole request's
        ResultSet batched = client.submit("g.V().has('pk','charges')", RequestOptions.build().batchSize(4).create());
        assertEquals(11, batched.all().get().size());
        Map<String, Object> last = batched.statusAttributes().get();
        assertCharges(last);
        double lastCharge = ((Number) last.get(ChargeMeter.REQUEST_CHARGE)).doubleValue();
        double total = ((Number) last.get(ChargeMeter.TOTAL_REQUEST_CHARGE)).doubleValue();
        assertTrue(total > lastCharge, last.toString());

        // bytecode through the driver's remote connection path
        ResultSet bytecode = client.alias("g").submit(g.V().has("pk", "charges").count());
        assertEquals(11L, bytecode.one().getLong());
        assertCharges(bytecode.statusAttributes().get());

        // errors too
        ResponseException e = fails(() -> client.submit("g.V(['charges','c1']).values('x').next()").all().get());
        Map<String, Object> error = e.getStatusAttributes().orElseThrow();
        assertTrue(error.containsKey(ChargeMeter.REQUEST_CHARGE), error.toString());
        assertTrue(error.containsKey(ChargeMeter.TOTAL_REQUEST_CHARGE), error.toString());

        assertEquals(0, gremlin.chargeMeter().openRequests(), "every request's total is forgotten after its answer");
    }

    @Test
    void sessionsKeepTheirVariables() throws Exception {
        Client session = client.getCluster().connect("a-session");
        try {
            script(session, "seattle = g.V(['USA','Seattle']).next()");
            assertEquals(List.of("Seattle"), script(session, "seattle.values('name')"));
        } finally {
            session.close();
        }
    }

    @Test
    void concurrentRequestsReportOnlyTheirOwnCharges() throws Exception {
        script(client, "g.addV('n').property('pk','solo').property(T.id,'one')");
        ResultSet solo = client.submit("g.V(['solo','one'])");
        solo.all().get();
        Object pointRead = solo.statusAttributes().get().get(ChargeMeter.REQUEST_CHARGE);

        // point reads interleaved with scans on every executor thread: each read still reports one point read
        List<java.util.concurrent.CompletableFuture<ResultSet>> reads = new ArrayList<>();
        List<java.util.concurrent.CompletableFuture<ResultSet>> scans = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            reads.add(client.submitAsync("g.V(['solo','one'])"));
            scans.add(client.submitAsync("g.V().count()"));
        }
        for (var read : reads) {
            ResultSet rs = read.get();
            rs.all().get();
            assertEquals(pointRead, rs.statusAttributes().get().get(ChargeMeter.REQUEST_CHARGE));
        }
        for (var scan : scans) {
            scan.get().all().get();
        }
    }

    // ------------------------------------------------------------------------------------------------- errors

    static ResponseException fails(Supplier0 call) {
        ExecutionException e = assertThrows(ExecutionException.class, call::run);
        return assertInstanceOf(ResponseException.class, e.getCause(), String.valueOf(e.getCause()));
    }

    interface Supplier0 {
        void run() throws Exception;
    }

    @Test
    void badRequestsGetGremlinErrorsAndTheServerKeepsServing() throws Exception {
        ResponseException syntax = fails(() -> client.submit("g.V(").all().get());
        assertEquals(ResponseStatusCode.SERVER_ERROR_EVALUATION, syntax.getResponseStatusCode());

        ResponseException lang = fails(() -> client.submit("g.V(",
                RequestOptions.build().language("gremlin-lang").create()).all().get());
        assertEquals(ResponseStatusCode.SERVER_ERROR_EVALUATION, lang.getResponseStatusCode());

        ResponseException alias = fails(() -> client.alias("nope").submit(g.V().count()).all().get());
        assertEquals(ResponseStatusCode.REQUEST_ERROR_INVALID_REQUEST_ARGUMENTS, alias.getResponseStatusCode());
        assertTrue(alias.getMessage().contains("nope"), alias.getMessage());

        // a vertex without its partition key: refused, with a message that says so, by every path
        ResponseException noPk = fails(() -> client.submit("g.addV('city').property('name','Nowhere')").all().get());
        assertEquals(ResponseStatusCode.SERVER_ERROR_EVALUATION, noPk.getResponseStatusCode());
        assertTrue(noPk.getMessage().contains("pk"), noPk.getMessage());
        ResponseException noPkBytecode = fails(() -> client.alias("g")
                .submit(g.addV("city").property("name", "Nowhere")).all().get());
        assertEquals(ResponseStatusCode.SERVER_ERROR, noPkBytecode.getResponseStatusCode());
        assertTrue(noPkBytecode.getMessage().contains("pk"), noPkBytecode.getMessage());
        assertEquals(0L, g.V().has("name", "Nowhere").count().next());

        // still serving, on the same connection
        assertEquals(List.of("Seattle"), script(client, "g.V(['USA','Seattle']).values('name')"));
        assertEquals(List.of("Seattle"), g.V(List.of("USA", "Seattle")).values("name").toList());
    }
}
