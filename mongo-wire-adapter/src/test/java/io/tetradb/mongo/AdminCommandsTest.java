package io.tetradb.mongo;

import com.mongodb.MongoCommandException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import com.mongodb.client.MongoDatabase;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.BsonValue;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Replica set status, validate, currentOp, serverStatus, hostInfo and the statistics commands, as MongoDB 7.0. */
class AdminCommandsTest extends MongoServerTestBase {

    private static BsonDocument admin(String command) {
        return admin(new BsonDocument(command, new BsonInt32(1)));
    }

    private static BsonDocument admin(BsonDocument command) {
        return client.getDatabase("admin").runCommand(command, BsonDocument.class);
    }

    private static int code(org.junit.jupiter.api.function.Executable command) {
        return assertThrows(MongoCommandException.class, command).getErrorCode();
    }

    @Test
    void theReplicaSetHelloAnnouncesAnswersRsStatusAndRsConf() {
        BsonDocument hello = admin("hello");
        BsonDocument status = admin("replSetGetStatus");
        BsonDocument config = admin("replSetGetConfig").getDocument("config");
        String me = hello.getString("me").getValue();
        assertEquals(hello.getString("setName"), status.getString("set"));
        assertEquals(hello.getString("setName"), config.getString("_id"));
        assertEquals(List.of(new BsonString(me)), hello.getArray("hosts").getValues());
        assertEquals(new BsonInt32(1), status.get("myState"));
        assertInstanceOf(org.bson.BsonDateTime.class, status.get("date"));
        BsonDocument member = status.getArray("members").get(0).asDocument();
        assertEquals(1, status.getArray("members").size());
        assertEquals(me, member.getString("name").getValue());
        assertEquals(new BsonDouble(1), member.get("health"));
        assertEquals(new BsonInt32(1), member.get("state"));
        assertEquals("PRIMARY", member.getString("stateStr").getValue());
        assertInstanceOf(BsonTimestamp.class, member.getDocument("optime").get("ts"));
        assertEquals(new BsonInt64(1), member.getDocument("optime").get("t"));
        assertTrue(member.getBoolean("self").getValue());
        assertEquals(hello.get("setVersion"), config.get("version"));
        assertEquals(me, config.getArray("members").get(0).asDocument().getString("host").getValue());
        assertEquals(13, code(() -> client.getDatabase("other").runCommand(new Document("replSetGetStatus", 1))),
                "admin only");
        assertEquals(23, code(() -> admin("replSetInitiate")));
        assertEquals(hello.getString("setName"), admin("getCmdLineOpts").getDocument("parsed")
                .getDocument("replication").getString("replSet"));
        assertEquals(hello.getString("setName"), admin("serverStatus").getDocument("repl").getString("setName"));
    }

    @Test
    void validateChecksTheCollectionAndItsIndexes() {
        MongoCollection<Document> c = client.getDatabase("val").getCollection("items");
        c.insertMany(List.of(new Document("_id", 1).append("tags", List.of("a", "b", "b")),
                new Document("_id", 2).append("tags", "c"), new Document("_id", 3)));
        c.createIndex(new Document("tags", 1));
        c.createIndex(new Document("tags", -1), new com.mongodb.client.model.IndexOptions()
                .sparse(true).name("sparse_tags"));
        BsonDocument v = client.getDatabase("val").runCommand(new BsonDocument("validate", new BsonString("items")),
                BsonDocument.class);
        assertTrue(v.getBoolean("valid").getValue(), v.toJson());
        assertEquals(new BsonInt32(3), v.get("nrecords"));
        assertEquals(new BsonInt32(3), v.get("nIndexes"));
        assertEquals(new BsonInt32(3), v.getDocument("keysPerIndex").get("_id_"));
        assertEquals(new BsonInt32(4), v.getDocument("keysPerIndex").get("tags_1"), "a, b, c and a null key");
        assertEquals(new BsonInt32(3), v.getDocument("keysPerIndex").get("sparse_tags"), "no key for the document without tags");
        assertTrue(v.getArray("errors").isEmpty());
        assertEquals(26, code(() -> client.getDatabase("val").runCommand(new Document("validate", "nope"))));
    }

    @Test
    void currentOpListsThisOperationAndTheConnections() {
        BsonDocument ops = admin(new BsonDocument("currentOp", new BsonInt32(1)).append("$all", org.bson.BsonBoolean.TRUE));
        List<BsonDocument> inprog = ops.getArray("inprog").stream().map(BsonValue::asDocument).toList();
        BsonDocument self = inprog.stream().filter(d -> d.containsKey("command")
                && d.getDocument("command").containsKey("currentOp")).findFirst().orElseThrow();
        assertTrue(self.getBoolean("active").getValue());
        assertEquals("command", self.getString("op").getValue());
        assertEquals("admin.$cmd", self.getString("ns").getValue());
        assertInstanceOf(BsonInt32.class, self.get("opid"));
        assertInstanceOf(BsonInt64.class, self.get("microsecs_running"));
        assertEquals("mongo-java-driver", self.getDocument("clientMetadata").getDocument("driver")
                .getString("name").getValue().split("\\|")[0]);
        assertTrue(inprog.stream().anyMatch(d -> !d.getBoolean("active").getValue()),
                "$all lists idle connections too (the driver's monitor)");
        // mongosh's db.currentOp() runs the $currentOp stage on admin
        List<Document> viaStage = client.getDatabase("admin").aggregate(List.of(
                new Document("$currentOp", new Document("idleConnections", false)),
                new Document("$match", new Document("command.aggregate", 1)))).into(new ArrayList<>());
        assertEquals(1, viaStage.size());
        assertEquals(true, viaStage.get(0).getBoolean("active"));
        assertEquals(73, code(() -> client.getDatabase("other").aggregate(List.of(
                new Document("$currentOp", new Document()))).first()));
        BsonDocument filtered = admin(new BsonDocument("currentOp", new BsonInt32(1))
                .append("op", new BsonString("insert")));
        assertTrue(filtered.getArray("inprog").isEmpty(), "the other fields filter the operations");
    }

