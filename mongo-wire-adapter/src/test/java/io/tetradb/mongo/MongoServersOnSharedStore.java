package io.tetradb.mongo;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.testing.SharedEmbeddedStore;
import org.bson.Document;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Clock;

/**
 * The setup the SharedEngine* suites share: Mongo-face servers on one shared store (an embedded directory presented
 * as shared, as a Cassandra keyspace is to several servers), each with its own data directory and the MongoDB Java
 * driver connected to it. A clock, when given, is every server's.
 */
final class MongoServersOnSharedStore implements AutoCloseable {
    private final Path dir;
    private final Clock clock;
    private final SharedEmbeddedStore shared;
    private final Server[] servers;

    /** One server on the shared store: its store, its wire server and a driver connected to it. */
    final class Server implements AutoCloseable {
        final CosmosClient store;
        final MongoWireServer wire;
        final MongoClient client;

        private Server(String name) {
            CosmosClientBuilder builder = new CosmosClientBuilder().dataDirectory(dir.resolve(name));
            if (clock != null) {
                builder.clock(clock);
            }
            store = builder.storage(shared.metadata(), shared.partitions()).buildClient();
            wire = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store);
            client = PersistenceTest.connect(wire);
        }

        MongoCollection<Document> coll(String db, String name) {
            return client.getDatabase(db).getCollection(name);
        }

        @Override
        public void close() {
            client.close();
            wire.close();
            store.close();
        }
    }

    /** {@code count} servers named "a", "b", … on a shared store under {@code dir}; {@code clock} may be null. */
    MongoServersOnSharedStore(Path dir, Clock clock, int count) {
        this.dir = dir;
        this.clock = clock;
        this.shared = new SharedEmbeddedStore(dir.resolve("shared"));
        this.servers = new Server[count];
        for (int i = 0; i < count; i++) {
            servers[i] = new Server(name(i));
        }
    }

    Server get(int i) {
        return servers[i];
    }

    /** Closes server {@code i} and starts it again on its own data directory. */
    void restart(int i) {
        servers[i].close();
        servers[i] = null;
        servers[i] = new Server(name(i));
    }

    private static String name(int i) {
        return String.valueOf((char) ('a' + i));
    }

    @Override
    public void close() {
        for (Server s : servers) {
            if (s != null) {
                s.close();
            }
        }
        shared.close();
    }
}
