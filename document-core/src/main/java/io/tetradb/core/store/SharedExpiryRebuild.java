package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.meta.MetaEntry;
import io.tetradb.core.storage.meta.MetaWrite;
import io.tetradb.core.storage.partition.LogicalPartition;
import io.tetradb.core.storage.partition.PartitionStore;
import io.tetradb.core.storage.partition.PartitionVersion;
import io.tetradb.core.storage.partition.PartitionWrite;
import io.tetradb.core.storage.partition.StoredItem;
import io.tetradb.core.ttl.ExpiryRule;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A container's expiry rule changed on a shared engine (issue 20: a Cosmos replace with a new {@code defaultTtl}, a
 * Mongo TTL index — a date-field expiry, META {@code 21 · collId · name} in the metadata — created, changed or
 * dropped). The rule itself is metadata (the definition, the date-field entries),
 * which every server follows at its catalog check, so reads hide what expired under the new rule on every server
 * within that interval. The expiry entries (side writes of each item's partition, which the purgers seek) are
 * converted here, one logical partition per conditional apply at the version read, which it bumps: each item's entry
 * under the previous rule removed, its entry under the current rule written; refused (a writer or a purge moved the
 * partition on), the partition is read and converted again. The job waits two catalog checks first, so every server's
 * writers write the new rule's entries by the time it converts; the bump refuses (449) a writer that read the
 * partition's version before the conversion and its rule before following the change (a stale writer), whose retry
 * reads the rule again after the version ({@link PartitionTransaction}). The conversion also records the rule in
 * the partition ({@link PartitionExpiryRules}), which every writer reads with the version: a server whose catalog lags
 * more than the two checks writes that rule's entries, not its cached one's.
 *
 * <p>What the conversion does not reach is made harmless by the purger: on a shared engine it checks each entry
 * against its item under the current rule before deleting (an entry left by the previous rule, or by a writer whose
 * catalog was behind, is dropped and the item's right entry written), so no item is purged before its time. The
 * record {@code META 4D · collId} (the previous rule) stays until the job ends, so a job cut short by a crash is run
 * again by the next server that loads the container.
 */
final class SharedExpiryRebuild {
    static final byte RECORD = 0x4D;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int SCAN_CHUNK = 512;

    private final CoreStore store;
    private final ContainerStore container;
    private final ExpiryRule previous;

    private SharedExpiryRebuild(CoreStore store, ContainerStore container, ExpiryRule previous) {
        this.store = store;
        this.container = container;
        this.previous = previous;
    }

    static byte[] recordKey(int collId) {
        return Keys.withByte(RECORD, Keys.collId(collId));
    }

    /** Adds the record of a rule change to the change's own metadata write (so a crash leaves it to resume). */
    static void record(MetaWrite w, int collId, ExpiryRule previous) {
        w.put(recordKey(collId), encode(previous));
    }

    /** Starts the conversion in the background (a daemon thread); returns it, for tests. */
    static Thread start(CoreStore store, ContainerStore container, ExpiryRule previous) {
        Thread t = new Thread(() -> new SharedExpiryRebuild(store, container, previous).run(),
                "tetradb-expiry-rebuild-" + container.collId());
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** A record left by a job that did not end (a crash): resumed by this server, on a container it loads. */
    static void resume(CoreStore store, ContainerStore container) {
        MetaEntry e = store.metadata().get(recordKey(container.collId()));
        if (e != null) {
            start(store, container, decode(e.value()));
        }
    }

    private void run() {
        try {
            Thread.sleep(2 * store.catalogCheckMillis()); // every server follows the new rule first
            convertAll();
            MetaEntry e = store.metadata().get(recordKey(container.collId()));
            if (e != null) {
                store.metadata().apply(new MetaWrite().deleteIf(e.key(), e.version()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            if (store.isClosing()) {
                return; // the record stays: the next server to load the container resumes
            }
            // left for the next server that loads the container (the record stays); the purger's checks cover it
            System.getLogger(SharedExpiryRebuild.class.getName()).log(System.Logger.Level.WARNING,
                    "the expiry entries' conversion of container " + container.collId() + " stopped", e);
        }
    }

    /** Converts every logical partition of the container; returns how many items' entries it wrote. */
    long convertAll() {
        PartitionStore partitions = store.partitions();
        long converted = 0;
        for (PartitionVersion pv : partitions.partitions(container.collId(), null, null)) {
            if (container.isDeleted() || store.isClosing()) {
                break;
            }
            converted += convert(pv.partition());
        }
        return converted;
    }

    private long convert(LogicalPartition p) {
        PartitionStore partitions = store.partitions();
        byte[] lpPrefix = p.prefix();
        ReentrantLock lock = store.lockFor(lpPrefix); // this server's writers wait; other servers' race the version
        for (int attempt = 0; attempt < 100; attempt++) {
            lock.lock();
            try {
                io.tetradb.core.storage.partition.PartitionStats stats = partitions.stats(p);
                long version = stats.version();
                ExpiryRule current = container.expiryRule();
                // the rule the partition's entries follow: the one its last conversion recorded (its writers wrote
                // entries under it since), else the change's previous rule
                ExpiryRule recorded = PartitionExpiryRules.decode(
                        partitions.readDerived(p, Space.META, PartitionExpiryRules.key(lpPrefix)));
                ExpiryRule was = recorded != null ? recorded : previous;
                // the version bumped: a writer that read it before this conversion (and its rule before the change)
                // is refused rather than adding the previous rule's entry to a converted partition
                PartitionWrite.Builder w = PartitionWrite.builder(p, version, version + 1)
                        .stats(new io.tetradb.core.storage.partition.PartitionStats(stats.bytes(), stats.items(),
                                version + 1));
                PartitionExpiryRules.addTo(w, lpPrefix, current); // every writer follows it from this apply on
                long written = 0;
                String after = null;
                while (true) {
                    List<StoredItem> chunk = partitions.scan(p, after, null, SCAN_CHUNK);
                    for (StoredItem s : chunk) {
                        JsonNode item = store.codec().parse(s.value());
                        byte[] docKey = Keys.concat(lpPrefix, Keys.utf8(s.id()));
                        long wasAt = was.active() ? was.expiresAt(item) : ExpiryRule.NEVER;
                        long is = current.active() ? current.expiresAt(item) : ExpiryRule.NEVER;
                        if (wasAt != ExpiryRule.NEVER && wasAt != is) {
                            w.side(Space.META, ExpiryIndex.key(docKey, wasAt), null);
                        }
                        if (is != ExpiryRule.NEVER) {
                            w.side(Space.META, ExpiryIndex.key(docKey, is), new byte[0]);
                            written++;
                        }
                    }
                    if (chunk.size() < SCAN_CHUNK) {
                        break;
                    }
                    after = chunk.get(chunk.size() - 1).id() + '\u0000';
                }
                boolean applied = partitions.apply(w.build()).applied();
                store.forgetPartitionStats(lpPrefix); // core-write: statistics written outside the transactions
                if (applied) {
                    return written;
                }
            } finally {
                lock.unlock();
            }
        }
        return 0; // kept moving: the purger's checks cover what is left
    }

    /** The container's rule on a shared engine: its definition's default TTL and the date fields in the metadata. */
    static ExpiryRule loadRule(io.tetradb.core.storage.meta.MetadataStore metadata, ContainerDefinition def) {
        List<ExpiryRule.DateField> fields = new ArrayList<>();
        for (MetaEntry e : metadata.list(ExpiryIndex.dateFieldPrefix(def.collId()))) {
            fields.add(decodeField(e.value()));
        }
        return new ExpiryRule(def.defaultTimeToLive(), fields);
    }

    /**
     * A date-field expiry (a Mongo TTL index) added, changed ({@code field}) or removed (null) in the metadata, with
     * the conversion's record, as one catalog change: every server follows it at its catalog check. False when the
     * stored field is that already (nothing to convert).
     */
    static boolean changeDateField(CoreStore store, int collId, String name, ExpiryRule.DateField field,
                                   ExpiryRule previous) {
        byte[] key = ExpiryIndex.dateFieldKey(collId, name);
        MetaEntry stored = store.metadata().get(key);
        if (stored == null ? field == null : field != null && decodeField(stored.value()).equals(field)) {
            return false;
        }
        MetaWrite w = new MetaWrite();
        if (field == null) {
            w.delete(key);
        } else {
            w.put(key, ExpiryIndex.encode(field));
        }
        record(w, collId, previous);
        store.applyMeta(w.catalogChange());
        return true;
    }

    private static ExpiryRule.DateField decodeField(byte[] bytes) {
        try {
            JsonNode f = JSON.readTree(bytes);
            List<String> path = new ArrayList<>();
            f.path("path").forEach(s -> path.add(s.asText()));
            return new ExpiryRule.DateField(f.path("name").asText(), path, f.path("seconds").asLong());
        } catch (IOException e) {
            throw new IllegalStateException("an unreadable date-field expiry", e);
        }
    }

    static byte[] encode(ExpiryRule rule) {
        ObjectNode n = JSON.createObjectNode();
        if (rule.defaultTtl() != null) {
            n.put("defaultTtl", rule.defaultTtl());
        }
        ArrayNode fields = n.putArray("dateFields");
        for (ExpiryRule.DateField f : rule.dateFields()) {
            try {
                fields.add(JSON.readTree(ExpiryIndex.encode(f)));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
        return n.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    static ExpiryRule decode(byte[] bytes) {
        try {
            JsonNode n = JSON.readTree(bytes);
            List<ExpiryRule.DateField> fields = new ArrayList<>();
            for (JsonNode f : n.path("dateFields")) {
                fields.add(decodeField(f.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            }
            return new ExpiryRule(n.hasNonNull("defaultTtl") ? n.get("defaultTtl").asInt() : null, fields);
        } catch (IOException e) {
            throw new IllegalStateException("an unreadable expiry rebuild record", e);
        }
    }
}
