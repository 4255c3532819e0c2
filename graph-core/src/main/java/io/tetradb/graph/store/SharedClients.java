package io.tetradb.graph.store;

import io.tetradb.core.storage.Durability;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * One {@link CosmosClient} per data directory, shared by every graph opened on it (RocksDB allows one opener per
 * directory) and closed when the last one is released.
 */
public final class SharedClients {
    private record Entry(CosmosClient client, int[] refs) {
    }

    private static final Map<Path, Entry> OPEN = new HashMap<>();

    private SharedClients() {
    }

    public static synchronized CosmosClient acquire(Path directory, Durability durability) {
        Path key = directory.toAbsolutePath().normalize();
        Entry e = OPEN.get(key);
        if (e == null) {
            e = new Entry(new CosmosClientBuilder().dataDirectory(key).durability(durability).buildClient(),
                    new int[1]);
            OPEN.put(key, e);
        }
        e.refs[0]++;
        return e.client;
    }

    public static synchronized void release(CosmosClient client) {
        for (var it = OPEN.entrySet().iterator(); it.hasNext(); ) {
            Entry e = it.next().getValue();
            if (e.client == client && --e.refs[0] == 0) {
                it.remove();
                client.close();
                return;
            }
        }
    }
}
