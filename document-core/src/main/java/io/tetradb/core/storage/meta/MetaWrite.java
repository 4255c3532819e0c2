package io.tetradb.core.storage.meta;

import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.WriteSet;

import java.util.ArrayList;
import java.util.List;

/**
 * One atomic change of metadata: entries created if absent, replaced or deleted at the version read, put or deleted
 * unconditionally, key ranges deleted, and whether it changes the catalog (databases, containers, their definitions
 * and partition maps: what other servers' caches must notice, see {@link MetadataStore#catalogStamp()}). Either every
 * condition holds and every change is made, or nothing is written.
 */
public final class MetaWrite {
    /** What one operation does. */
    public enum Kind {
        /** put, only if the key is absent */
        CREATE,
        /** put, only if the key is at {@code expected} */
        REPLACE,
        /** nothing, only if the key is at {@code expected} (what a decision read) */
        REQUIRE,
        /** put */
        PUT,
        /** delete, only if the key is at {@code expected} */
        DELETE_IF,
        /** delete */
        DELETE,
        /** delete every key in {@code [key, end)} */
        DELETE_RANGE
    }

    /** One operation; {@code value} for puts, {@code expected} for conditions, {@code end} for range deletes. */
    public record Op(Kind kind, byte[] key, byte[] value, long expected, byte[] end) {
        public boolean isConditional() {
            return kind == Kind.CREATE || kind == Kind.REPLACE || kind == Kind.REQUIRE || kind == Kind.DELETE_IF;
        }
    }

    private final List<Op> ops = new ArrayList<>();
    private boolean catalogChange;
    private WriteSet local;

    public MetaWrite create(byte[] key, byte[] value) {
        ops.add(new Op(Kind.CREATE, key, value, MetaVersion.ABSENT, null));
        return this;
    }

    public MetaWrite replace(byte[] key, long expected, byte[] value) {
        ops.add(new Op(Kind.REPLACE, key, value, expected, null));
        return this;
    }

    /** The write applies only while {@code entry} is unchanged (e.g. the database a container is created in). */
    public MetaWrite require(MetaEntry entry) {
        ops.add(new Op(Kind.REQUIRE, entry.key(), entry.value(), entry.version(), null));
        return this;
    }

    public MetaWrite put(byte[] key, byte[] value) {
        ops.add(new Op(Kind.PUT, key, value, 0, null));
        return this;
    }

    public MetaWrite deleteIf(byte[] key, long expected) {
        ops.add(new Op(Kind.DELETE_IF, key, null, expected, null));
        return this;
    }

    public MetaWrite delete(byte[] key) {
        ops.add(new Op(Kind.DELETE, key, null, 0, null));
        return this;
    }

    public MetaWrite deleteRange(byte[] from, byte[] to) {
        ops.add(new Op(Kind.DELETE_RANGE, from, null, 0, to));
        return this;
    }

    /** Marks the write as a change of the catalog: {@link MetadataStore#catalogStamp()} changes with it. */
    public MetaWrite catalogChange() {
        catalogChange = true;
        return this;
    }

    /**
     * The META writes of {@code ws} (the core's key layout) as unconditional operations of this write; its other
     * spaces' writes (items, index entries, change records: the item engine's) ride along as {@link #local()}.
     */
    public MetaWrite include(WriteSet ws) {
        WriteSet rest = null;
        for (WriteSet.Write w : ws.writes()) {
            if (w.space() != Space.META) {
                rest = rest == null ? local == null ? new WriteSet() : local : rest;
                if (w.rangeEnd() != null) {
                    rest.deleteRange(w.space(), w.key(), w.rangeEnd());
                } else if (w.value() == null) {
                    rest.delete(w.space(), w.key());
                } else {
                    rest.put(w.space(), w.key(), w.value());
                }
            } else if (w.rangeEnd() != null) {
                deleteRange(w.key(), w.rangeEnd());
            } else if (w.value() == null) {
                delete(w.key());
            } else {
                put(w.key(), w.value());
            }
        }
        if (rest != null) {
            local = rest;
        }
        return this;
    }

    public List<Op> ops() {
        return ops;
    }

    public boolean isCatalogChange() {
        return catalogChange;
    }

    /**
     * Writes of the local item engine that go with this one (a container's items deleted with its definition): a
     * metadata store that shares that engine's atomic write applies them with it ({@link
     * MetadataStore#appliesLocalWrites()}); otherwise the caller applies them after.
     */
    public WriteSet local() {
        return local;
    }
}
