package io.tetradb.mongo;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** shardCollection as Cosmos DB's Mongo API has it: the shard key becomes the container's partition key. */
class ShardingTest extends MongoServerTestBase {

    @Test
    void aShardedCollectionPartitionsByItsKey() {
        client.getDatabase("geo").getCollection("people").drop();
        Document reply = client.getDatabase("admin").runCommand(new Document("shardCollection", "geo.people")
                .append("key", new Document("region", "hashed")));
        assertEquals("ShardCollectionResponse", reply.getString("_t"));
        assertEquals("geo.people", reply.getString("collectionsharded"));
        assertEquals("/region", store.coreStore().container("geo", "people").definition().partitionKey().paths().get(0));

        MongoCollection<Document> c = client.getDatabase("geo").getCollection("people");
        MongoWriteException noKey = assertThrows(MongoWriteException.class, () -> c.insertOne(new Document("_id", 1)));
        assertEquals(61, noKey.getError().getCode());
        List<Document> docs = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            docs.add(new Document("_id", i).append("region", "r" + (i % 3)).append("n", i));
        }
        c.insertMany(docs);
        c.insertOne(new Document("_id", 0).append("region", "other"));
        assertEquals(2, c.countDocuments(Filters.eq("_id", 0)), "_id is unique per shard key value, as in Cosmos DB");
        assertEquals(10, c.countDocuments(Filters.eq("region", "r1")));
        assertEquals(List.of(1, 4, 7), c.find(Filters.and(Filters.eq("region", "r1"), Filters.lt("n", 10)))
                .map(d -> d.getInteger("_id")).into(new ArrayList<>()));
        c.updateOne(Filters.and(Filters.eq("region", "r1"), Filters.eq("_id", 4)), Updates.inc("n", 100));
        assertEquals(104, c.find(Filters.eq("_id", 4)).first().get("n"));
        MongoWriteException moveShard = assertThrows(MongoWriteException.class,
                () -> c.updateOne(Filters.eq("_id", 4), Updates.set("region", "r2")));
        assertEquals(66, moveShard.getError().getCode());
        assertEquals(1, c.deleteOne(Filters.eq("region", "other")).getDeletedCount());
        assertEquals(30, c.countDocuments());

        MongoCommandException nonEmpty = assertThrows(MongoCommandException.class, () -> client.getDatabase("admin")
                .runCommand(new Document("shardCollection", "geo.people").append("key", new Document("n", "hashed"))));
        assertEquals(20, nonEmpty.getErrorCode());
        Document again = client.getDatabase("admin").runCommand(new Document("shardCollection", "geo.people")
                .append("key", new Document("region", "hashed")));
        assertTrue(again.containsKey("collectionsharded"), "sharding again by the same key is fine");
    }
}
