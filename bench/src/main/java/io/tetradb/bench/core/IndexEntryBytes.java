package io.tetradb.bench.core;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.bench.BenchData;
import io.tetradb.core.storage.Space;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.CosmosDatabase;
import org.rocksdb.RocksIterator;

import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A diagnostic for issue 17's item 2 (write-cost): what a more compact index entry would save, measured without
 * changing the store's format. The core benchmark's 1 KiB items go into a default-indexed container; the store's own
 * {@code index} keys ({@code collId(4) · pathId(4) · enc(value) · EPK(16) · pk · id}) are then written, as they are
 * and in a compact form ({@code varint(collId) · varint(pathId) · …}, the rest unchanged), into two fresh RocksDBs
 * with the store's settings, each compacted; printed: key bytes (what the WAL and the memtable carry) and
 * {@code rocksdb.total-sst-files-size} per entry (what is on disk). Run:
 * {@code java -cp "bench/target/bench-<v>.jar:bench/target/lib/*" io.tetradb.bench.core.IndexEntryBytes [items]}.
 */
public final class IndexEntryBytes {
    private IndexEntryBytes() {
    }

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
        Path dir = BenchData.fresh("index-entry-bytes");
        try {
            try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir.resolve("core")).buildClient()) {
                client.createDatabaseIfNotExists("bytes");
                CosmosDatabase db = client.getDatabase("bytes");
                db.createContainerIfNotExists(new CosmosContainerProperties("indexed", "/deviceId"));
                Items items = new Items(client.coreStore().container("bytes", "indexed").definition().collId(),
                        CoreBenchmark.DEVICES);
                for (int i = 0; i < count; i++) {
                    ObjectNode item = items.item(Items.id("b", i), i % CoreBenchmark.DEVICES, i);
                    db.getContainer("indexed").createItem(item);
                }
            }
            List<byte[]> keys = new ArrayList<>();
            try (WriteProbe.Db core = new WriteProbe.Db(dir.resolve("core"));
                 RocksIterator it = core.db.newIterator(core.families.get(Space.INDEX))) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    keys.add(it.key());
                }
            }
            long plainKeyBytes = 0;
            long compactKeyBytes = 0;
            List<byte[]> compact = new ArrayList<>(keys.size());
            for (byte[] k : keys) {
                byte[] c = compact(k);
                compact.add(c);
                plainKeyBytes += k.length;
                compactKeyBytes += c.length;
            }
            long plainSst = sst(dir.resolve("plain"), keys);
            long compactSst = sst(dir.resolve("compact"), compact);
            int n = keys.size();
            System.out.printf(Locale.ROOT, "BENCH index-entry-bytes items=%d entries=%d entries_per_item=%.1f "
                            + "key_bytes_per_entry=%.1f compact_key_bytes_per_entry=%.1f sst_bytes_per_entry=%.1f "
                            + "compact_sst_bytes_per_entry=%.1f%n", count, n, n / (double) count,
                    plainKeyBytes / (double) n, compactKeyBytes / (double) n, plainSst / (double) n,
                    compactSst / (double) n);
        } finally {
            BenchData.delete(dir);
        }
    }

    /** {@code varint(collId) · varint(pathId)} in place of the two fixed 4-byte numbers. */
    static byte[] compact(byte[] key) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(key.length);
        varint(out, int32(key, 0));
        varint(out, int32(key, 4));
        out.write(key, 8, key.length - 8);
        return out.toByteArray();
    }

    private static int int32(byte[] b, int at) {
        return (b[at] & 0xFF) << 24 | (b[at + 1] & 0xFF) << 16 | (b[at + 2] & 0xFF) << 8 | (b[at + 3] & 0xFF);
    }

    /** An order-preserving varint: a length byte, then the big-endian bytes without leading zeros. */
    private static void varint(ByteArrayOutputStream out, int v) {
        int bytes = v == 0 ? 0 : 4 - Integer.numberOfLeadingZeros(v) / 8;
        out.write(bytes);
        for (int i = bytes - 1; i >= 0; i--) {
            out.write(v >>> (8 * i));
        }
    }

    private static long sst(Path dir, List<byte[]> keys) throws Exception {
        try (WriteProbe.Db db = new WriteProbe.Db(dir)) {
            var cf = db.families.get(Space.INDEX);
            byte[] empty = new byte[0];
            for (byte[] k : keys) {
                db.db.put(cf, db.unsynced, k, empty);
            }
            db.db.compactRange(cf);
            return db.db.getLongProperty(cf, "rocksdb.total-sst-files-size");
        }
    }
}
