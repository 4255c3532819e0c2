package io.tetradb.server.crossface;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/**
 * Random typed values a face's client can write: each face draws only the core types its own types map to
 * (document-core/README.md, "Cross-face views"), with the edge values that break mappings — Int64 beyond 2^53, NaN,
 * ±Infinity, -0.0, Decimal128 scales, dates before 1970 with 100 ns ticks, unicode strings.
 */
final class RandomTypedValues {
    enum Writer { COSMOS, MONGO, TABLES, GREMLIN }

    private static final String[] STRINGS = {"", "plain", "ünïcödé", "日本語のテキスト", "emoji 😀🚀", "a\u0301 combining",
            "quote \" and \\ backslash", "tab\tnew\nline", "{\"looks\": \"like json\"}", "[1,2]", "0", "null", "𝔘𝔫𝔦"};
    private static final double[] DOUBLES = {0.0, -0.0, 1.5, -2.25, 0.1, 1e300, -1e-300, Double.MIN_VALUE,
            Double.MAX_VALUE, 9007199254740993.0, 3.0};
    private static final long[] LONGS = {9007199254740993L, -9007199254740993L, Long.MAX_VALUE, Long.MIN_VALUE,
            (1L << 53) + 1, 5_000_000_000L, -5_000_000_000L};

    private final Random random;
    private final Writer writer;

    RandomTypedValues(Random random, Writer writer) {
        this.random = random;
        this.writer = writer;
    }

    /** The user fields of one document: {@code f0…} (a random subset), at least one. */
    Map<String, TypedValue> document() {
        Map<String, TypedValue> fields = new LinkedHashMap<>();
        int n = 1 + random.nextInt(8);
        for (int i = 0; i < n; i++) {
            fields.put("f" + random.nextInt(12), value(writer == Writer.TABLES ? 0 : 2, true));
        }
        return fields;
    }

    private TypedValue value(int depth, boolean top) {
        while (true) {
            TypedValue v = draw(random.nextInt(16), depth, top);
            if (v != null) {
                return v;
            }
        }
    }

    /** One value of kind {@code k}, or null when this writer cannot express it. */
    private TypedValue draw(int k, int depth, boolean top) {
        return switch (k) {
            case 0 -> new TypedValue.Str(string());
            case 1 -> new TypedValue.Bool(random.nextBoolean());
            case 2 -> writer == Writer.TABLES || writer == Writer.GREMLIN ? null : new TypedValue.Null();
            case 3 -> new TypedValue.Int32(random.nextBoolean() ? random.nextInt() : random.nextInt(100) - 50);
            case 4 -> new TypedValue.Int64(random.nextBoolean() ? LONGS[random.nextInt(LONGS.length)]
                    : (random.nextBoolean() ? 1 : -1) * (Integer.MAX_VALUE + 1L + (random.nextLong() >>> 2)));
            case 5 -> new TypedValue.Dbl(dbl());
            case 6 -> writer == Writer.GREMLIN ? new TypedValue.Flt(random.nextBoolean() ? 0.1f : random.nextFloat() * 1000)
                    : null;
            case 7 -> writer == Writer.MONGO || writer == Writer.GREMLIN ? new TypedValue.Dec(decimal()) : null;
            case 8 -> date();
            case 9 -> writer == Writer.COSMOS ? null
                    : new TypedValue.Binary(writer == Writer.MONGO && random.nextBoolean() ? 128 : 0, bytes());
            case 10 -> writer == Writer.COSMOS ? null : new TypedValue.Guid(new UUID(random.nextLong(), random.nextLong()));
            case 11 -> writer == Writer.MONGO ? new TypedValue.Oid(hex(12)) : null;
            case 12 -> writer == Writer.MONGO ? new TypedValue.Ts(random.nextInt() & 0xffffffffL,
                    random.nextInt() & 0xffffffffL) : null;
            case 13 -> depth == 0 ? null : array(depth);
            case 14 -> depth == 0 ? null : object(depth);
            default -> new TypedValue.Str(string());
        };
    }

    private TypedValue array(int depth) {
        List<TypedValue> items = new ArrayList<>();
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
            items.add(value(depth - 1, false));
        }
        return new TypedValue.Arr(items);
    }

    private TypedValue object(int depth) {
        Map<String, TypedValue> fields = new LinkedHashMap<>();
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
            fields.put(random.nextBoolean() ? "k" + i : "ключ" + i, value(depth - 1, false));
        }
        return new TypedValue.Obj(fields);
    }

    private String string() {
        if (random.nextInt(3) > 0) {
            return STRINGS[random.nextInt(STRINGS.length)];
        }
        StringBuilder sb = new StringBuilder();
        int n = random.nextInt(12);
        for (int i = 0; i < n; i++) {
            int cp = switch (random.nextInt(4)) {
                case 0 -> 0x20 + random.nextInt(0x5f);
                case 1 -> 0xa0 + random.nextInt(0x700);
                case 2 -> 0x4e00 + random.nextInt(0x1000);
                default -> 0x1f300 + random.nextInt(0x200);
            };
            sb.appendCodePoint(cp);
        }
        return sb.toString();
    }

    private double dbl() {
        int k = random.nextInt(6);
        if (k == 0 && writer != Writer.COSMOS) { // JSON has no NaN or infinities
            return new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}[random.nextInt(3)];
        }
        if (k == 1) {
            return DOUBLES[random.nextInt(DOUBLES.length)];
        }
        return (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(20) - 8);
    }

    private BigDecimal decimal() {
        BigInteger unscaled = new BigInteger(1 + random.nextInt(110), random);
        if (random.nextBoolean()) {
            unscaled = unscaled.negate();
        }
        return new BigDecimal(unscaled, random.nextInt(40) - 10);
    }

    private TypedValue date() {
        // 1900 … 2200, both sides of 1970
        long ms = -2_208_988_800_000L + (long) (random.nextDouble() * 9_467_280_000_000L);
        return switch (writer) {
            case COSMOS -> null; // JSON has no date type: a Cosmos client writes strings
            case MONGO -> new TypedValue.DateTime(ms * 10_000, null);
            case TABLES -> new TypedValue.DateTime(ms * 10_000 + (random.nextBoolean() ? random.nextInt(10_000) : 0),
                    null);
            case GREMLIN -> random.nextBoolean() ? new TypedValue.DateTime(ms * 10_000, null)
                    : new TypedValue.DateTime(ms * 10_000 + random.nextInt(10_000),
                    random.nextBoolean() ? 0 : (random.nextInt(57) - 28) * 900);
        };
    }

    private byte[] bytes() {
        byte[] b = new byte[random.nextInt(20)];
        random.nextBytes(b);
        return b;
    }

    private String hex(int bytes) {
        byte[] b = new byte[bytes];
        random.nextBytes(b);
        return java.util.HexFormat.of().formatHex(b);
    }
}
