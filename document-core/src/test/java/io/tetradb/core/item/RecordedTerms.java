package io.tetradb.core.item;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Test help: two recorders hold the same index terms, the second's offsets {@code shift} bytes further on. */
final class RecordedTerms {
    private RecordedTerms() {
    }

    static void assertSameTerms(ItemTermRecorder expected, ItemTermRecorder actual, int shift) {
        assertEquals(expected.count(), actual.count());
        for (int t = 0; t < expected.count(); t++) {
            assertEquals(expected.path(t), actual.path(t));
            assertEquals(expected.offset(t) + shift, actual.offset(t), "term " + t);
        }
    }
}
