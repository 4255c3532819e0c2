package io.tetradb.core.value;

import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.FloatNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * Issue 17, index-cost: the scalar entry keys written straight into one array ({@code encodeLongEntry},
 * {@code encodeDoubleEntry}, {@code encodeLiteralEntry}) are byte for byte the general {@code encodeEntry} of the
 * same value's node — at the edges of a double's exact integers, for NaN, ±0.0, ±Infinity, subnormals, every float
 * bit pattern drawn, null and both booleans — with prefixes and suffix offsets of any length.
 */
class IndexKeyEncodingScalarEntriesTest {
    @Test
    void scalarEntriesEqualTheGeneralEncoding() {
        SplittableRandom r = new SplittableRandom(41);
        long[] edges = {0, 1, -1, 1L << 53, (1L << 53) + 1, -(1L << 53), -(1L << 53) - 1, Long.MAX_VALUE,
                Long.MIN_VALUE, Integer.MAX_VALUE, Integer.MIN_VALUE};
        double[] doubles = {Double.NaN, 0.0, -0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
                Double.MIN_VALUE, -Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, 0.1, -2.5, 1e300};
        for (int round = 0; round < 20_000; round++) {
            byte[] prefix = bytes(r, r.nextInt(12));
            byte[] suffix = bytes(r, r.nextInt(40));
            int from = suffix.length == 0 ? 0 : r.nextInt(suffix.length + 1);
            long x = round < edges.length ? edges[round] : r.nextInt(4) == 0 ? r.nextInt() : r.nextLong()
                    >> r.nextInt(64);
            assertArrayEquals(IndexKeyEncoding.encodeEntry(prefix, LongNode.valueOf(x), suffix, from),
                    IndexKeyEncoding.encodeLongEntry(prefix, x, suffix, from), "long " + x);
            int i = (int) x;
            assertArrayEquals(IndexKeyEncoding.encodeEntry(prefix, IntNode.valueOf(i), suffix, from),
                    IndexKeyEncoding.encodeLongEntry(prefix, i, suffix, from), "int " + i);
            double d = round < doubles.length ? doubles[round] : Double.longBitsToDouble(r.nextLong());
            assertArrayEquals(IndexKeyEncoding.encodeEntry(prefix, DoubleNode.valueOf(d), suffix, from),
                    IndexKeyEncoding.encodeDoubleEntry(prefix, d, suffix, from), "double " + d);
            float f = Float.intBitsToFloat(r.nextInt());
            assertArrayEquals(IndexKeyEncoding.encodeEntry(prefix, FloatNode.valueOf(f), suffix, from),
                    IndexKeyEncoding.encodeDoubleEntry(prefix, f, suffix, from), "float " + f);
            assertArrayEquals(IndexKeyEncoding.encodeEntry(prefix, NullNode.getInstance(), suffix, from),
                    IndexKeyEncoding.encodeLiteralEntry(prefix, null, suffix, from));
            boolean b = r.nextBoolean();
            assertArrayEquals(IndexKeyEncoding.encodeEntry(prefix, BooleanNode.valueOf(b), suffix, from),
                    IndexKeyEncoding.encodeLiteralEntry(prefix, b, suffix, from));
        }
    }

    private static byte[] bytes(SplittableRandom r, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) r.nextInt(256);
        }
        return b;
    }
}
