package io.tetradb.server.crossface;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import io.tetradb.server.Endpoint;
import io.tetradb.server.ServerConfig;
import io.tetradb.server.TestGremlin;
import io.tetradb.server.TetraDbServer;
import io.tetradb.server.crossface.RandomTypedValues.Writer;
import io.tetradb.server.gremlin.GraphSpec;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.Result;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 17's typed-value property test: random typed documents written on one face through its real client
 * (azure-cosmos, the MongoDB Java driver, the Azure Tables SDK, the gremlin-driver) and read on each of the other
 * three through theirs, equal by the documented mapping (document-core/README.md, "Cross-face views"; test code in
 * {@link FaceViews}). Each face writes into its own container, which every face sees (a graph, a table, a sharded
 * collection and a Cosmos container at once), and draws only the types its client can express.
 *
 * <p>Seeded: {@code -Dtetradb.crossface.seed=N} repeats a run, {@code -Dtetradb.crossface.docs=N} sets the documents
 * per writer (200 by default, each read by three faces); every failure prints the seed.
 */
class TypedValuesAcrossFacesPropertyTest {
    private static final String EMULATOR_KEY =
            "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";
    private static final String DEV_KEY =
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
    private static final String DB = "devstoreaccount1";
    private static final int DOCS = Integer.getInteger("tetradb.crossface.docs", 200);
    private static final long SEED = Long.getLong("tetradb.crossface.seed", new Random().nextLong());
    /**
     * Names a face may show besides the user fields: identity and the partition key, never bookkeeping. SQL (the
     * Cosmos face) shows items as stored, with the layout of the face that wrote them: a Mongo document's
     * {@code _id}, a table entity's {@code PartitionKey} and {@code Timestamp}, a vertex's {@code label}; a table
     * entity's Timestamp is one of its properties in Mongo and Gremlin too (a date).
     */
    private static final Map<Writer, Set<String>> IDENTITY = Map.of(
            Writer.MONGO, Set.of("_id", "pk", "PartitionKey", "Timestamp", "label"),
            Writer.TABLES, Set.of("label"),
            Writer.COSMOS, Set.of("id", "pk", "PartitionKey", "Timestamp", "label", "_id", "_rid", "_self", "_etag", "_attachments",
                    "_ts"),
            Writer.GREMLIN, Set.of("pk", "PartitionKey", "Timestamp"));

    @TempDir
    static Path dir;
    static TetraDbServer server;
    static Cluster cluster;
    static Client gremlin;
    static MongoClient mongo;
    static CosmosClient cosmos;

    @BeforeAll
    static void start() throws Exception {
        server = new TetraDbServer(ServerConfig.ephemeral(dir).withCosmosPort(0).withGremlinPort(0).withMongoPort(0)
                .withTablePort(0).withGraphs(List.of(new GraphSpec("cw", DB, "cw", "pk"),
                        new GraphSpec("mw", DB, "mw", "pk"), new GraphSpec("tw", DB, "tw", "PartitionKey"),
                        new GraphSpec("gw", DB, "gw", "pk")))).start();
        InetSocketAddress a = server.endpoint("gremlin").address();
        cluster = TestGremlin.cluster(a).create();
        gremlin = cluster.connect();
        mongo = MongoClients.create(server.endpoint("mongo").url());
        cosmos = new CosmosClientBuilder().endpoint("http://" + Endpoint.hostPort(server.endpoint("cosmos").address()))
                .key(EMULATOR_KEY).gatewayMode().buildClient();
    }

