package io.tetradb.core.item;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;

/**
 * A position in a TB1 item and the primitive reads of the format (varint lengths, byte runs, UTF-8 strings, 64-bit
 * integers, decimals), under {@link BinaryItemWalker}, the one decoder of whole values (trees through
 * {@link TreeBuilder}, BSON through the Mongo face's builder).
 */
class ItemCursor {
    final byte[] b;
    int pos;

    ItemCursor(byte[] b, int pos) {
        this.b = b;
        this.pos = pos;
    }

    int varint() {
        long v = BinaryItemReader.varintAt(b, pos);
        pos = (int) (v >>> 32);
        int n = (int) v;
        if (n < 0) {
            throw new IllegalArgumentException("negative length at " + pos);
        }
        return n;
    }

    byte[] bytes() {
        int n = varint();
        byte[] out = Arrays.copyOfRange(b, pos, pos + n);
        pos += n;
        return out;
    }

    String string() {
        int n = varint();
        String s = Utf8.decode(b, pos, n);
        pos += n;
        return s;
    }

    long i64() {
        long v = Bytes.i64(b, pos);
        pos += 8;
        return v;
    }

    BigDecimal decimal() {
        int z = varint();
        int scale = (z >>> 1) ^ -(z & 1);
        return new BigDecimal(new BigInteger(bytes()), scale);
    }
}
