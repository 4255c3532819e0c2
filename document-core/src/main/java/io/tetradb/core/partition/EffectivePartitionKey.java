package io.tetradb.core.partition;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import org.apache.commons.codec.digest.MurmurHash3;

/**
 * Cosmos DB effective partition key (EPK) for hash V2 and MultiHash (hierarchical) containers.
 *
 * <p>The EPK decides which physical partition owns an item, so it has to be byte-exact with
 * what Cosmos DB and its SDKs compute: clients route by it and partition key ranges are
 * expressed in it. Each partition key component (one per level) becomes a 16-byte hash:
 *
 * <ol>
 *   <li>typed bytes: a component type marker, then the value (see {@link #typedBytes});
 *   <li>MurmurHash3 x64 128-bit, seed 0, over those bytes;
 *   <li>the 16 digest bytes reversed (Cosmos reads the digest as a little-endian UInt128 and
 *       writes it big-endian, so that EPKs sort like the 128-bit numbers);
 *   <li>the top two bits of the first byte cleared, so every EPK is below the range maximum
 *       "FF" (the SDKs say "plus one more bit, just in case").
 * </ol>
 *
 * <p>MultiHash concatenates the per-level hashes (a prefix of the levels is an EPK prefix, which
 * is what makes prefix queries on hierarchical keys a contiguous range). A single-path hash V2
 * container is the one-level case of the same thing. Legacy hash V2 over several paths (one hash
 * of all components' typed bytes concatenated) is a different scheme and is not offered here.
 *
 * <p><b>Undefined / {@code PartitionKey.NONE}.</b> An absent partition key path is the Cosmos
 * "undefined" component, marker {@code 0x00} with no payload; pass {@link
 * com.fasterxml.jackson.databind.node.MissingNode}. In the Java SDK, {@code PartitionKey.NONE}
 * carries no components and is replaced by {@code PartitionKeyDefinition.getNonePartitionKeyValue()}:
 * for a container with partition key paths that is {@code PartitionKeyInternal.UndefinedPartitionKey}
 * (one undefined component, EPK {@code 11622DAA78F835834610ABE56EFF5CB5}); only for a container
 * without paths or with a system (migrated, formerly non-partitioned) key is it the empty key,
 * whose EPK is the empty string (the minimum EPK). The .NET {@code PartitionKeyBuilder.AddNoneType()}
 * likewise puts an undefined component at that level. An empty component list therefore
 * yields an empty EPK here too.
 */
public final class EffectivePartitionKey {

    /** Bytes of one level's hash; its hex form is 32 characters. */
    public static final int LEVEL_BYTES = 16;

    // Cosmos PartitionKeyComponentType markers (the first byte hashed for each component).
    static final byte UNDEFINED = 0x00;
    static final byte NULL = 0x01;
    static final byte FALSE = 0x02;
    static final byte TRUE = 0x03;
    static final byte NUMBER = 0x05;
    static final byte STRING = 0x08;
    // Hash V2 ends a string with 0xFF (hash V1 used 0x00) so no string is a prefix of another's bytes.
    static final byte STRING_END_V2 = (byte) 0xFF;

    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    private EffectivePartitionKey() {}

    /**
     * The EPK bytes of a partition key: 16 bytes per component, in path order.
     *
     * @param components one JSON value per partition key path: {@code TextNode}, any {@code
     *     NumericNode}, {@code BooleanNode}, {@code NullNode}, or {@code MissingNode} (undefined)
     * @throws IllegalArgumentException for a component that is not a scalar JSON value
     */
    public static byte[] hash(List<JsonNode> components) {
        Objects.requireNonNull(components, "components");
        if (components.size() == 1 && components.get(0) != null && components.get(0).isTextual()) {
            return hashTypedBytes(stringBytes(components.get(0).textValue())); // the common key: one array, no copy
        }
        byte[] epk = new byte[components.size() * LEVEL_BYTES];
        for (int i = 0; i < components.size(); i++) {
            byte[] level = hashTypedBytes(typedBytes(components.get(i)));
            System.arraycopy(level, 0, epk, i * LEVEL_BYTES, LEVEL_BYTES);
        }
        return epk;
    }

