package io.tetradb.mongo.wire;

import org.bson.BsonDocument;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which commands may run on a connection's event loop: bounded, never waiting for an fsync. */
class InlineCommandsTest {
    private static boolean quick(String json) {
        return InlineCommands.isQuick(BsonDocument.parse(json), "db", (db, c) -> true);
    }

    /**
     * mongo-net: a collection's first open in a process may convert its documents with fsynced writes, so a point
     * find of a collection not opened yet runs on the pool; once open, on the event loop.
     */
    @Test
    void aPointFindOfACollectionNotYetOpenGoesToThePool() {
        BsonDocument find = BsonDocument.parse("{find: 'c', filter: {_id: 5}}");
        java.util.Set<String> open = new java.util.HashSet<>();
        java.util.function.BiPredicate<String, String> opened = (db, c) -> open.contains(db + "." + c);
        assertFalse(InlineCommands.isQuick(find, "db", opened));
        open.add("other.c");
        assertFalse(InlineCommands.isQuick(find, "db", opened), "another database's collection of that name");
        open.add("db.c");
        assertTrue(InlineCommands.isQuick(find, "db", opened));
        assertTrue(InlineCommands.isQuick(BsonDocument.parse("{ping: 1}"), "db", opened), "no collection read");
        assertFalse(InlineCommands.isQuick(BsonDocument.parse("{find: 5, filter: {_id: 5}}"), "db", opened));
    }

    @Test
    void pointFindsAndHandshakesRunInline() {
        assertTrue(quick("{find: 'c', filter: {_id: 5}}"));
        assertTrue(quick("{find: 'c', filter: {_id: {$eq: 'x'}}, limit: 1, singleBatch: true}"));
        assertTrue(quick("{hello: 1}"));
        assertTrue(quick("{ping: 1}"));
    }

    @Test
    void scansWritesAndAuthenticationDoNot() {
        assertFalse(quick("{find: 'c', filter: {_id: 5}, collation: {locale: 'en', strength: 2}}"), "a scan");
        assertFalse(quick("{find: 'c', filter: {_id: {$gt: 5}}}"));
        assertFalse(quick("{find: 'c', filter: {_id: 5, a: 1}}"));
        assertFalse(quick("{find: 'c', filter: {_id: /^a/}}"));
        assertFalse(quick("{find: 'c', filter: {_id: [1, 2]}}"));
        assertFalse(quick("{find: 'c'}"));
        assertFalse(quick("{insert: 'c', documents: [{_id: 1}]}"));
        assertFalse(quick("{update: 'c', updates: [{q: {_id: 1}, u: {$inc: {n: 1}}}]}"));
        assertFalse(quick("{hello: 1, saslSupportedMechs: 'admin.u'}"), "SCRAM work");
        assertFalse(quick("{hello: 1, speculativeAuthenticate: {}}"));
        assertFalse(quick("{}"));
    }
}
