package io.tetradb.testing;

import io.tetradb.core.StoreException;
import io.tetradb.core.feed.ChangeFeedPolicy;
import io.tetradb.core.partition.EpkRange;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.CoreStore;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** What the crash tests' writer processes share: their container, opened again in every round, and its live ids. */
public final class CrashWriters {
    private CrashWriters() {
    }

    /**
     * Container {@code db/c} (partition key {@code /pk}, 400 RU) of {@code store}: the one a previous round made, else
     * a new one with the change feed policy {@code policy} (null: the latest version only).
     */
    public static ContainerStore container(CoreStore store, ChangeFeedPolicy policy) {
        try {
            return store.container("db", "c");
        } catch (StoreException absent) {
            store.createDatabase("db", null);
            ContainerStore c = store.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, 400, null);
            if (policy != null) {
                c.changeFeed().setPolicy(policy);
            }
            return c;
        }
    }

    /** The ids stored in each of partitions {@code p0 … p(partitions-1)}, as lists the writer threads may share. */
    public static List<List<String>> liveIds(ContainerStore c, int partitions) {
        List<List<String>> live = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            live.add(Collections.synchronizedList(new ArrayList<>()));
        }
        c.scan(EpkRange.FULL, stored -> {
            var item = c.codec().parse(stored);
            live.get(Integer.parseInt(item.get("pk").asText().substring(1))).add(item.get("id").asText());
            return true;
        });
        return live;
    }
}
