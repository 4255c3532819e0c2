package io.tetradb.core.store;

import io.tetradb.core.storage.Durability;
import io.tetradb.core.storage.RocksEngine;
import io.tetradb.core.storage.meta.EmbeddedMetadataStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * Path numbers are claimed with create-if-absent. A path whose UTF-8 form is not its text (a lone surrogate becomes
 * '?') cannot be found again by its text after a reload: numbering it must use the number its key holds, not
 * reload and retry for ever (it did, when another path shared the key or the dictionary was reopened).
 */
class PathDictionaryTest {
    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // the old loop never ended
    void pathsThatShareTheirUtf8FormGetTheNumberTheKeyHolds(@TempDir Path dir) {
        try (RocksEngine engine = RocksEngine.open(dir, Durability.SYNC, 8 << 20)) {
            EmbeddedMetadataStore metadata = new EmbeddedMetadataStore(engine);
            PathDictionary first = new PathDictionary(metadata, 7);
            int plain = first.id("/a");
            int lone = first.id("/b\uD800");
            assertNotEquals(plain, lone);
            assertEquals(lone, first.id("/b\uDC00"), "same key in the store, same number");

            PathDictionary reopened = new PathDictionary(metadata, 7);
            assertEquals(lone, reopened.id("/b\uD800"));
            assertEquals(plain, reopened.id("/a"));
            assertEquals(Math.max(plain, lone) + 1, reopened.id("/c"), "a new path takes the next number");
        }
    }
}
