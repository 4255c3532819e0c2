package io.tetradb.bench.wal;

import io.tetradb.bench.BenchData;
import io.tetradb.bench.Benchmark;
import io.tetradb.bench.Report;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteOptions;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * What one WAL fsync costs on this machine, with fresh WAL files (RocksDB's default) and with recycled ones
 * ({@code recycle_log_file_num}, what the core's {@code RocksSettings} sets): a synced 1 KiB put into each of two
 * plain RocksDB instances, rounds alternating, memtables flushed every few rounds so that WAL files roll over.
 */
public final class WalSyncBenchmark implements Benchmark {
    @Override
    public String name() {
        return "walsync";
    }

    @Override
    public String description() {
        return "latency of a synced 1 KiB RocksDB write: fresh WAL files vs recycled ones (the core's setting)";
    }

    @Override
    public void run(boolean quick, Report out) throws Exception {
        RocksDB.loadLibrary();
        int rounds = quick ? 20 : 60;
        Path dir = BenchData.fresh("walsync");
        String[] sides = {"fresh-wal", "recycled-wal"};
        List<List<Long>> latencies = List.of(new ArrayList<>(), new ArrayList<>());
        RocksDB[] dbs = new RocksDB[2];
        try (WriteOptions write = new WriteOptions().setSync(true); FlushOptions flush = new FlushOptions()) {
            for (int k = 0; k < 2; k++) {
                DBOptions db = new DBOptions().setCreateIfMissing(true).setBytesPerSync(1 << 20);
                if (k == 1) {
                    db.setRecycleLogFileNum(4);
                }
                dbs[k] = RocksDB.open(new Options(db, new ColumnFamilyOptions().setWriteBufferSize(8L << 20)),
                        dir.resolve(sides[k]).toString());
            }
            byte[] value = new byte[1024];
            Random random = new Random(1);
            for (int round = 0; round < rounds; round++) {
                for (int k = 0; k < 2; k++) {
                    for (int i = 0; i < 300; i++) {
                        byte[] key = ("k" + random.nextInt(1_000_000)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
                        long t0 = System.nanoTime();
                        dbs[k].put(write, key, value);
                        long t = System.nanoTime() - t0;
                        if (round >= 3) {
                            latencies.get(k).add(t);
                        }
                    }
                    if (round % 4 == 1) {
                        dbs[k].flush(flush.setWaitForFlush(true)); // a new WAL file: recycled on one side only
                    }
                }
            }
        } finally {
            for (RocksDB db : dbs) {
                if (db != null) {
                    db.close();
                }
            }
            BenchData.delete(dir);
        }
        double[] p50 = new double[2];
        for (int k = 0; k < 2; k++) {
            List<Long> l = latencies.get(k);
            Collections.sort(l);
            p50[k] = l.get(l.size() / 2) / 1e3;
            out.result(String.format(Locale.ROOT, "BENCH walsync.put-sync.%s writes=%d p50_us=%.1f p90_us=%.1f "
                    + "p99_us=%.1f", sides[k], l.size(), p50[k], l.get(l.size() * 9 / 10) / 1e3,
                    l.get(l.size() * 99 / 100) / 1e3));
        }
        out.ratio("put-sync-latency recycled/fresh", p50[1] / p50[0]);
    }
}
