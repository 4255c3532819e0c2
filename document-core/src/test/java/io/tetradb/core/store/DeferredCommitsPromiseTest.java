package io.tetradb.core.store;

import io.tetradb.core.storage.partition.PartitionStore;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Commits a caller will wait for are promised to the item store as they are added; unawaited ones are not. */
class DeferredCommitsPromiseTest {
    @Test
    void awaitedCommitsPromiseEachTicketAndWaitOnceForTheHighest() {
        List<String> calls = new ArrayList<>();
        PartitionStore store = recording(calls);
        DeferredCommits awaited = new DeferredCommits(store, true);
        awaited.add(3);
        awaited.add(0); // a batch that wrote nothing: no ticket
        awaited.add(5);
        awaited.awaitDurable();
        awaited.awaitDurable(); // nothing added since
        assertEquals(List.of("promiseAwait 3", "promiseAwait 5", "awaitDurable 5"), calls);

        calls.clear();
        DeferredCommits unawaited = new DeferredCommits(store, false); // a Mongo w:1 write: the lazy syncer's
        unawaited.add(7);
        unawaited.add(8);
        assertEquals(List.of(), calls);
    }

    private static PartitionStore recording(List<String> calls) {
        return (PartitionStore) Proxy.newProxyInstance(PartitionStore.class.getClassLoader(),
                new Class<?>[] {PartitionStore.class}, (proxy, method, args) -> {
                    calls.add(method.getName() + " " + args[0]);
                    return null;
                });
    }
}
