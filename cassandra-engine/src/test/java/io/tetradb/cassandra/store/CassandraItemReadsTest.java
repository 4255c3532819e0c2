package io.tetradb.cassandra.store;

import com.datastax.oss.driver.api.core.CqlSession;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.storage.partition.LogicalPartition;
import io.tetradb.core.storage.partition.PartitionStats;
import io.tetradb.core.storage.partition.PartitionWrite;
import io.tetradb.core.value.IndexKeyEncoding;
import io.tetradb.core.value.KeyBytes;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.PartitionKey;
import io.tetradb.testing.DocumentApiTranscript;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The embedded document API with its items on a 3-node Cassandra cluster (CosmosClient over a CoreStore whose item
 * store is {@link CassandraPartitionStore}; databases and containers still in the data directory): the whole
 * {@link DocumentApiTranscript} — create, read, replace, upsert, patch, delete, batches, etag and unique-key
 * conflicts, queries by index seeks, id ranges and full scans, paging, change feeds — equals the embedded engine's,
 * and the items are in Cassandra. Then the seek's storage-attached indexes measured against the filtered scan they
 * replace. Runs with {@code mvn -Pcluster -pl cassandra-engine verify}.
 */
@Tag("cluster")
class CassandraItemReadsTest {
    static CqlSession session;
    static CassandraPartitionStore cassandra;

    @TempDir
    Path embeddedDir;
    @TempDir
    Path metadataDir;

    @BeforeAll
    static void start() {
        session = TestCluster.session();
        cassandra = CassandraPartitionStore.open(session, "tetradb_reads", 3, CassandraPartitionStore.Consistency.QUORUM);
    }

    @Test
    void theDocumentApiOnCassandraGivesTheEmbeddedEnginesResults() {
        DocumentApiTranscript embedded;
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(embeddedDir).buildClient()) {
            embedded = DocumentApiTranscript.run(client);
        }
        DocumentApiTranscript onCassandra;
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(metadataDir).itemStore(cassandra)
                .buildClient()) {
            onCassandra = DocumentApiTranscript.run(client);
            // the items are Cassandra's: read back through the store itself
            int collId = client.coreStore().container("shop", "items").definition().collId();
            PartitionKeyValue tools = PartitionKeyValue.of(PartitionKeyValue.component("tools"));
            LogicalPartition p = new LogicalPartition(collId, KeyBytes.concat(tools.epk(), tools.encoded()));
            byte[] stored = cassandra.read(p, "item-07");
            assertNotNull(stored, "item-07 is a row of Cassandra's");
            assertTrue(cassandra.version(p) > 0);
            assertEquals(5, cassandra.partitions(collId, null, null).size(), "the five categories' partitions");
            ObjectNode read = client.getDatabase("shop").getContainer("items")
                    .readItem("item-07", new PartitionKey("tools"), ObjectNode.class).getItem();
            assertEquals("renamed", read.get("name").asText());
        }
        assertEquals(embedded.lines(), onCassandra.lines());
        assertEquals(embedded.accessPaths(), onCassandra.accessPaths());
        DocumentApiTranscript.checkOutcomes(onCassandra);
    }

    /**
     * A selective equality seek (10 of 1,200 entries on its path, among 3,600 term rows) through the storage-attached
     * indexes and through the filtered scan they replace: the same entries; the time of each printed (no assertion
     * on it: the machine and the cluster share two cores).
     */
    @Test
    void theIndexedSeekReadsWhatTheScanReadsAndIsMeasuredAgainstIt() {
        int container = 900_001;
        int partitions = 120;
        int perPartition = 10;
        for (int i = 0; i < partitions; i++) {
            LogicalPartition p = new LogicalPartition(container, ("measure-" + i + "\0").getBytes(StandardCharsets.UTF_8));
            PartitionWrite.Builder w = PartitionWrite.builder(p, 0, 1);
            for (int j = 0; j < perPartition; j++) {
                String id = "id" + j;
                int n = i * perPartition + j;
                w.put(id, new byte[]{1}).addTerm(id, term(1, "value-" + (n % 120)))
                        .addTerm(id, term(2, "common-prefix-" + (n % 7))).addTerm(id, term(3, "x"));
            }
            assertTrue(cassandra.apply(w.stats(new PartitionStats(1, perPartition, 1)).build()).applied());
        }
        byte[] from = term(1, "value-42");
        byte[] to = IndexKeyEncoding.prefixEnd(from);
        List<String> indexed = hex(cassandra.seek(container, from, to, 1000));
        List<String> scanned = hex(cassandra.seekByFilteringScan(container, from, to, 1000));
        assertEquals(10, indexed.size());
        assertEquals(scanned, indexed);
        // values sharing their first 8 bytes, and a range across paths, are exact too
        byte[] shared = term(2, "common-prefix-3");
        assertEquals(hex(cassandra.seekByFilteringScan(container, shared, IndexKeyEncoding.prefixEnd(shared), 5000)),
                hex(cassandra.seek(container, shared, IndexKeyEncoding.prefixEnd(shared), 5000)));
        assertEquals(hex(cassandra.seekByFilteringScan(container, term(1, "value-119"), term(2, "common-prefix-1"), 5000)),
                hex(cassandra.seek(container, term(1, "value-119"), term(2, "common-prefix-1"), 5000)));
        assertFalse(indexed.isEmpty());
        long[] sai = new long[15];
        long[] scan = new long[15];
        for (int round = 0; round < sai.length; round++) {
            long t0 = System.nanoTime();
            cassandra.seek(container, from, to, 1000);
            long t1 = System.nanoTime();
            cassandra.seekByFilteringScan(container, from, to, 1000);
            long t2 = System.nanoTime();
            sai[round] = t1 - t0;
            scan[round] = t2 - t1;
        }
        Arrays.sort(sai);
        Arrays.sort(scan);
        System.out.printf("BENCH cassandra-seek term_rows=%d matches=%d sai_median_ms=%.2f scan_median_ms=%.2f%n",
                partitions * perPartition * 3, indexed.size(), sai[sai.length / 2] / 1e6, scan[scan.length / 2] / 1e6);
        System.out.printf("RATIO cassandra-seek-scan-over-sai %.1f%n", (double) scan[scan.length / 2] / sai[sai.length / 2]);
    }

    private static byte[] term(int path, String value) {
        byte[] v = value.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[4 + v.length + 1];
        KeyBytes.putInt(out, 0, path);
        System.arraycopy(v, 0, out, 4, v.length);
        return out;
    }

    private static List<String> hex(List<byte[]> entries) {
        List<String> out = new ArrayList<>();
        entries.forEach(e -> out.add(HexFormat.of().formatHex(e)));
        return out;
    }
}
