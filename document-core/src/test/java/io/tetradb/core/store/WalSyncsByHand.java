package io.tetradb.core.store;

import io.tetradb.core.storage.RocksWalSyncs;

/** {@link RocksWalSyncs} of a store's embedded engine, for other modules' tests (a face's syncs per request). */
public final class WalSyncsByHand {
    private WalSyncsByHand() {
    }

    /** Stops {@code store}'s lazy WAL syncer timer and counts its engine's syncs (see {@link RocksWalSyncs}). */
    public static RocksWalSyncs of(CoreStore store) {
        return RocksWalSyncs.byHand(store.engine());
    }
}
