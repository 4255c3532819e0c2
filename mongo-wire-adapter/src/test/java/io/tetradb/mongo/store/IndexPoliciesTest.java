package io.tetradb.mongo.store;

import io.tetradb.core.index.CompiledIndexingPolicy;
import org.bson.BsonDocument;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which stored paths a collection's Mongo indexes make the core index. */
class IndexPoliciesTest {
    private static CompiledIndexingPolicy policy(String... keys) {
        List<BsonDocument> specs = java.util.Arrays.stream(keys)
                .map(k -> new BsonDocument("key", BsonDocument.parse(k))).toList();
        return CompiledIndexingPolicy.of(IndexPolicies.of(specs));
    }

    @Test
    void onlyIdAndIndexedFieldsAreIndexed() {
        CompiledIndexingPolicy p = policy("{owner: 1}", "{'a.b': -1, x: 1}");
        assertTrue(p.indexes(List.of("_id")));
        assertTrue(p.indexes(List.of("_id", "$oid")), "an ObjectId _id is stored as {$oid: hex}");
        assertTrue(p.indexes(List.of("owner")));
        assertTrue(p.indexes(List.of("owner", "[]")), "multikey");
        assertTrue(p.indexes(List.of("a", "b")));
        assertTrue(p.indexes(List.of("a", "[]", "b")), "a.b through an array of documents");
        assertTrue(p.indexes(List.of("a", "b", "[]", "c")));
        assertTrue(p.indexes(List.of("x")));
        assertFalse(p.indexes(List.of("a", "c")));
        assertFalse(p.indexes(List.of("notes")));
        assertFalse(p.indexes(List.of("_ts")), "not the core's _ts (Cosmos DB indexes it always, MongoDB has none)");
        assertFalse(p.indexes(List.of("id")), "nor its id: the item key finds an _id");
        CompiledIndexingPolicy none = policy();
        assertTrue(none.indexes(List.of("_id")));
        assertFalse(none.indexes(List.of("owner")));
    }

    @Test
    void reservedNamesAndWildcards() {
        assertTrue(policy("{id: 1}").indexes(List.of("~id")), "a user field 'id' is stored as '~id'");
        assertTrue(policy("{'$**': 1}").indexes(List.of("anything", "deep")));
        assertTrue(policy("{'a.$**': 1}").indexes(List.of("z")), "a subtree wildcard indexes everything here");
        assertNull(IndexPolicies.patterns("a..b"));
        assertEquals(8, IndexPolicies.patterns("a.b.c.d.e").size(), "four segments spelled, the fifth under /*");
    }
}
