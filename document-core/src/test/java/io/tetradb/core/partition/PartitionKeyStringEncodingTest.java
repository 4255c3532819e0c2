package io.tetradb.core.partition;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** A one-level string key is encoded by a short path; its bytes (in every stored key) must be the general path's. */
class PartitionKeyStringEncodingTest {

    @Test
    void oneLevelStringKeysEncodeAsTheGeneralPathDoes() {
        String[] values = {"", "a", "device-42", "x".repeat(127), "x".repeat(128), "x".repeat(300), "é", "日本",
                "a\u0000b", "\uD83D\uDE00"};
        for (String v : values) {
            byte[] one = PartitionKeyValue.of(PartitionKeyValue.component(v)).encoded();
            // two levels take the general path; the first level's bytes come first
            byte[] two = PartitionKeyValue.of(PartitionKeyValue.component(v), PartitionKeyValue.component(true))
                    .encoded();
            assertArrayEquals(Arrays.copyOf(two, two.length - 1), one, "key '" + v + "'");
            PartitionKeyValue back = PartitionKeyValue.decode(one, 0, one.length);
            assertEquals(v, back.components().get(0).textValue());
            assertEquals(PartitionKeyValue.of(PartitionKeyValue.component(v)), back);
        }
    }
}
