package io.tetradb.mongo.wire;

import org.bson.BsonDocument;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which commands may run on a connection's event loop: bounded, never waiting for an fsync. */
class InlineCommandsTest {
    private static boolean quick(String json) {
        return InlineCommands.isQuick(BsonDocument.parse(json));
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
