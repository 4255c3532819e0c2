package io.tetradb.graph.structure;

import java.security.SecureRandom;
import java.util.UUID;

/**
 * Ids for elements and vertex properties created without one: UUIDs laid out as version 7 (48 bits of milliseconds,
 * then a counter, then random bits), so that in one JVM they sort in creation order. The core keeps a logical
 * partition's items in id order, so scans and adjacency queries return elements in the order they were added, as
 * in-memory graphs do.
 */
final class IdGenerator {
    /**
     * The random bits only keep ids of different JVMs apart, so a fast generator seeded from SecureRandom does: a
     * SecureRandom call per id (NativePRNG reads /dev/urandom under a lock) was a visible part of bulk loads, one
     * per vertex property.
     */
    private static final java.util.SplittableRandom RANDOM = new java.util.SplittableRandom(new SecureRandom().nextLong());
    private static long lastMillis;
    private static long sequence;

    private IdGenerator() {
    }

    static synchronized String next() {
        long now = System.currentTimeMillis();
        if (now > lastMillis) {
            lastMillis = now;
            sequence = 0;
        } else if (++sequence > 0xFFF) {
            lastMillis++;
            sequence = 0;
        }
        long high = (lastMillis << 16) | 0x7000L | sequence;
        long low = (RANDOM.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(high, low).toString();
    }
}
