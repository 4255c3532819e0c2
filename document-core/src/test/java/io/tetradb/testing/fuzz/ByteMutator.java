package io.tetradb.testing.fuzz;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;

/**
 * Mutates a valid input the ways hostile or broken clients do: flipped bits, overwritten bytes, a 32-bit length
 * replaced by an extreme value (both byte orders), truncation, inserted or repeated slices, bad UTF-8 sequences.
 * Every choice comes from the given {@link Random}, so a seed replays a run.
 */
public final class ByteMutator {
    private static final int[] EXTREME_INTS = {0, -1, 1, 4, 5, 16, 0x7fffffff, 0x80000000, 0x7ffffff0,
        47_999_999, 48_000_001, 16 * 1024 * 1024 + 1, 600_000_000, 2_000_000_000, 0xffff, 0x10000};
    private static final byte[][] BAD_UTF8 = {
        {(byte) 0xc0, (byte) 0x80}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, {(byte) 0xff}, {(byte) 0xfe},
        {(byte) 0xe2, (byte) 0x82}, {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0x80}};

    private final Random random;

    public ByteMutator(Random random) {
        this.random = random;
    }

    /** One to four mutations of {@code input} (never the input itself). */
    public byte[] mutate(byte[] input) {
        byte[] out = input;
        int n = 1 + random.nextInt(4);
        for (int i = 0; i < n; i++) {
            out = once(out);
        }
        return out;
    }

    private byte[] once(byte[] in) {
        if (in.length == 0) {
            return new byte[] {(byte) random.nextInt(256)};
        }
        byte[] out = in.clone();
        int at = random.nextInt(out.length);
        switch (random.nextInt(8)) {
            case 0 -> out[at] ^= (byte) (1 << random.nextInt(8));
            case 1 -> out[at] = (byte) random.nextInt(256);
            case 2 -> {
                if (out.length >= 4) {
                    int p = random.nextInt(out.length - 3);
                    ByteOrder order = random.nextBoolean() ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
                    ByteBuffer.wrap(out).order(order).putInt(p, EXTREME_INTS[random.nextInt(EXTREME_INTS.length)]);
                }
            }
            case 3 -> out = Arrays.copyOf(out, random.nextInt(out.length));
            case 4 -> out = splice(out, at, randomBytes(1 + random.nextInt(16)));
            case 5 -> {
                int len = Math.min(out.length - at, 1 + random.nextInt(64));
                out = splice(out, at, Arrays.copyOfRange(out, at, at + len));
            }
            case 6 -> out = splice(out, at, BAD_UTF8[random.nextInt(BAD_UTF8.length)]);
            default -> {
                int len = Math.min(out.length - at, 1 + random.nextInt(8));
                byte[] cut = new byte[out.length - len];
                System.arraycopy(out, 0, cut, 0, at);
                System.arraycopy(out, at + len, cut, at, out.length - at - len);
                out = cut;
            }
        }
        return out;
    }

    private byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private static byte[] splice(byte[] in, int at, byte[] insert) {
        byte[] out = new byte[in.length + insert.length];
        System.arraycopy(in, 0, out, 0, at);
        System.arraycopy(insert, 0, out, at, insert.length);
        System.arraycopy(in, at, out, at + insert.length, in.length - at);
        return out;
    }
}
