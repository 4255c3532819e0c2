package io.tetradb.server;

import java.util.Locale;

/**
 * The memory one server process may use, heap and RocksDB together, and how it is shared: half for the Java heap
 * ({@code -Xmx}, which the {@code tetradb} script sets from the same figure before the JVM starts), a quarter for
 * RocksDB (its block cache, with the memtables charged to it), 15% for direct buffers (Netty's network buffers,
 * {@code -XX:MaxDirectMemorySize}); the rest is left to class metadata, thread stacks and the C library.
 * Default 1 GiB: room for a 2-core machine with 2-4 GB beside its other programs.
 */
public record MemoryBudget(long bytes) {
    public static final long DEFAULT = 1L << 30;
    /** Below this the heap could not hold one 48 MB Mongo message next to its decoded form. */
    public static final long MINIMUM = 256L << 20;

    public MemoryBudget {
        if (bytes < MINIMUM) {
            throw new IllegalArgumentException("the memory budget must be at least 256m, not " + bytes + " bytes");
        }
    }

    /** {@code 1g}, {@code 768m}, {@code 2048k} or a number of bytes (the JVM's -Xmx notation). */
    public static MemoryBudget parse(String text) {
        return new MemoryBudget(parseBytes(text));
    }

    /** A size in the -Xmx notation, in bytes. */
    public static long parseBytes(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        long unit = 1;
        if (t.endsWith("g") || t.endsWith("m") || t.endsWith("k")) {
            unit = switch (t.charAt(t.length() - 1)) {
                case 'g' -> 1L << 30;
                case 'm' -> 1L << 20;
                default -> 1L << 10;
            };
            t = t.substring(0, t.length() - 1);
        }
        try {
            return Math.multiplyExact(Long.parseLong(t), unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("a memory size is written like 1g or 768m, not '" + text + "'");
        }
    }

    public long heapBytes() {
        return bytes / 2;
    }

    /** RocksDB's block cache; the memtables (write buffers) are charged to it, up to half of it. */
    public long rocksDbBytes() {
        return bytes / 4;
    }

    public long directBytes() {
        return bytes * 15 / 100;
    }
}
