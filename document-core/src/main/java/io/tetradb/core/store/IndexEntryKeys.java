package io.tetradb.core.store;

import java.nio.ByteBuffer;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.RandomAccess;

/**
 * One version's index entry keys, as {@link OnePassTerms} and {@link BinaryIndexEntries} make them. Session 23
 * (index-write, issue 17): the keys are kept in one array sized for them, not each in a {@code ByteBuffer} in an
 * {@code ArrayList} — a {@code ByteBuffer} was 56 bytes per entry, ≈ 1.1 KB of the query benchmark's 20-entry item.
 * It is still the {@code List<ByteBuffer>} every reader of a transaction's entries takes (an element is a fresh wrap
 * of its key, equal to the old list's element, and so are the lists' {@code equals} and {@code hashCode});
 * {@link IndexWrites} and {@code ContainerStore.bytes} read the arrays themselves.
 */
final class IndexEntryKeys extends AbstractList<ByteBuffer> implements RandomAccess {
    private byte[][] keys;
    private int n;
    private long bytes;

    /** Room for {@code expected} keys (more are taken, by a copy). */
    IndexEntryKeys(int expected) {
        keys = new byte[Math.max(expected, 1)][];
    }

    void addKey(byte[] key) {
        if (n == keys.length) {
            keys = Arrays.copyOf(keys, 2 * n);
        }
        keys[n++] = key;
        bytes += key.length;
    }

    /** Key {@code i} itself (not a copy: never to be changed). */
    byte[] key(int i) {
        if (i >= n) {
            throw new IndexOutOfBoundsException(i);
        }
        return keys[i];
    }

    /** Copies the keys into {@code out} from {@code at}. */
    void copyTo(byte[][] out, int at) {
        System.arraycopy(keys, 0, out, at, n);
    }

    /** The sum of the keys' lengths. */
    long keyBytes() {
        return bytes;
    }

    @Override
    public ByteBuffer get(int i) {
        return ByteBuffer.wrap(key(i));
    }

    @Override
    public int size() {
        return n;
    }
}
