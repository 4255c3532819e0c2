package io.tetradb.core.partition;

import java.util.Arrays;

/**
 * A range {@code [min, max)} of effective partition keys. The whole space is {@code ["", "FF")}: every EPK starts
 * with a byte at most 0x3F (hash V2 clears the top two bits), so the one-byte key 0xFF is above all of them.
 */
public record EpkRange(byte[] min, byte[] max) {
    public static final byte[] MIN = new byte[0];
    public static final byte[] MAX = {(byte) 0xFF};
    public static final EpkRange FULL = new EpkRange(MIN, MAX);

    public boolean contains(byte[] epk) {
        return compare(min, epk) <= 0 && compare(epk, max) < 0;
    }

    /** The EPKs that start with {@code prefix} (the EPK of the first levels of a hierarchical key). */
    public static EpkRange prefixOf(byte[] prefix) {
        byte[] end = prefix.clone();
        int i = end.length - 1;
        while (i >= 0 && end[i] == (byte) 0xFF) {
            i--;
        }
        if (i < 0) {
            return new EpkRange(prefix, MAX);
        }
        end = java.util.Arrays.copyOf(end, i + 1);
        end[i]++;
        return new EpkRange(prefix, end);
    }

    public static int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    public String minHex() {
        return EffectivePartitionKey.toHex(min);
    }

    public String maxHex() {
        return EffectivePartitionKey.toHex(max);
    }

    public static EpkRange ofHex(String min, String max) {
        return new EpkRange(EffectivePartitionKey.fromHex(min), EffectivePartitionKey.fromHex(max));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EpkRange r && Arrays.equals(min, r.min) && Arrays.equals(max, r.max);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(min) + Arrays.hashCode(max);
    }

    @Override
    public String toString() {
        return "[\"" + minHex() + "\", \"" + maxHex() + "\")";
    }

    /**
     * Splits the space into {@code n} equal ranges for a new container: hash V2 values fill {@code [00.., 40..)}, so
     * that interval, not the whole byte range, is divided.
     */
    public static EpkRange[] initialRanges(int n) {
        EpkRange[] ranges = new EpkRange[n];
        java.math.BigInteger span = java.math.BigInteger.ONE.shiftLeft(126); // 0x40 followed by 15 zero bytes
        byte[] previous = MIN;
        for (int i = 1; i <= n; i++) {
            byte[] next;
            if (i == n) {
                next = MAX;
            } else {
                java.math.BigInteger boundary = span.multiply(java.math.BigInteger.valueOf(i))
                        .divide(java.math.BigInteger.valueOf(n));
                next = toSixteenBytes(boundary);
            }
            ranges[i - 1] = new EpkRange(previous, next);
            previous = next;
        }
        return ranges;
    }

    private static byte[] toSixteenBytes(java.math.BigInteger v) {
        byte[] raw = v.toByteArray();
        byte[] out = new byte[16];
        int copy = Math.min(16, raw.length);
        System.arraycopy(raw, raw.length - copy, out, 16 - copy, copy);
        return out;
    }
}