    @AfterAll
    static void stop() throws Exception {
        if (cosmos != null) {
            cosmos.close();
        }
        if (mongo != null) {
            mongo.close();
        }
        if (cluster != null) {
            cluster.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void cosmosWritesOthersRead() throws Exception {
        roundTrip(Writer.COSMOS, "cw");
    }

    @Test
    void mongoWritesOthersRead() throws Exception {
        roundTrip(Writer.MONGO, "mw");
    }

    @Test
    void tablesWritesOthersRead() throws Exception {
        roundTrip(Writer.TABLES, "tw");
    }

    @Test
    void gremlinWritesOthersRead() throws Exception {
        roundTrip(Writer.GREMLIN, "gw");
    }

    private void roundTrip(Writer writer, String container) throws Exception {
        long seed = SEED ^ writer.ordinal();
        RandomTypedValues random = new RandomTypedValues(new Random(seed), writer);
        Map<String, Written> written = new LinkedHashMap<>();
        for (int i = 0; i < DOCS; i++) {
            Written w = new Written("d" + i, "p" + (i % 4), random.document());
            write(writer, container, w);
            written.put(w.key, w);
        }
        List<String> problems = new ArrayList<>();
        for (Writer reader : Writer.values()) {
            if (reader == writer) {
                continue;
            }
            Map<String, Seen> seen = read(reader, writer, container);
            for (Written w : written.values()) {
                Seen s = seen.remove(w.key);
                if (s == null) {
                    problems.add(reader + " does not show " + w.key + " " + w.fields);
                    continue;
                }
                if (!w.pk.equals(s.pk)) {
                    problems.add(reader + " shows " + w.key + " in partition " + s.pk + ", not " + w.pk);
                }
                Map<String, String> expected = new TreeMap<>();
                w.fields.forEach((k, v) -> {
                    String e = expected(reader, v);
                    if (e != null) {
                        expected.put(k, e);
                    }
                });
                Map<String, String> actual = new TreeMap<>();
                s.fields.forEach((k, v) -> {
                    if (k.matches("f\\d+")) {
                        actual.put(k, v.apply(expected.getOrDefault(k, "")));
                    } else if (!IDENTITY.get(reader).contains(k)) {
                        actual.put(k, "(bookkeeping shown)");
                    }
                });
                if (!expected.equals(actual)) {
                    problems.add(writer + " → " + reader + " " + w.key + ":\n  wrote    " + w.fields
                            + "\n  expected " + expected + "\n  read     " + actual);
                }
            }
            if (!seen.isEmpty()) {
                problems.add(reader + " shows items nobody wrote: " + seen.keySet());
            }
        }
        if (!problems.isEmpty()) {
            fail(problems.size() + " mismatches, seed " + SEED + " (-Dtetradb.crossface.seed=" + SEED + "):\n"
                    + String.join("\n", problems.subList(0, Math.min(25, problems.size()))));
        }
    }

    private record Written(String key, String pk, Map<String, TypedValue> fields) {
    }

    /** What a reader shows of one item: its partition key value and its fields (canonical text given the expected). */
    private record Seen(String pk, Map<String, Function<String, String>> fields) {
    }

    private static String expected(Writer reader, TypedValue v) {
        return switch (reader) {
            case MONGO -> FaceViews.expectedMongo(v);
            case TABLES -> FaceViews.expectedTables(v);
            case COSMOS -> FaceViews.expectedCosmos(v);
            case GREMLIN -> FaceViews.expectedGremlin(v);
        };
    }

    private void write(Writer writer, String container, Written w) throws Exception {
        switch (writer) {
            case COSMOS -> {
                ObjectNode item = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
                item.put("id", w.key).put("pk", w.pk);
                w.fields.forEach((k, v) -> item.set(k, FaceViews.json(v)));
                cosmos.getDatabase(DB).getContainer(container).createItem(item, new PartitionKey(w.pk), null);
            }
            case MONGO -> {
                BsonDocument doc = new BsonDocument("_id", new BsonString(w.key)).append("pk", new BsonString(w.pk));
                w.fields.forEach((k, v) -> doc.put(k, FaceViews.bson(v)));
                mongo.getDatabase(DB).getCollection(container, BsonDocument.class).insertOne(doc);
            }
            case TABLES -> {
                TableEntity e = new TableEntity(w.pk, w.key);
                w.fields.forEach((k, v) -> {
                    e.addProperty(k, FaceViews.edm(v));
                    if (v instanceof TypedValue.Dbl d && !Double.isFinite(d.v())) {
                        // the SDK sends NaN / ±Infinity as JSON strings, which without the type are Edm.String (as
                        // in Azure); the annotation makes them Edm.Double
                        e.addProperty(k + "@odata.type", "Edm.Double");
                    }
                });
                table(container).createEntity(e);
            }
            case GREMLIN -> {
                StringBuilder script = new StringBuilder("g_" + container
                        + ".addV('doc').property(T.id, vid).property('pk', vpk)");
                Map<String, Object> bindings = new HashMap<>();
                bindings.put("vid", w.key);
                bindings.put("vpk", w.pk);
                int i = 0;
                for (Map.Entry<String, TypedValue> e : w.fields.entrySet()) {
                    script.append(".property('").append(e.getKey()).append("', p").append(i).append(")");
                    bindings.put("p" + i++, FaceViews.java(e.getValue()));
                }
                gremlin.submit(script.append(".iterate()").toString(), bindings).all().get();
            }
        }
    }

    private Map<String, Seen> read(Writer reader, Writer writer, String container) throws Exception {
        Map<String, Seen> out = new HashMap<>();
        switch (reader) {
            case MONGO -> {
                for (BsonDocument d : mongo.getDatabase(DB).getCollection(container, BsonDocument.class).find()) {
                    Map<String, Function<String, String>> fields = new TreeMap<>();
                    d.forEach((k, v) -> fields.put(k, e -> FaceViews.actualMongo(v)));
                    BsonValue pk = d.get(writer == Writer.TABLES ? "PartitionKey" : "pk");
                    out.put(d.get("_id").asString().getValue(),
                            new Seen(pk == null ? null : pk.asString().getValue(), fields));
                }
            }
            case TABLES -> {
                for (TableEntity e : table(container).listEntities()) {
                    Map<String, Function<String, String>> fields = new TreeMap<>();
                    e.getProperties().forEach((k, v) -> {
                        if (!k.equals("PartitionKey") && !k.equals("RowKey") && !k.equals("Timestamp")
                                && !k.startsWith("odata.") && !k.contains("@odata")) {
                            fields.put(k, x -> FaceViews.actualTables(v, x.startsWith("json:")));
                        }
                    });
                    out.put(e.getRowKey(), new Seen(e.getPartitionKey(), fields));
                }
            }
            case COSMOS -> {
                for (JsonNode item : cosmos.getDatabase(DB).getContainer(container)
                        .queryItems("SELECT * FROM c", new CosmosQueryRequestOptions(), JsonNode.class)) {
                    Map<String, Function<String, String>> fields = new TreeMap<>();
                    item.fields().forEachRemaining(f -> {
                        JsonNode v = f.getValue();
                        // Cosmos DB's Gremlin layout, which SQL shows as it is: [{id, _value}]
                        JsonNode shown = writer == Writer.GREMLIN && v.isArray() && v.size() == 1
                                && v.get(0).has("_value") ? v.get(0).get("_value") : v;
                        fields.put(f.getKey(), x -> FaceViews.actualJson(shown));
                    });
                    // a Mongo document's string _id is its item id (IdCodec)
                    out.put(item.path("id").asText(), new Seen(item.path(writer == Writer.TABLES ? "PartitionKey" : "pk").asText(), fields));
                }
            }
            case GREMLIN -> {
                List<Result> results = gremlin.submit("g_" + container
                        + ".V().project('id','props').by(id()).by(valueMap())").all().get();
                for (Result r : results) {
                    Map<?, ?> m = (Map<?, ?>) r.getObject();
                    List<?> id = (List<?>) m.get("id");
                    Map<String, Function<String, String>> fields = new TreeMap<>();
                    ((Map<?, ?>) m.get("props")).forEach((k, v) -> {
                        List<?> values = (List<?>) v;
                        fields.put((String) k, x -> values.size() == 1 ? FaceViews.actualGremlin(values.get(0))
                                : "several:" + FaceViews.actualGremlin(values));
                    });
                    out.put((String) id.get(1), new Seen(String.valueOf(id.get(0)), fields));
                }
            }
        }
        return out;
    }

    private static TableClient table(String name) {
        InetSocketAddress a = server.endpoint("table").address();
        return new TableServiceClientBuilder().connectionString("DefaultEndpointsProtocol=http;AccountName=" + DB
                + ";AccountKey=" + DEV_KEY + ";TableEndpoint=http://" + Endpoint.hostPort(a) + "/" + DB + ";")
                .buildClient().getTableClient(name);
    }
}
