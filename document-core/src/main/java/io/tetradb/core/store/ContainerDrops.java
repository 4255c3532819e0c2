package io.tetradb.core.store;

import io.tetradb.core.storage.meta.MetaEntry;
import io.tetradb.core.storage.meta.MetaWrite;
import io.tetradb.core.storage.meta.MetadataStore;
import io.tetradb.core.storage.partition.PartitionStore;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Removes a deleted container's rows from an item store whose rows the deletion's own write cannot remove (another
 * engine: Cassandra keeps a container's partitions apart from the metadata, and a conditional batch spans one
 * partition), in the background and restartable. The container's deletion writes a marker {@code 3C · collId} in the
 * same metadata write that removes the definition (so a deletion is never without its marker); a pass lists the
 * markers, has the item store drop each container's partitions ({@link PartitionStore#dropContainer}, idempotent)
 * and then removes the marker. Any server runs passes (at open, after a deletion, and every minute), so a marker a
 * crashed or stopped server left is finished by the next; two servers dropping one container at once do the same
 * deletes twice. Container numbers are never given out again, so nothing new is written under a dropped number,
 * except by a server that still held the deleted container in its cache (until its next catalog check, 1 s by
 * default, plus a request already past its lookup): so a marker (its value: the deletion's time) stays for
 * {@link #graceMillis()} (5 minutes) after the deletion and every pass in that time drops the container again,
 * removing such late writes; only a pass after it removes the marker.
 */
final class ContainerDrops implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(ContainerDrops.class.getName());
    static final byte DROP = 0x3C;
    private static final long PASS_MILLIS = 60_000;

    private final MetadataStore metadata;
    private final PartitionStore items;
    private final Thread worker;
    private final Object wake = new Object();
    private volatile boolean closed;
    private boolean pending = true; // a pass at open: markers an earlier run left

    ContainerDrops(MetadataStore metadata, PartitionStore items) {
        this.metadata = metadata;
        this.items = items;
        this.worker = new Thread(this::run, "tetradb-container-drops");
        worker.setDaemon(true);
        if (!Boolean.getBoolean("tetradb.containerDrops.manual")) { // tests: passes only when asked
            worker.start();
        }
    }

    static byte[] key(int collId) {
        return ByteBuffer.allocate(5).put(DROP).putInt(collId).array();
    }

    /** Adds the marker of {@code collId}'s rows to the metadata write that deletes the container. */
    static void mark(MetaWrite w, int collId) {
        w.put(key(collId), ByteBuffer.allocate(8).putLong(System.currentTimeMillis()).array());
    }

    /** How long a marker (and its passes) outlives the deletion: {@code -Dtetradb.containerDrops.graceMillis}. */
    static long graceMillis() {
        return Long.getLong("tetradb.containerDrops.graceMillis", 300_000);
    }

    /** A container was deleted: a pass soon. */
    void wake() {
        synchronized (wake) {
            pending = true;
            wake.notifyAll();
        }
    }

    /** Drops every marked container's rows and removes the markers; returns how many containers it dropped. */
    int passOnce() {
        int dropped = 0;
        for (MetaEntry e : metadata.list(new byte[]{DROP})) {
            if (closed) {
                break;
            }
            int collId = ByteBuffer.wrap(e.key()).getInt(1);
            items.dropContainer(collId);
            items.dropContainer(SharedUniqueOwners.ownerContainer(collId)); // its unique indexes' owner records
            // a marker of an older build has no time: done at once
            long deletedAt = e.value().length == 8 ? ByteBuffer.wrap(e.value()).getLong() : 0;
            if (System.currentTimeMillis() - deletedAt >= graceMillis()) {
                metadata.apply(new MetaWrite().delete(e.key()));
            }
            dropped++;
        }
        return dropped;
    }

    private void run() {
        while (!closed) {
            synchronized (wake) {
                if (!pending) {
                    try {
                        wake.wait(PASS_MILLIS);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                pending = false;
            }
            if (closed) {
                return;
            }
            try {
                passOnce();
            } catch (RuntimeException e) { // the engine unreachable: the marker stays for the next pass
                LOG.log(Level.WARNING, "dropping deleted containers' rows failed; retried at the next pass", e);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        worker.interrupt();
        try {
            worker.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
