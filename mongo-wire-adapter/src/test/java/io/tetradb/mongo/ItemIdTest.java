package io.tetradb.mongo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosException;
import io.tetradb.document.CosmosQueryRequestOptions;
import io.tetradb.document.PartitionKey;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A string {@code _id} is the core's item id as it is (as Cosmos DB's API for MongoDB stores it), other types keep an
 * id no string has ({@code ~o} + an ObjectId's hex, {@code ~n} + a number…), and a data directory written under the
 * earlier encoding ({@code "s"} + string, {@code "o"} + hex…) is converted when its collection is first opened.
 */
class ItemIdTest extends MongoServerTestBase {
    private static final ObjectId A = new ObjectId("5f0000000000000000000001");

    @Test
    void aStringIdIsTheItemIdAndNoOtherTypeCollidesWithAString() {
        MongoCollection<BsonDocument> c = client.getDatabase("ids").getCollection("mixed", BsonDocument.class);
        List<BsonValue> ids = List.of(new BsonString("m1"), new BsonObjectId(A), new BsonString(A.toHexString()),
                new BsonString("~o" + A.toHexString()), new BsonInt32(1), new BsonString("~n1"), new BsonString("1"),
                new BsonString("a/b~c#d"), new BsonString(""), new BsonString("~s"));
        for (BsonValue id : ids) {
            c.insertOne(new BsonDocument("_id", id).append("v", new BsonString(id.toString())));
        }
        assertEquals(ids.size(), c.countDocuments(), "every _id a document of its own");
        for (BsonValue id : ids) {
            assertEquals(new BsonString(id.toString()), c.find(Filters.eq("_id", id)).first().get("v"), id.toString());
        }
        CosmosContainer items = store.getDatabase("ids").getContainer("mixed");
        Set<String> itemIds = new TreeSet<>();
        items.queryItems("SELECT c.id FROM c", new CosmosQueryRequestOptions(), ObjectNode.class).forEach(i -> itemIds.add(i.get("id").asText()));
        assertEquals(new TreeSet<>(List.of("m1", "~o" + A.toHexString(), A.toHexString(), "~0o" + A.toHexString(),
                "~n1", "~0n1", "1", "a~1b~0c~4d", "~s", "~0s")), itemIds);
        // a regex prefix is a key range of string ids only
        assertEquals(List.of(new BsonString("~o" + A.toHexString())), ids(c, Filters.regex("_id", "^~o")));
        assertEquals(List.of(new BsonString(A.toHexString())), ids(c, Filters.regex("_id", "^5f0")));
        assertEquals(List.of(new BsonString("a/b~c#d")), ids(c, Filters.regex("_id", Pattern.compile("^a/b~"))));
        MongoWriteException dup = assertThrows(MongoWriteException.class,
                () -> c.insertOne(new BsonDocument("_id", new BsonString("m1"))));
        assertEquals(11000, dup.getError().getCode());
    }

    /**
     * A data directory whose documents have the earlier ids — among them {@code "ssm1"} (the {@code _id} "sm1"),
     * which must move first to free {@code "sm1"} for the {@code _id} "m1", and one already moved (an interrupted
     * pass) — is converted at the first open in a new process: every document under its new id, found by {@code _id},
     * its unique index still enforced, the old ids gone.
     */
    @Test
    void aDataDirectoryOfTheEarlierIdsIsConvertedOnOpen(@TempDir Path dir) throws Exception {
        List<BsonDocument> docs = List.of(doc(new BsonString("m1"), "a"), doc(new BsonString("sm1"), "b"),
                doc(new BsonObjectId(A), "c"), doc(new BsonInt32(7), "d"), doc(new BsonString("moved"), "e"));
        try (CosmosClient first = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            MongoWireServer s = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, first);
            try (MongoClient m = MongoClients.create("mongodb://127.0.0.1:" + s.address().getPort())) {
                MongoCollection<BsonDocument> c = m.getDatabase("old").getCollection("things", BsonDocument.class);
                c.createIndex(Indexes.ascending("email"), new IndexOptions().unique(true));
                c.insertMany(docs);
            } finally {
                s.close();
            }
            // back to the earlier encoding, through the core: the shape an older TetraDB left on disk
            CosmosContainer items = first.getDatabase("old").getContainer("things");
            String[][] earlier = {{"sm1", "ssm1"}, {"m1", "sm1"}, {"~o" + A.toHexString(), "o" + A.toHexString()},
                    {"~n7", "n7"}};
            for (String[] move : earlier) {
                ObjectNode item = items.readItem(move[0], PartitionKey.NONE, ObjectNode.class).getItem();
                items.deleteItem(move[0], PartitionKey.NONE, null);
                item.put("id", move[1]);
                items.createItem(item, PartitionKey.NONE, null);
            }
            Set<String> before = new TreeSet<>();
            items.queryItems("SELECT c.id FROM c", new CosmosQueryRequestOptions(), ObjectNode.class).forEach(i -> before.add(i.get("id").asText()));
            assertEquals(new TreeSet<>(List.of("ssm1", "sm1", "o" + A.toHexString(), "n7", "moved")), before);
        }
        try (CosmosClient second = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            MongoWireServer s = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, second);
            try (MongoClient m = MongoClients.create("mongodb://127.0.0.1:" + s.address().getPort())) {
                MongoCollection<BsonDocument> c = m.getDatabase("old").getCollection("things", BsonDocument.class);
                for (BsonDocument d : docs) {
                    assertEquals(d, c.find(Filters.eq("_id", d.get("_id"))).first());
                }
                assertEquals(docs.size(), c.countDocuments());
                CosmosContainer items = second.getDatabase("old").getContainer("things");
                Set<String> after = new TreeSet<>();
                items.queryItems("SELECT c.id FROM c", new CosmosQueryRequestOptions(), ObjectNode.class).forEach(i -> after.add(i.get("id").asText()));
                assertEquals(new TreeSet<>(List.of("m1", "sm1", "~o" + A.toHexString(), "~n7", "moved")), after);
                assertEquals(new BsonString("sm1"), new BsonString(items.readItem("sm1", PartitionKey.NONE,
                        ObjectNode.class).getItem().get("_id").asText()), "sm1 is now the _id 'sm1'");
                assertThrows(CosmosException.class, () -> items.readItem("ssm1", PartitionKey.NONE, ObjectNode.class));
                MongoWriteException dup = assertThrows(MongoWriteException.class,
                        () -> c.insertOne(doc(new BsonString("x"), "a")));
                assertEquals(11000, dup.getError().getCode());
                assertTrue(dup.getMessage().contains("email"), dup.getMessage());
            } finally {
                s.close();
            }
        }
    }

    private static BsonDocument doc(BsonValue id, String email) {
        return new BsonDocument("_id", id).append("email", new BsonString(email));
    }

    private static List<BsonValue> ids(MongoCollection<BsonDocument> c, org.bson.conversions.Bson filter) {
        List<BsonValue> out = new ArrayList<>();
        c.find(filter).forEach(d -> out.add(d.get("_id")));
        return out;
    }
}
