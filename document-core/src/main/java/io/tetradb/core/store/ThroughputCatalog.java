package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.WriteSet;
import io.tetradb.core.throughput.ThroughputSettings;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Provisioned throughput of databases and containers. A container has its own (manual or autoscale) or, when it has
 * none and its database has some, shares its database's; with neither it gets Cosmos DB's default of 400 RU/s of its
 * own. The setting given at creation lives in the definition; a replaced or autoscale setting is stored under its own
 * META key ({@code 20 · 'c' · collId(4)} or {@code 20 · 'd' · dbId(4)}, JSON).
 *
 * <p>Replacing is immediate when the container's physical partitions can serve the new RU/s (10,000 each); a raise
 * beyond that splits partitions online ({@link ThroughputSplits}) and the replace reports as pending until they exist,
 * as Cosmos DB does. Meanwhile the partitions serve at most 10,000 RU/s each.
 */
public final class ThroughputCatalog {
    static final byte THROUGHPUT = 0x20;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final CoreStore store;
    private final ThroughputSplits splits;
    /** Bumped by every replace, so that the limiter's cached budgets know to recompute. */
    private final AtomicLong version = new AtomicLong();

    ThroughputCatalog(CoreStore store) {
        this.store = store;
        this.splits = new ThroughputSplits(store);
    }

    long version() {
        return version.get();
    }

    /** A container's throughput as reported. */
    public record ContainerThroughput(ThroughputSettings settings, boolean sharedWithDatabase, boolean replacePending) {
    }

    /** The container's own setting, or null when it has none. */
    public ThroughputSettings containerOwn(ContainerStore c) {
        ThroughputSettings stored = read(key('c', c.collId()));
        if (stored != null) {
            return stored;
        }
        Integer created = c.definition().throughput();
        return created == null ? null : ThroughputSettings.manual(created);
    }

    /** The database's shared setting, or null when it has none. */
    public ThroughputSettings database(DatabaseDefinition db) {
        ThroughputSettings stored = read(key('d', db.dbId()));
        if (stored != null) {
            return stored;
        }
        return db.throughput() == null ? null : ThroughputSettings.manual(db.throughput());
    }

    /** What governs the container: its own, its database's (shared), or the default 400 RU/s. */
    public ContainerThroughput effective(ContainerStore c) {
        ThroughputSettings own = containerOwn(c);
        if (own == null) {
            ThroughputSettings shared = database(store.readDatabase(c.definition().database()));
            if (shared != null) {
                return new ContainerThroughput(shared, true, false);
            }
            own = ThroughputSettings.manual(ThroughputSettings.MIN_MANUAL);
        }
        return new ContainerThroughput(own, false, isPending(c, own));
    }

    /** Whether the container still has fewer physical partitions than its throughput needs (splits under way). */
    boolean isPending(ContainerStore c, ThroughputSettings own) {
        return own.partitionsNeeded() > c.partitionMap().partitions().size();
    }

    /**
     * Replaces a container's own throughput (400 if invalid; 404 if the container shares its database's and has
     * none of its own: Cosmos DB has no offer for it). Lowering is immediate; a raise beyond 10,000 RU/s
     * per partition starts the splits and returns with {@code replacePending} true.
     */
    public ContainerThroughput replaceContainer(String database, String container, ThroughputSettings settings) {
        check(settings);
        ContainerStore c = store.container(database, container);
        if (containerOwn(c) == null && database(store.readDatabase(database)) != null) {
            throw new StoreException(Status.NOT_FOUND, "container " + container + " shares the throughput of database "
                    + database + " and has no throughput of its own to replace");
        }
        write(key('c', c.collId()), settings);
        if (isPending(c, settings)) {
            splits.splitUntil(c, settings.partitionsNeeded());
        }
        return effective(c);
    }

    /** Replaces a database's shared throughput; 404 if the database has none (Cosmos DB: no offer). */
    public ThroughputSettings replaceDatabase(String database, ThroughputSettings settings) {
        check(settings);
        DatabaseDefinition db = store.readDatabase(database);
        if (database(db) == null) {
            throw new StoreException(Status.NOT_FOUND, "database " + database
                    + " has no shared throughput; its containers have their own");
        }
        write(key('d', db.dbId()), settings);
        return settings;
    }

    /** Records an autoscale setting given at creation (the definition holds only manual RU/s). */
    public void recordContainer(ContainerStore c, ThroughputSettings settings) {
        check(settings);
        write(key('c', c.collId()), settings);
    }

    /** Records a database's autoscale setting given at creation. */
    public void recordDatabase(DatabaseDefinition db, ThroughputSettings settings) {
        check(settings);
        write(key('d', db.dbId()), settings);
    }

    /** For tests and tools: waits until the splits a raise started are done. */
    public void awaitSplits() throws InterruptedException {
        splits.awaitIdle();
    }

    void close() {
        splits.close();
    }

    private static void check(ThroughputSettings settings) {
        String error = settings.validationError();
        if (error != null) {
            throw new StoreException(Status.BAD_REQUEST, error);
        }
    }

    private static byte[] key(char kind, int id) {
        return Keys.concat(new byte[]{THROUGHPUT, (byte) kind}, Keys.collId(id));
    }

    private void write(byte[] key, ThroughputSettings settings) {
        ObjectNode n = MAPPER.createObjectNode();
        if (settings.isAutoscale()) {
            n.put("autoscaleMax", settings.autoscaleMax());
        } else {
            n.put("manual", settings.manual());
        }
        store.applyMeta(new WriteSet().put(Space.META, key, n.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                true); // metadata contract
        version.incrementAndGet();
    }

    private ThroughputSettings read(byte[] key) {
        io.tetradb.core.storage.meta.MetaEntry stored = store.metadata().get(key); // metadata contract
        byte[] v = stored == null ? null : stored.value();
        if (v == null) {
            return null;
        }
        try {
            var n = MAPPER.readTree(v);
            return n.has("autoscaleMax") ? ThroughputSettings.autoscale(n.get("autoscaleMax").asInt())
                    : ThroughputSettings.manual(n.get("manual").asInt());
        } catch (IOException e) {
            throw new IllegalStateException("corrupt throughput setting", e);
        }
    }
}
