package io.tetradb.bench.mongo;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
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

    private Endpoint(String label, InetSocketAddress address, int poolSize, AutoCloseable server) {
        this.label = label;
        this.server = server;
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
        return new Endpoint("tetra", mongo.address(), poolSize, () -> {
            mongo.close();
            store.close();
        });
    }

    /** {@code de.bwaldvogel:mongo-java-server} with its in-memory backend: nothing is persisted. */
    static Endpoint peer(int poolSize) {
        MongoServer server = new MongoServer(new MemoryBackend());
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        return new Endpoint("peer", server.getLocalAddress(), poolSize, server::shutdownNow);
    }

    String label() {
        return label;
    }

    MongoDatabase database() {
        return client.getDatabase(DATABASE);
    }

    MongoCollection<Document> collection(String name) {
        return database().getCollection(name);
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
