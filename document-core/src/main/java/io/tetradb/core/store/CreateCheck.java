package io.tetradb.core.store;

import io.tetradb.core.storage.KeyCursor;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.StorageEngine;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How a transaction reads the stored versions of the items it touches (core-batch, issue 17): a 100-item batch of
 * creates asked RocksDB for each of its 100 ids, which a multi-get answers by probing the memtables and every level's
 * bloom filter per key. The keys of one logical partition are one key range, so when the ids lie close together (a
 * new partition, a partition holding few items, ids handed out in order) one range read from the smallest id to the
 * largest costs one seek and meets few keys. Exact either way: every stored key in the range is seen.
 * {@code -Dtetradb.write.createCheck=multiget} reads as before, {@code empty} skips only the read of an empty
 * partition, {@code range} (the default) both.
 *
 * <p>pw-java: with the partition's id bound known ({@link PartitionStatsCache}: no stored id is above it), ids all
 * above it are absent without a read (always: the A/B switch {@code tetradb.write.idBound} is gone, mends session 18).
 * mongo-frames (session 19): "above" is in {@link #compareIds id order} — shorter ids first, then unsigned bytes — so
 * that decimal ids handed out in increasing order ({@code 9, 10, 11}; the Mongo face's Int32 {@code _id}s, stored as
 * {@code ~n9, ~n10}) rise, as ObjectIds and other fixed-width ids already did in byte order. Exact in any total
 * order: the bound is the largest id written in that same order, so an id above it is none of them.
 */
final class CreateCheck {
    enum Mode { MULTIGET, EMPTY, RANGE }

    static final Mode MODE = Mode.valueOf(System.getProperty("tetradb.write.createCheck", "range")
            .toUpperCase(java.util.Locale.ROOT));

    /**
     * True when the id of every key in {@code keys} (the bytes after {@code prefixLength}) is above {@code bound} in
     * {@link #compareIds id order}: none of them is stored.
     */
    static boolean allAbove(List<byte[]> keys, int prefixLength, byte[] bound) {
        for (int i = 0; i < keys.size(); i++) {
            byte[] k = keys.get(i);
            if (compareIds(k, prefixLength, k.length, bound, 0, bound.length) <= 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * id-classes (session 30): true when no key of {@code keys} can be stored: the id of each (the bytes after
     * {@code prefixLength}) is above {@code bound} (null: unknown) or above the bound of its class in
     * {@code classBounds} (null: unknown), or of a class none of them has ({@link ClassBounds}).
     */
    static boolean noneStored(List<byte[]> keys, int prefixLength, byte[] bound, byte[][] classBounds) {
        for (int i = 0; i < keys.size(); i++) {
            byte[] k = keys.get(i);
            if (bound != null && compareIds(k, prefixLength, k.length, bound, 0, bound.length) > 0) {
                continue;
            }
            if (classBounds == null || !aboveItsClass(k, prefixLength, classBounds)) {
                return false;
            }
        }
        return true;
    }

    private static boolean aboveItsClass(byte[] key, int prefixLength, byte[][] classBounds) {
        for (byte[] b : classBounds) {
            if (sameClass(b, 0, key, prefixLength)) {
                return compareIds(key, prefixLength, key.length, b, 0, b.length) > 0;
            }
        }
        return true; // a class the partition holds no id of
    }

    /** Whether two ids (from their offsets to their arrays' ends) have one length and, if not empty, one first byte. */
    static boolean sameClass(byte[] a, int aFrom, byte[] b, int bFrom) {
        int n = a.length - aFrom;
        return n == b.length - bFrom && (n == 0 || a[aFrom] == b[bFrom]);
    }

    /** At most this many classes are kept per partition; a partition with more has them unknown. */
    static final int MAX_CLASSES = 4;

    /**
     * id-classes (session 30): a partition's <em>class bounds</em> as a transaction writes it. A class is every id of
     * one length and one first byte; its bound is the largest id of it the partition holds (or held: a delete keeps
     * it, as the id bound). Ids of different classes are never equal, so an id above its class's bound, or of a
     * class not listed, is not stored: exact as the id bound is, for each sequence of ids on its own (the core
     * benchmark's batch ids {@code i…} below its point-write ids {@code w…}, Mongo's {@code ~n} counters of each
     * length, ObjectIds beside string ids). Starts from the partition's bounds before the transaction (ids) and takes
     * every key the transaction writes ({@link #note}); more than {@value #MAX_CLASSES} classes, or an id longer than
     * {@link PartitionStatsCache#MAX_BOUND_BYTES}, make them unknown.
     */
    static final class ClassBounds {
        private byte[][] ids;
        private int[] from; // where each id starts in its array: 0 for a bound, the prefix length for a written key
        private int count;

        /** {@code before}: the bounds before the transaction (ids), null when unknown (they stay unknown). */
        ClassBounds(byte[][] before) {
            if (before != null) {
                ids = Arrays.copyOf(before, MAX_CLASSES);
                from = new int[MAX_CLASSES];
                count = before.length;
            }
        }

        /** After the transaction wrote (or deleted) {@code key}, whose id follows {@code prefixLength} bytes. */
        void note(byte[] key, int prefixLength) {
            if (ids == null) {
                return;
            }
            for (int i = 0; i < count; i++) {
                if (sameClass(ids[i], from[i], key, prefixLength)) {
                    if (compareIds(key, prefixLength, key.length, ids[i], from[i], ids[i].length) > 0) {
                        ids[i] = key;
                        from[i] = prefixLength;
                    }
                    return;
                }
            }
            if (count == MAX_CLASSES || key.length - prefixLength > PartitionStatsCache.MAX_BOUND_BYTES) {
                ids = null; // unknown from here on
                return;
            }
            ids[count] = key;
            from[count] = prefixLength;
            count++;
        }

        /** The bounds after the transaction, as ids; null when unknown. */
        byte[][] after() {
            if (ids == null) {
                return null;
            }
            byte[][] out = new byte[count][];
            for (int i = 0; i < count; i++) {
                out[i] = from[i] == 0 ? ids[i] : Arrays.copyOfRange(ids[i], from[i], ids[i].length);
            }
            return out;
        }
    }

    /** {@code bound} raised to the id of {@code key} (the bytes after {@code prefixLength}) when that is above it. */
    static byte[] raised(byte[] bound, byte[] key, int prefixLength) {
        return compareIds(key, prefixLength, key.length, bound, 0, bound.length) > 0
                ? Arrays.copyOfRange(key, prefixLength, key.length) : bound;
    }

    /**
     * The id bound's order (mongo-frames): a shorter id is below a longer one, ids of one length compare as unsigned
     * bytes. Decimal counters without leading zeros then rise as numbers ({@code ~n999 < ~n1000}), fixed-width ids
     * (ObjectIds, padded sequences, GUIDs) keep their byte order. Not the order keys are stored in: only the bound uses
     * it, and only as "no stored id is above this".
     */
    static int compareIds(byte[] a, int aFrom, int aTo, byte[] b, int bFrom, int bTo) {
        int byLength = Integer.compare(aTo - aFrom, bTo - bFrom);
        return byLength != 0 ? byLength : Arrays.compareUnsigned(a, aFrom, aTo, b, bFrom, bTo);
    }

    /** Below this many ids the multi-get (or a point read) stays: a seek costs a few point reads. */
    static final int RANGE_MIN_IDS = 8;
    /**
     * The range read gives up once it met more keys than half the ids asked (ids spread over a big partition): what
     * it read by then costs about what the multi-get it falls back to does.
     */
    static int budget(int ids) {
        return Math.max(RANGE_MIN_IDS, ids / 2);
    }

    private CreateCheck() {
    }

    /**
     * The stored values of {@code keys} (all of one logical partition; null: absent), from one read of the key range
     * between the smallest and the largest, or null when that range holds too many other keys.
     */
    static List<byte[]> rangeRead(StorageEngine engine, List<byte[]> keys) {
        Map<ByteBuffer, Integer> wanted = new HashMap<>(keys.size() * 2);
        byte[] lo = keys.get(0);
        byte[] hi = keys.get(0);
        for (int i = 0; i < keys.size(); i++) {
            byte[] k = keys.get(i);
            wanted.put(ByteBuffer.wrap(k), i);
            if (Arrays.compareUnsigned(k, lo) < 0) {
                lo = k;
            }
            if (Arrays.compareUnsigned(k, hi) > 0) {
                hi = k;
            }
        }
        byte[] end = Arrays.copyOf(hi, hi.length + 1); // the first key after hi
        int budget = budget(keys.size());
        byte[][] out = new byte[keys.size()][];
        int seen = 0;
        try (KeyCursor c = engine.cursor(Space.DOCS, lo, end, false)) {
            while (c.next()) {
                if (++seen > budget) {
                    return null;
                }
                Integer at = wanted.get(ByteBuffer.wrap(c.key()));
                if (at != null) {
                    out[at] = c.value();
                }
            }
        }
        return Arrays.asList(out);
    }
}
