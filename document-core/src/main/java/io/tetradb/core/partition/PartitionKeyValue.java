package io.tetradb.core.partition;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The value of a partition key: one component per level (string, number, boolean, null, or undefined when the item
 * has no value at that path — Cosmos {@code PartitionKey.NONE}). Two values are the same logical partition exactly
 * when their {@link #encoded()} bytes are equal; numbers compare as doubles, so 5 and 5.0 are one partition.
 */
public final class PartitionKeyValue {
    private static final byte UNDEFINED = 0x00;
    private static final byte NULL = 0x01;
    private static final byte FALSE = 0x02;
    private static final byte TRUE = 0x03;
    private static final byte NUMBER = 0x05;
    private static final byte STRING = 0x08;

    private final List<JsonNode> components;
    private final byte[] encoded;
    private final byte[] epk;
    /** Computed once: values are hashed per request (the throughput sketch, caches). */
    private final int hash;

    private PartitionKeyValue(List<JsonNode> components, byte[] encoded) {
        this.components = components;
        this.encoded = encoded;
        this.hash = Arrays.hashCode(encoded);
        try {
            this.epk = EffectivePartitionKey.hash(components);
        } catch (IllegalArgumentException e) {
            throw new StoreException(Status.BAD_REQUEST, "invalid partition key value " + components + ": " + e.getMessage());
        }
    }

    public static PartitionKeyValue of(List<JsonNode> components) {
        if (components.size() == 1 && components.get(0) != null && components.get(0).isTextual()) {
            String s = components.get(0).textValue();
            if (s.length() <= PartitionKeyCache.MAX_CACHED_LENGTH) { // a hot key is hashed once (PartitionKeyCache)
                PartitionKeyValue cached = PartitionKeyCache.get(s);
                if (cached == null) {
                    cached = new PartitionKeyValue(List.of(TextNode.valueOf(s)), encode(components));
                    PartitionKeyCache.put(s, cached);
                }
                return cached;
            }
        }
        List<JsonNode> copy = components.size() == 1 ? List.of(components.get(0)) : List.copyOf(components);
        return new PartitionKeyValue(copy, encode(copy));
    }

    public static PartitionKeyValue of(JsonNode... components) {
        return of(Arrays.asList(components));
    }

    /** The "none" logical partition: every level undefined. */
    public static PartitionKeyValue none(int levels) {
        if (levels < NONE.length) {
            PartitionKeyValue v = NONE[levels];
            if (v == null) {
                NONE[levels] = v = noneOf(levels); // racing threads build equal values
            }
            return v;
        }
        return noneOf(levels);
    }

    /** The "none" values of 0..3 levels, built once (every request of an unsharded Mongo collection uses one). */
    private static final PartitionKeyValue[] NONE = new PartitionKeyValue[4];

    private static PartitionKeyValue noneOf(int levels) {
        List<JsonNode> c = new ArrayList<>(levels);
        for (int i = 0; i < levels; i++) {
            c.add(MissingNode.getInstance());
        }
        return of(c);
    }

    /** A Java value (String, Number, Boolean, null) as a component. */
    public static JsonNode component(Object value) {
        if (value == null) {
            return NullNode.getInstance();
        }
        if (value instanceof String s) {
            return TextNode.valueOf(s);
        }
        if (value instanceof Number n) {
            return DoubleNode.valueOf(n.doubleValue());
        }
        if (value instanceof Boolean b) {
            return BooleanNode.valueOf(b);
        }
        if (value instanceof JsonNode n) {
            return n;
        }
        throw new StoreException(Status.BAD_REQUEST,
                "a partition key value must be a string, number, boolean or null, not " + value.getClass().getName());
    }

    public List<JsonNode> components() {
        return components;
    }

    public int levels() {
        return components.size();
    }

    public boolean isNone() {
        return components.stream().allMatch(JsonNode::isMissingNode);
    }

    /** Self-delimiting bytes of the value, used in every key of its logical partition. */
    public byte[] encoded() {
        return encoded;
    }

    /** The effective partition key (Cosmos hash V2 / MultiHash). */
    public byte[] epk() {
        return epk;
    }

    /** The value as Cosmos shows it: a JSON array with one element per level ({} for undefined). */
    public ArrayNode toJson() {
        ArrayNode array = JsonNodeFactory.instance.arrayNode();
        for (JsonNode c : components) {
            if (c.isMissingNode()) {
                array.addObject();
            } else {
                array.add(c);
            }
        }
        return array;
    }

    @Override
    public String toString() {
        return toJson().toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PartitionKeyValue other && hash == other.hash && Arrays.equals(encoded, other.encoded);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    private static byte[] encode(List<JsonNode> components) {
        if (components.size() == 1 && components.get(0) != null && components.get(0).isTextual()) {
            byte[] one = encodeString(components.get(0).textValue());
            if (one != null) {
                return one;
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(32);
        for (JsonNode c : components) {
            if (c == null || c.isMissingNode()) {
                out.write(UNDEFINED);
            } else if (c.isNull()) {
                out.write(NULL);
            } else if (c.isBoolean()) {
                out.write(c.booleanValue() ? TRUE : FALSE);
            } else if (c.isNumber()) {
                out.write(NUMBER);
                double d = c.doubleValue();
                // -0.0 and 0.0 hash differently in Cosmos, so they are different logical partitions here too
                out.writeBytes(ByteBuffer.allocate(8).putLong(Double.doubleToLongBits(d)).array());
            } else if (c.isTextual()) {
                int bad = io.tetradb.core.value.Utf16.unpairedSurrogate(c.textValue());
                if (bad >= 0) {
                    // no UTF-8 form: it would share its logical partition with every other such value
                    throw new StoreException(Status.BAD_REQUEST, "a partition key value contains an unpaired "
                            + "surrogate (at " + bad + "), which is not a character");
                }
                byte[] utf8 = c.textValue().getBytes(StandardCharsets.UTF_8);
                out.write(STRING);
                writeVarInt(out, utf8.length);
                out.writeBytes(utf8);
            } else {
                throw new StoreException(Status.BAD_REQUEST,
                        "a partition key value must be a string, number, boolean or null, not " + c);
            }
        }
        return out.toByteArray();
    }

    /**
     * The encoding of a one-level string key (the common case, built per request) in one exact array: the same bytes
     * as the general path; null for what the general path must check (a non-ASCII string, or one of 128+ chars).
     */
    private static byte[] encodeString(String s) {
        int n = s.length();
        if (n >= 0x80) {
            return null;
        }
        byte[] out = new byte[2 + n];
        out[0] = STRING;
        out[1] = (byte) n; // a varint of one byte
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                return null;
            }
            out[2 + i] = (byte) c;
        }
        return out;
    }

    /** Reads back the value from {@code bytes[offset..end)} (as written by {@link #encoded()}). */
    public static PartitionKeyValue decode(byte[] bytes, int offset, int end) {
        List<JsonNode> components = new ArrayList<>(3);
        int i = offset;
        while (i < end) {
            byte tag = bytes[i++];
            switch (tag) {
                case UNDEFINED -> components.add(MissingNode.getInstance());
                case NULL -> components.add(NullNode.getInstance());
                case FALSE -> components.add(BooleanNode.FALSE);
                case TRUE -> components.add(BooleanNode.TRUE);
                case NUMBER -> {
                    components.add(DoubleNode.valueOf(Double.longBitsToDouble(ByteBuffer.wrap(bytes, i, 8).getLong())));
                    i += 8;
                }
                case STRING -> {
                    int[] at = {i};
                    int len = readVarInt(bytes, at);
                    i = at[0];
                    components.add(TextNode.valueOf(new String(bytes, i, len, StandardCharsets.UTF_8)));
                    i += len;
                }
                default -> throw new IllegalStateException("corrupt partition key encoding, tag " + tag);
            }
        }
        return of(components);
    }

    /** Length of the encoded value at {@code bytes[offset..]} with {@code levels} components. */
    public static int encodedLength(byte[] bytes, int offset, int levels) {
        int i = offset;
        for (int level = 0; level < levels; level++) {
            byte tag = bytes[i++];
            if (tag == NUMBER) {
                i += 8;
            } else if (tag == STRING) {
                int[] at = {i};
                int len = readVarInt(bytes, at);
                i = at[0] + len;
            }
        }
        return i - offset;
    }

    /** Reads a varint at {@code at[0]} and moves {@code at[0]} past it. */
    private static int readVarInt(byte[] bytes, int[] at) {
        int v = 0;
        int shift = 0;
        int b;
        do {
            b = bytes[at[0]++] & 0xFF;
            v |= (b & 0x7F) << shift;
            shift += 7;
        } while ((b & 0x80) != 0);
        return v;
    }

    private static void writeVarInt(ByteArrayOutputStream out, int v) {
        while ((v & ~0x7F) != 0) {
            out.write((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out.write(v);
    }
}
