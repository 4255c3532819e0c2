package io.tetradb.cosmos;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code @azure/cosmos} 4.10.1's {@code getChangeFeedIterator} against the endpoint: every start point, both modes. */
class NodeChangeFeedTest extends ServerFixture {
    @Test
    void nodeChangeFeedIterator() throws Exception {
        String out = NodeSdkTest.runScript("cosmos-changefeed.mjs", Map.of(), endpoint(), KEY);
        assertTrue(out.contains("OK node change feed"), out);
    }
}