    /** Upper-case hex, 32 characters per level: the string form Cosmos uses for EPKs and ranges. */
    public static String toHex(byte[] epk) {
        return HEX.formatHex(Objects.requireNonNull(epk, "epk"));
    }

    /** Parses an EPK string (either case); the empty string is the minimum EPK. */
    public static byte[] fromHex(String hex) {
        return HEX.parseHex(Objects.requireNonNull(hex, "hex"));
    }

    /**
     * The bytes Cosmos hash V2 feeds to MurmurHash3 for one component ({@code writeForHashingV2}
     * in the SDKs).
     */
    static byte[] typedBytes(JsonNode component) {
        Objects.requireNonNull(component, "component (use NullNode for null, MissingNode for undefined)");
        JsonNodeType type = component.getNodeType();
        switch (type) {
            case MISSING:
                return new byte[] {UNDEFINED};
            case NULL:
                return new byte[] {NULL};
            case BOOLEAN:
                return new byte[] {component.booleanValue() ? TRUE : FALSE};
            case NUMBER:
                return numberBytes(component.doubleValue());
            case STRING:
                return stringBytes(component.textValue());
            default:
                // Objects, arrays, binary and POJO values are not partition key values; mapping
                // them (the Java SDK maps an object at the path to undefined) is the caller's call.
                throw new IllegalArgumentException("not a partition key value: " + type);
        }
    }

    /** Hashes typed bytes into one 16-byte EPK level (reversed digest, top two bits cleared). */
    static byte[] hashTypedBytes(byte[] typedBytes) {
        byte[] level = reversedDigest(typedBytes);
        level[0] &= 0x3F;
        return level;
    }

    /**
     * MurmurHash3 x64 128 (seed 0) of the bytes, digest reversed, top bits kept. This is what
     * the SDKs' baseline files record (Cosmos {@code UInt128} printed most significant byte first).
     */
    static byte[] reversedDigest(byte[] bytes) {
        // hash128x64 returns {h1, h2}; the digest bytes are h1 then h2, each little-endian, so the
        // reversed digest is h2 then h1, each big-endian.
        long[] h = MurmurHash3.hash128x64(bytes);
        byte[] out = new byte[LEVEL_BYTES];
        for (int i = 0; i < 8; i++) {
            out[i] = (byte) (h[1] >>> (56 - 8 * i));
            out[8 + i] = (byte) (h[0] >>> (56 - 8 * i));
        }
        return out;
    }

    private static byte[] numberBytes(double value) {
        // Cosmos hashes every number as an IEEE-754 double, little-endian, raw bits (so -0.0 and 0.0
        // differ). NaN cannot come from JSON and the SDKs disagree on its bits (Java canonicalises
        // to 0x7FF8..., .NET hashes 0xFFF8...), so it is refused rather than guessed.
        if (Double.isNaN(value)) {
            throw new IllegalArgumentException("NaN is not a partition key value");
        }
        return ByteBuffer.allocate(1 + Double.BYTES)
                .order(ByteOrder.LITTLE_ENDIAN)
                .put(NUMBER)
                .putDouble(value)
                .array();
    }

    private static byte[] stringBytes(String value) {
        // Hash V2 hashes the whole UTF-8 string: unlike V1 it does not truncate at 100 characters.
        int n = value.length();
        byte[] ascii = new byte[n + 2]; // ASCII (the common key) written straight into the typed bytes
        ascii[0] = STRING;
        ascii[n + 1] = STRING_END_V2;
        int i = 0;
        for (char c; i < n && (c = value.charAt(i)) < 0x80; i++) {
            ascii[i + 1] = (byte) c;
        }
        if (i == n) {
            return ascii;
        }
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(utf8.length + 2);
        out.write(STRING);
        out.writeBytes(utf8);
        out.write(STRING_END_V2);
        return out.toByteArray();
    }
}
