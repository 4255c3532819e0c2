package io.tetradb.bench.query;

import io.tetradb.document.CosmosClient;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;

import java.util.Locale;

/**
 * Session 23 (index-write): the WAL bytes a store wrote, from RocksDB's statistics, which the store collects only
 * with {@code -Dtetradb.rocks.statistics=true} (they cost the writer CPU, so a run that prints them is not one to
 * take CPU figures from). The engine is reached by reflection, as {@code core.WriteSplitProbe} does.
 */
final class WalBytes {
    private WalBytes() {
    }

    /** The store's statistics, or null when they are not collected. */
    static Statistics statistics(CosmosClient client) {
        try {
            Object store = client.coreStore();
            var field = store.getClass().getDeclaredField("engine");
            field.setAccessible(true);
            Object engine = field.get(store);
            return engine instanceof io.tetradb.core.storage.RocksEngine r ? r.statistics() : null;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Prints {@code side}'s WAL bytes per item loaded, if it collected statistics and loaded any. */
    static void print(String side, Statistics stats, long items) {
        if (stats == null || items == 0) {
            return;
        }
        System.out.printf(Locale.ROOT, "%s wal_bytes_per_item=%.1f%n", side,
                (double) stats.getTickerCount(TickerType.WAL_FILE_BYTES) / items);
    }
}
