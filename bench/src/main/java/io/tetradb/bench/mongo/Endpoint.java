package io.tetradb.bench.mongo;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.tetradb.bench.ProcTasks;
import io.tetradb.core.storage.Durability;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.mongo.MongoWireServer;
import org.bson.Document;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * One side of the benchmark: an in-process MongoDB-speaking server on a free loopback port and the official sync
 * driver connected to it. Both sides get the same client settings, so only the server differs.
 */
final class Endpoint implements AutoCloseable {
    static final String DATABASE = "bench";

    private final String label;
    private final MongoClient client;
    private final AutoCloseable server;
    /**
     * The group of one of the server's own JVM threads (whose CPU time is the server's cost of a round) by its name,
     * or null for a thread that is not the server's.
     */
    private final java.util.function.Function<String, String> serverThreads;

    private Endpoint(String label, InetSocketAddress address, int poolSize, AutoCloseable server,
                     java.util.function.Function<String, String> serverThreads) {
        this.label = label;
        this.server = server;
        this.serverThreads = serverThreads;
        this.client = MongoClients.create(MongoClientSettings.builder()
                .applyConnectionString(new ConnectionString("mongodb://" + address.getHostString() + ":"
                        + address.getPort() + "/?directConnection=true"))
                .applyToConnectionPoolSettings(p -> p.maxSize(poolSize).minSize(poolSize))
                .applyToSocketSettings(s -> s.readTimeout(120, TimeUnit.SECONDS))
                .build());
    }

    /**
     * TetraDB's Mongo face over a fresh data directory, SYNC durability (every acknowledged write is fsynced);
     * {@code -Dbench.mongo.durability=ASYNC} runs it without the fsync, to see what the fsync costs (not the
     * reported configuration).
     */
    static Endpoint tetra(Path dataDirectory, int poolSize) {
        Durability durability = Durability.valueOf(System.getProperty("bench.mongo.durability", "SYNC"));
        CosmosClient store = new CosmosClientBuilder().dataDirectory(dataDirectory).durability(durability)
                .buildClient();
        MongoWireServer mongo;
        try {
            mongo = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        // the command pool, Netty's event loops and the core's own threads (WAL sync, splits); RocksDB's native
        // flush and compaction threads are not JVM threads and are not counted
        return new Endpoint("tetra", mongo.address(), poolSize, () -> {
            mongo.close();
            store.close();
        }, name -> name.startsWith("mongo-command-") ? "command"
                : name.startsWith("mongo-io-") || name.startsWith("nioEventLoopGroup-") ? "event-loop"
                : name.startsWith("tetradb-") ? "core" : null);
    }

    /** {@code de.bwaldvogel:mongo-java-server} with its in-memory backend: nothing is persisted. */
    static Endpoint peer(int poolSize) {
        MongoServer server = new MongoServer(new MemoryBackend());
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        return new Endpoint("peer", server.getLocalAddress(), poolSize, server::shutdownNow,
                name -> name.startsWith("mongo-server-") ? "server" : null);
    }

    String label() {
        return label;
    }

    /** The CPU time each server thread had when last seen: a pool thread that ends keeps its share in the sum. */
    private final java.util.Map<Long, Long> lastSeenCpu = new java.util.concurrent.ConcurrentHashMap<>();
    /** The group of each thread in {@link #lastSeenCpu}. */
    private final java.util.Map<Long, String> threadGroup = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * CPU nanoseconds (user + system) the server's JVM threads have used so far, per thread group (tetra: command,
     * event-loop, core; peer: server): the live ones', plus what ended threads had used when last seen (a cached
     * pool's idle thread ending under load made a round's sum negative).
     */
    java.util.Map<String, Long> serverCpuNanos() {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        for (java.lang.management.ThreadInfo t : mx.getThreadInfo(mx.getAllThreadIds())) {
            String group = t == null ? null : serverThreads.apply(t.getThreadName());
            if (group != null) {
                long cpu = mx.getThreadCpuTime(t.getThreadId());
                if (cpu > 0) {
                    lastSeenCpu.merge(t.getThreadId(), cpu, Math::max);
                    threadGroup.put(t.getThreadId(), group);
                }
            }
        }
        java.util.Map<String, Long> sums = new java.util.TreeMap<>();
        lastSeenCpu.forEach((id, cpu) -> sums.merge(threadGroup.get(id), cpu, Long::sum));
        return sums;
    }

    /** The minor page faults each server thread (by kernel task id) had when last seen. */
    private final java.util.Map<String, Long> lastSeenFaults = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * Minor page faults the server's threads have taken so far ({@code /proc/self/task/<tid>/stat}, threads told by
     * their kernel name, the first 15 characters of the Java name; an ended thread keeps its count as last seen), or
     * 0 where there is no {@code /proc}.
     */
    long serverMinorFaults() {
        for (ProcTasks.TaskStat t : ProcTasks.threads()) {
            if (serverThreads.apply(t.name()) != null) {
                lastSeenFaults.merge(t.tid(), t.minorFaults(), Math::max);
            }
        }
        return lastSeenFaults.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Bytes the server's live JVM threads have allocated so far (HotSpot's per-thread counter). */
    long serverAllocatedBytes() {
        com.sun.management.ThreadMXBean mx =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (java.lang.management.ThreadInfo t : mx.getThreadInfo(mx.getAllThreadIds())) {
            if (t != null && serverThreads.apply(t.getThreadName()) != null) {
                sum += Math.max(0, mx.getThreadAllocatedBytes(t.getThreadId()));
            }
        }
        return sum;
    }

    MongoDatabase database() {
        return client.getDatabase(DATABASE);
    }

    /**
     * A collection of the benchmark, with the driver's default write concern (TetraDB acknowledges after the WAL
     * fsync); {@code -Dbench.mongo.writeConcern=w1} sends {@code w: 1} instead (acknowledged once applied, synced
     * within 100 ms, as MongoDB does): a diagnosis, not the reported configuration.
     */
    MongoCollection<Document> collection(String name) {
        MongoCollection<Document> c = database().getCollection(name);
        return "w1".equals(System.getProperty("bench.mongo.writeConcern"))
                ? c.withWriteConcern(com.mongodb.WriteConcern.W1) : c;
    }

    @Override
    public void close() throws Exception {
        try {
            client.close();
        } finally {
            server.close();
        }
    }
}
