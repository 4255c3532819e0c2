package io.tetradb.document;

import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.CoreStore;
import io.tetradb.core.store.DatabaseDefinition;
import io.tetradb.core.store.ThroughputCatalog;
import io.tetradb.core.throughput.ThroughputSettings;

/** The document API's view of the core's throughput catalog. */
final class Throughputs {
    private Throughputs() {
    }

    /** A creation sized its partitions by the autoscale maximum; this records that it is autoscale. */
    static void recordAutoscale(CoreStore store, ContainerStore c, ThroughputProperties throughput) {
        if (throughput != null && throughput.settings().isAutoscale()) {
            CosmosException.call(() -> {
                store.throughput().recordContainer(c, throughput.settings());
                return null;
            });
        }
    }

    static void recordAutoscale(CoreStore store, DatabaseDefinition db, ThroughputProperties throughput) {
        if (throughput != null && throughput.settings().isAutoscale()) {
            CosmosException.call(() -> {
                store.throughput().recordDatabase(db, throughput.settings());
                return null;
            });
        }
    }

    static ThroughputResponse read(CoreStore store, ContainerStore c) {
        ThroughputCatalog.ContainerThroughput t = store.throughput().effective(c);
        if (t.sharedWithDatabase()) {
            throw new StoreException(Status.NOT_FOUND, "container " + c.definition().id()
                    + " has no throughput of its own; it shares the throughput of database " + c.definition().database());
        }
        int current = store.rateLimiter().currentThroughput(t.settings(), store.rateLimiter().budgets(c).all());
        return new ThroughputResponse(ThroughputProperties.of(t.settings()), t.replacePending(), current);
    }

    static ThroughputResponse read(CoreStore store, DatabaseDefinition db) {
        ThroughputSettings s = store.throughput().database(db);
        if (s == null) {
            throw new StoreException(Status.NOT_FOUND, "database " + db.id() + " has no shared throughput");
        }
        int current = store.rateLimiter().currentThroughput(s, store.rateLimiter().databaseBudgets(db));
        return new ThroughputResponse(ThroughputProperties.of(s), false, current);
    }
}