    @Test
    void serverStatusCountsOpenCursors() {
        MongoCollection<Document> c = client.getDatabase("cur").getCollection("c");
        c.insertMany(IntStream.range(0, 10).mapToObj(i -> new Document("_id", i)).toList());
        BsonDocument before = admin("serverStatus").getDocument("metrics").getDocument("cursor");
        long open = before.getDocument("open").getInt64("total").getValue();
        try (MongoCursor<Document> cursor = c.find().batchSize(2).iterator()) {
            cursor.next();
            BsonDocument during = admin("serverStatus").getDocument("metrics").getDocument("cursor");
            assertEquals(open + 1, during.getDocument("open").getInt64("total").getValue());
            assertEquals(new BsonInt64(0), during.getDocument("open").get("noTimeout"));
            assertEquals(new BsonInt64(0), during.getDocument("open").get("pinned"));
            assertTrue(during.getInt64("totalOpened").getValue() >= 1);
        }
        assertEquals(open, admin("serverStatus").getDocument("metrics").getDocument("cursor")
                .getDocument("open").getInt64("total").getValue(), "closing the cursor kills it");
        assertTrue(admin("serverStatus").getDocument("connections").getInt32("current").getValue() >= 1);
    }

    @Test
    void hostInfoDescribesTheMachine() {
        BsonDocument system = admin("hostInfo").getDocument("system");
        String arch = System.getProperty("os.arch");
        assertEquals(arch.equals("amd64") ? "x86_64" : arch, system.getString("cpuArch").getValue());
        assertEquals(new BsonInt32(Runtime.getRuntime().availableProcessors()), system.get("numCores"));
        assertTrue(system.getInt64("memSizeMB").getValue() > 0);
        assertNotNull(admin("hostInfo").getDocument("os").getString("type"));
    }

    @Test
    void statisticsAreTypedAsMongoDbTypesThem() {
        MongoDatabase db = client.getDatabase("stats");
        MongoCollection<Document> c = db.getCollection("c");
        c.insertMany(List.of(new Document("_id", 1).append("x", 1), new Document("_id", 2).append("x", 2)));
        c.createIndex(new Document("x", 1));
        BsonDocument dbStats = db.runCommand(new Document("dbStats", 1), BsonDocument.class);
        assertEquals(new BsonInt64(2), dbStats.get("objects"), "documents only, not the face's index catalog");
        assertEquals(new BsonInt64(1), dbStats.get("collections"));
        assertEquals(new BsonInt64(2), dbStats.get("indexes"));
        assertEquals(new BsonInt64(1), dbStats.get("scaleFactor"));
        assertInstanceOf(BsonDouble.class, dbStats.get("dataSize"));
        assertInstanceOf(BsonDouble.class, dbStats.get("avgObjSize"));
        assertInstanceOf(BsonDouble.class, dbStats.get("storageSize"));
        assertTrue(dbStats.getDouble("fsTotalSize").getValue() > 0, "the data directory's file system");

        BsonDocument collStats = db.runCommand(new Document("collStats", "c"), BsonDocument.class);
        assertEquals(new BsonInt32(2), collStats.get("count"));
        assertInstanceOf(BsonInt32.class, collStats.get("size"));
        assertInstanceOf(BsonInt32.class, collStats.get("storageSize"));
        assertInstanceOf(BsonInt32.class, collStats.get("totalIndexSize"));
        assertEquals(new BsonInt32(2), collStats.get("nindexes"));
        assertEquals(new BsonInt32(1), collStats.get("scaleFactor"));

        BsonDocument missing = db.runCommand(new Document("collStats", "nope"), BsonDocument.class);
        assertEquals(new BsonDouble(1), missing.get("ok"));
        assertEquals(new BsonInt32(0), missing.get("count"));
        assertEquals("stats.nope", missing.getString("ns").getValue());
    }

    @Test
    void aDatabaseGoesAwayWithItsLastCollection() {
        MongoCollection<Document> c = client.getDatabase("shortlived").getCollection("only");
        c.insertOne(new Document("_id", 1));
        c.createIndex(new Document("a", 1));
        assertTrue(client.listDatabaseNames().into(new ArrayList<>()).contains("shortlived"));
        c.drop();
        assertFalse(client.listDatabaseNames().into(new ArrayList<>()).contains("shortlived"));
        assertFalse(admin("listDatabases").getArray("databases").stream()
                .anyMatch(d -> d.asDocument().getString("name").getValue().equals("shortlived")));

        // a collection with a validator leaves its options' catalog behind: that is not a collection either
        client.getDatabase("validated").createCollection("v", new com.mongodb.client.model.CreateCollectionOptions()
                .validationOptions(new com.mongodb.client.model.ValidationOptions()
                        .validator(com.mongodb.client.model.Filters.gt("a", 0))));
        assertTrue(client.listDatabaseNames().into(new ArrayList<>()).contains("validated"));
        client.getDatabase("validated").getCollection("v").drop();
        assertFalse(client.listDatabaseNames().into(new ArrayList<>()).contains("validated"));
    }

    @Test
    void listCommandsNamesTheCommands() {
        BsonDocument commands = admin("listCommands").getDocument("commands");
        assertTrue(commands.containsKey("find") && commands.containsKey("replSetGetStatus")
                && commands.containsKey("isMaster") && commands.containsKey("createUser"), commands.keySet().toString());
        assertFalse(commands.getDocument("ping").getBoolean("requiresAuth").getValue());
    }
}
