package io.tetradb.core.storage;

import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyOptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Memtables of 16 MiB or more take their memory in 8 MiB blocks ({@link RocksSettings#ARENA_BLOCK}), large enough
 * for malloc to put on transparent huge pages; smaller memtables keep RocksDB's own block size.
 */
class MemtableArenaBlocksTest {
    @AfterEach
    void clear() {
        System.clearProperty("tetradb.rocks.indexMemtables");
        System.clearProperty("tetradb.rocks.walRecycling");
    }

    @Test
    void everyFamilyOfTheUsualSizeGetsEightMiBBlocks() {
        try (RocksSettings s = new RocksSettings(64L << 20)) {
            for (Space space : Space.values()) {
                try (ColumnFamilyOptions o = s.columnFamilyOptions(space)) {
                    assertEquals(8L << 20, o.arenaBlockSize(), space.toString());
                }
            }
        }
    }

    @Test
    void smallMemtablesKeepRocksDbsBlockSize() {
        assertEquals(0, RocksSettings.arenaBlock(2L << 20));
        assertEquals(0, RocksSettings.arenaBlock((16L << 20) - 1));
        assertEquals(8L << 20, RocksSettings.arenaBlock(16L << 20));
        System.setProperty("tetradb.rocks.walRecycling", "off"); // what small index memtables need
        System.setProperty("tetradb.rocks.indexMemtables", "small"); // 2 MiB index memtables
        try (RocksSettings s = new RocksSettings(64L << 20);
             ColumnFamilyOptions index = s.columnFamilyOptions(Space.INDEX)) {
            assertEquals(0, index.arenaBlockSize());
        }
    }

    @Test
    void anOpenedStoreRunsWithThem(@TempDir Path dir) throws IOException {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("d");
            Map<String, String> blocks = arenaBlocksByFamily(dir);
            assertEquals(String.valueOf(8L << 20), blocks.get("docs"), blocks.toString());
            assertEquals(String.valueOf(8L << 20), blocks.get("index"), blocks.toString());
        }
    }

    /** Each column family's {@code arena_block_size} in the newest RocksDB OPTIONS file under {@code dir}. */
    private static Map<String, String> arenaBlocksByFamily(Path dir) throws IOException {
        Path options;
        try (Stream<Path> files = Files.walk(dir)) {
            options = files.filter(p -> p.getFileName().toString().startsWith("OPTIONS-"))
                    .max((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString())).orElseThrow();
        }
        Map<String, String> out = new LinkedHashMap<>();
        String family = null;
        List<String> lines = Files.readAllLines(options);
        for (String line : lines) {
            String t = line.trim();
            if (t.startsWith("[CFOptions \"")) {
                family = t.substring("[CFOptions \"".length(), t.length() - 2);
            } else if (family != null && t.startsWith("arena_block_size=")) {
                out.put(family, t.substring("arena_block_size=".length()));
            }
        }
        return out;
    }
}
