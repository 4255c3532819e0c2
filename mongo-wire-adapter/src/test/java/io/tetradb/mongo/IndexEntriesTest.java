package io.tetradb.mongo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import io.tetradb.core.index.CompiledIndexingPolicy;
import io.tetradb.core.store.ContainerStore;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a collection's documents cost in the core's index: an entry for {@code _id} and one per field of the user's
 * own indexes, nothing for the core's {@code id} and {@code _ts} (Cosmos DB's always-indexed system paths, which no
 * Mongo query reads) — counted in the core's index family, which {@code checkIndexes()} also finds consistent.
 */
class IndexEntriesTest extends MongoServerTestBase {
    private static final int N = 60;

    private static MongoCollection<Document> loaded(String name) {
        MongoCollection<Document> c = client.getDatabase("ie").getCollection(name);
        c.drop();
        return c;
    }

    private static List<Document> docs(int from, int n) {
        List<Document> out = new ArrayList<>();
        for (int i = from; i < from + n; i++) {
            out.add(new Document("_id", i).append("owner", i % 7).append("note", "n" + i));
        }
        return out;
    }

    private static ContainerStore.IndexCheck check(String name) {
        ContainerStore cs = store.coreStore().container("ie", name);
        ContainerStore.IndexCheck check = cs.checkIndexes();
        assertTrue(check.consistent(), check.toString());
        return check;
    }

    @Test
    void anInsertWritesEntriesForIdAndTheUsersIndexesOnly() {
        MongoCollection<Document> plain = loaded("plain");
        plain.insertMany(docs(0, N));
        assertEquals(N, check("plain").stored(), "one _id entry per document (was three: _id, id, _ts)");

        MongoCollection<Document> owned = loaded("owned");
        owned.createIndex(new Document("owner", 1));
        owned.insertMany(docs(0, N));
        owned.insertOne(new Document("owner", 3)); // an _id the face generates: an ObjectId
        assertEquals(2L * (N + 1), check("owned").stored(), "_id and owner per document");
        CompiledIndexingPolicy policy = store.coreStore().container("ie", "owned").seekablePolicy();
        assertFalse(policy.indexes(List.of("id")));
        assertFalse(policy.indexes(List.of("_ts")));
        assertTrue(policy.indexes(List.of("_id")));
        assertTrue(policy.indexes(List.of("owner")));
    }

    @Test
    void idQueriesAnswerAsBeforeWithoutTheCoresIdEntries() {
        MongoCollection<Document> c = loaded("ids");
        c.insertMany(docs(0, N));
        c.insertMany(List.of(new Document("_id", "pear").append("owner", 1),
                new Document("_id", "peach").append("owner", 2), new Document("_id", "plum").append("owner", 3)));
        assertEquals("n17", c.find(Filters.eq("_id", 17)).first().getString("note"));
        assertEquals(3, c.countDocuments(Filters.in("_id", 3, 4, 5, 999)));
        assertEquals(List.of(57, 58, 59), ints(c.find(Filters.gt("_id", 56)).into(new ArrayList<>())));
        assertEquals(List.of("peach", "pear"), c.find(Filters.regex("_id", "^pea")).map(d -> d.getString("_id"))
                .into(new ArrayList<>()).stream().sorted().toList());
        assertEquals("IDHACK", stage(c, new Document("_id", 17)));
        assertEquals("IXSCAN", stage(c, new Document("_id", new Document("$gt", 56))), "ranges seek /_id");
        assertEquals(N + 3L, c.countDocuments());
    }

    @Test
    void aCollectionWithTheEarlierPolicyLosesTheSystemEntriesAtItsNextIndexChange() {
        MongoCollection<Document> c = loaded("earlier");
        c.insertOne(new Document("_id", -1)); // creates the collection
        ContainerStore cs = store.coreStore().container("ie", "earlier");
        ObjectNode earlier = cs.definition().indexingPolicy().deepCopy();
        earlier.remove(CompiledIndexingPolicy.SYSTEM_PATHS); // the policy this face wrote before: id and _ts indexed
        store.coreStore().replaceContainer("ie", "earlier", null, earlier, cs.definition().defaultTimeToLive());
        awaitRebuild("earlier");
        c.insertMany(docs(0, N));
        assertEquals(3L * (N + 1), check("earlier").stored(), "_id, id and _ts per document");

        c.createIndex(new Document("owner", 1)); // the policy is written anew, without the core's system paths
        awaitRebuild("earlier");
        assertEquals(2L * N + 1, check("earlier").stored(), "_id per document, owner where it is set");
        assertEquals(9, c.countDocuments(Filters.eq("owner", 3)));
    }

    private static void awaitRebuild(String name) {
        try {
            store.coreStore().container("ie", name).awaitIndexRebuild();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static List<Integer> ints(List<Document> docs) {
        return docs.stream().map(d -> d.getInteger("_id")).sorted().toList();
    }

    private static String stage(MongoCollection<Document> c, Document filter) {
        Document explain = client.getDatabase("ie").runCommand(new Document("explain",
                new Document("find", c.getNamespace().getCollectionName()).append("filter", filter)));
        Document plan = explain.get("queryPlanner", Document.class).get("winningPlan", Document.class);
        while (plan.containsKey("inputStage")) {
            plan = plan.get("inputStage", Document.class);
        }
        return plan.getString("stage");
    }
}
