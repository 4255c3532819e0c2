package io.tetradb.core.storage;

/**
 * For tests that count WAL syncs exactly (a SYNC embedded engine): the engine's count of finished syncs, and its
 * lazy syncer's tick run by hand instead of by its 100 ms timer, so no sync happens at a time the test did not choose
 * but the writers' own.
 */
public final class RocksWalSyncs {
    private final RocksEngine engine;
    private final Runnable tick;

    private RocksWalSyncs(RocksEngine engine, Runnable tick) {
        this.engine = engine;
        this.tick = tick;
    }

    /** Stops {@code engine}'s lazy syncer timer (a SYNC {@link RocksEngine}); its ticks are {@link #tick()} now. */
    public static RocksWalSyncs byHand(StorageEngine engine) {
        RocksEngine rocks = (RocksEngine) engine;
        Runnable tick = rocks.lazySyncTicksByHand();
        if (tick == null) {
            throw new IllegalArgumentException("the engine is not in SYNC durability: it has no lazy syncer");
        }
        return new RocksWalSyncs(rocks, tick);
    }

    /** WAL syncs finished so far (writers', inline and lazy ones). */
    public long syncs() {
        return engine.walSyncs();
    }

    /** One lazy-syncer tick (what the timer ran every 100 ms). */
    public void tick() {
        tick.run();
    }
}
