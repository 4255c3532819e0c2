package io.tetradb.core.storage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Predicate;

/**
 * The local engine of a core whose metadata and items are both on a shared engine (Cassandra): nothing durable is
 * left for it, so it lives in the process's memory instead of a RocksDB directory. What still lands here is
 * per-process and rebuilt at start: the feed sequence's numbers (wake-ups of this server's readers), the change
 * feeds' partition-index start markers, and the local side of a container deletion's write (range deletes of spaces
 * that are empty here). Every request's data goes through the contracts, and the background jobs that would move
 * local keys are off ({@link SharedEngineLimits}), so no data lives only here. Writes apply under one lock (atomic to
 * readers); a cursor reads a copy of its range taken when it opens.
 */
public final class ProcessMemoryEngine implements StorageEngine {
    private final Map<Space, ConcurrentSkipListMap<byte[], byte[]>> spaces = new EnumMap<>(Space.class);

    public ProcessMemoryEngine() {
        for (Space s : Space.values()) {
            spaces.put(s, new ConcurrentSkipListMap<>(Arrays::compareUnsigned));
        }
    }

    private NavigableMap<byte[], byte[]> range(Space space, byte[] from, byte[] to) {
        ConcurrentSkipListMap<byte[], byte[]> m = spaces.get(space);
        if (to == null) {
            return m.tailMap(from, true);
        }
        if (Arrays.compareUnsigned(from, to) >= 0) {
            return new java.util.TreeMap<>();
        }
        return m.subMap(from, true, to, false);
    }

    @Override
    public byte[] get(Space space, byte[] key) {
        return spaces.get(space).get(key);
    }

    @Override
    public List<byte[]> multiGet(Space space, List<byte[]> keys) {
        List<byte[]> out = new ArrayList<>(keys.size());
        for (byte[] k : keys) {
            out.add(get(space, k));
        }
        return out;
    }

    @Override
    public void scan(Space space, byte[] from, byte[] to, Predicate<KeyValue> visitor) {
        try (KeyCursor c = cursor(space, from, to, false)) {
            while (c.next()) {
                if (!visitor.test(new KeyValue(c.key(), c.value()))) {
                    return;
                }
            }
        }
    }

    @Override
    public KeyCursor cursor(Space space, byte[] from, byte[] to, boolean reverse) {
        NavigableMap<byte[], byte[]> r = range(space, from, to);
        List<Map.Entry<byte[], byte[]>> copy;
        synchronized (this) { // a view no write is half-applied in
            copy = new ArrayList<>((reverse ? r.descendingMap() : r).entrySet());
        }
        return new KeyCursor() {
            private int at = -1;

            public boolean next() {
                return ++at < copy.size();
            }

            public byte[] key() {
                return copy.get(at).getKey();
            }

            public byte[] value() {
                return copy.get(at).getValue();
            }

            public void close() {
            }
        };
    }

    @Override
    public synchronized void apply(WriteSet writes) {
        for (WriteSet.Write w : writes.writes()) {
            ConcurrentSkipListMap<byte[], byte[]> m = spaces.get(w.space());
            if (w.rangeEnd() != null) {
                range(w.space(), w.key(), w.rangeEnd()).clear();
            } else if (w.value() == null) {
                m.remove(w.key());
            } else {
                m.put(w.key(), w.value());
            }
        }
    }

    @Override
    public void close() {
        spaces.values().forEach(Map::clear);
    }
}
