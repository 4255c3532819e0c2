package io.tetradb.core.storage;

import java.util.ArrayList;
import java.util.List;

/**
 * The writes of one transaction. The engine applies a write set atomically: after a crash either every write of it
 * is there or none is.
 */
public final class WriteSet {
    /** One put, delete or range delete. */
    public record Write(Space space, byte[] key, byte[] value, byte[] rangeEnd) {
        boolean isDelete() {
            return value == null && rangeEnd == null;
        }

        boolean isRangeDelete() {
            return rangeEnd != null;
        }
    }

    private final ArrayList<Write> writes;
    private long bytes;

    public WriteSet() {
        writes = new ArrayList<>();
    }

    /** pw-lean: room for {@code expected} writes (a batch's write set grew its list five times). */
    public WriteSet(int expected) {
        writes = new ArrayList<>(expected);
    }

    /**
     * graph-load6: room for {@code more} writes beyond those held, so a caller that knows how many it adds (a
     * transaction's index entries: ≈ 7 of a graph element's ≈ 12 keys) does not regrow the list by copies.
     */
    public WriteSet room(int more) {
        writes.ensureCapacity(writes.size() + more);
        return this;
    }

    public WriteSet put(Space space, byte[] key, byte[] value) {
        writes.add(new Write(space, key, value, null));
        bytes += key.length + value.length;
        return this;
    }

    public WriteSet delete(Space space, byte[] key) {
        writes.add(new Write(space, key, null, null));
        bytes += key.length;
        return this;
    }

    /** Deletes every key in {@code [from, to)}. */
    public WriteSet deleteRange(Space space, byte[] from, byte[] to) {
        writes.add(new Write(space, from, null, to));
        bytes += from.length + to.length;
        return this;
    }

    public List<Write> writes() {
        return writes;
    }

    public boolean isEmpty() {
        return writes.isEmpty();
    }

    /** Sum of key and value sizes, for diagnostics. */
    public long bytes() {
        return bytes;
    }
}
