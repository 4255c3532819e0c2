package io.tetradb.core.storage;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.PartitionKey;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.RocksDB;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RocksDB options without a RocksJava setter, given as option strings ({@link RocksOptionStrings}, query-idx):
 * they reach RocksDB (its OPTIONS file records them, the index family's alone), a directory written with them
 * reopens without them and back with every item, and an option RocksDB does not know stops the open.
 */
class RocksOptionStringsTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @AfterEach
    void clear() {
        System.clearProperty(RocksOptionStrings.DB);
        System.clearProperty(RocksOptionStrings.INDEX);
    }

    @Test
    void optionsReachRocksDbAndDirectoriesOpenEitherWay(@TempDir Path dir) throws IOException {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) { // written without
            write(client, 0, 300);
        }
        System.setProperty(RocksOptionStrings.DB, "wal_compression=kZSTD");
        System.setProperty(RocksOptionStrings.INDEX,
                "memtable_insert_with_hint_prefix_extractor=rocksdb.FixedPrefix.8");
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            assertEquals(300, count(client));
            write(client, 300, 600);
        }
        String options = latestOptionsFile(dir);
        assertTrue(options.contains("wal_compression=kZSTD"), "the database option reached RocksDB");
        assertEquals(1, countOf(options, "memtable_insert_with_hint_prefix_extractor=rocksdb.FixedPrefix.8"),
                "the index family, and only it, has the hint extractor");
        clear(); // written with the options (a compressed WAL included), reopened without them
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            assertEquals(600, count(client));
            var check = client.coreStore().container("d", "c").checkIndexes();
            assertTrue(check.consistent(), check.toString());
        }
    }

    /**
     * index-cost: the index family, and only it, inserts with a hint per {@code collId · pathId}; a directory written
     * without the hint (RocksDB's default, the directories before; here through the index family's option string)
     * reopens with it, and back, with every item and consistent index entries (a memtable option: nothing on disk
     * depends on it).
     */
    @Test
    void theIndexFamilyInsertsWithAPathHintAndDirectoriesOpenEitherWay(@TempDir Path dir) throws IOException {
        String hint = RocksOptionStrings.HINT_OPTION + "=" + RocksOptionStrings.HINT_VALUE;
        System.setProperty(RocksOptionStrings.INDEX, RocksOptionStrings.HINT_OPTION + "=nullptr");
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            write(client, 0, 300);
        }
        assertEquals(0, countOf(latestOptionsFile(dir), hint), "written without the hint");
        clear();
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            assertEquals(300, count(client));
            write(client, 300, 600);
        }
        assertEquals(1, countOf(latestOptionsFile(dir), hint), "the index family, and only it, has the hint");
        System.setProperty(RocksOptionStrings.INDEX, RocksOptionStrings.HINT_OPTION + "=nullptr");
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            assertEquals(600, count(client));
            write(client, 600, 900);
            assertEquals(900, count(client));
            var check = client.coreStore().container("d", "c").checkIndexes();
            assertTrue(check.consistent(), check.toString());
        }
        clear();
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            assertEquals(900, count(client));
            var check = client.coreStore().container("d", "c").checkIndexes();
            assertTrue(check.consistent(), check.toString());
        }
    }

    @Test
    void anOptionRocksDbDoesNotKnowIsRefused(@TempDir Path dir) {
        System.setProperty(RocksOptionStrings.DB, "no_such_option=1");
        assertThrows(IllegalArgumentException.class,
                () -> new CosmosClientBuilder().dataDirectory(dir).buildClient().close());
        System.setProperty(RocksOptionStrings.DB, "wal_compression");
        assertThrows(IllegalArgumentException.class, () -> new RocksSettings(64L << 20).dbOptions().close());
    }

    /** query-write: a value that is itself an option string ({@code {…;…}}) is one value, not split at its ';'. */
    @Test
    void aNestedOptionStringKeepsItsSemicolons() {
        RocksDB.loadLibrary();
        System.setProperty(RocksOptionStrings.INDEX, "prefix_extractor=rocksdb.FixedPrefix.8;"
                + "memtable_factory={id=HashSkipListRepFactory;bucket_count=64;skiplist_height=12;branching_factor=4}");
        try (ColumnFamilyOptions options = RocksOptionStrings.familyBase(Space.INDEX)) {
            assertEquals("HashSkipListRepFactory", options.memTableFactoryName());
        }
        System.setProperty(RocksOptionStrings.INDEX, "memtable_factory={id=VectorRepFactory");
        assertThrows(IllegalArgumentException.class, () -> RocksOptionStrings.familyBase(Space.INDEX));
        System.setProperty(RocksOptionStrings.INDEX, "memtable_factory=vector}");
        assertThrows(IllegalArgumentException.class, () -> RocksOptionStrings.familyBase(Space.INDEX));
    }

    private static void write(CosmosClient client, int from, int to) {
        client.createDatabaseIfNotExists("d");
        client.getDatabase("d").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"));
        CosmosContainer c = client.getDatabase("d").getContainer("c");
        for (int i = from; i < to; i++) {
            ObjectNode item = MAPPER.createObjectNode().put("id", "i" + i).put("pk", "p" + (i % 7)).put("n", i);
            c.createItem(item);
        }
    }

    private static int count(CosmosClient client) {
        return client.getDatabase("d").getContainer("c")
                .queryItems("SELECT VALUE COUNT(1) FROM c", null, Integer.class).stream().findFirst().orElseThrow();
    }

    private static String latestOptionsFile(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            Path latest = files.filter(p -> p.getFileName().toString().startsWith("OPTIONS-"))
                    .max((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString())).orElseThrow();
            return Files.readString(latest);
        }
    }

    private static int countOf(String text, String needle) {
        int n = 0;
        for (int at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
            n++;
        }
        return n;
    }
}
