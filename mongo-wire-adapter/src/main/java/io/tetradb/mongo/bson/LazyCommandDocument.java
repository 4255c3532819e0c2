package io.tetradb.mongo.bson;

import org.bson.BsonArray;
import org.bson.BsonBinaryReader;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonString;
import org.bson.BsonType;
import org.bson.BsonValue;
import org.bson.codecs.BsonValueCodec;
import org.bson.codecs.DecoderContext;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Map;
import java.util.Set;

/**
 * A command document read from its wire bytes only as far as it is used (issue 17: decoding every command into a
 * tree was ~24 % of a point find's CPU). Its top-level names are indexed once; {@link #get}, {@link #containsKey},
 * {@link #getFirstKey} and {@link #isEmpty} answer from that index and decode just the value asked for (once: the
 * same object is returned again, and kept when the document is built). Every other method builds the whole tree
 * first and then behaves exactly as the {@code BsonDocument} the codec would have decoded (a repeated name keeps its
 * first position and its last value, as the codec's {@code put} does).
 *
 * <p>The bytes must have passed {@code BsonBounds.check} (with its boolean and old-binary checks), so no value
 * decoded later can fail. Safe for the concurrent readers a running command has (currentOp lists it): until built,
 * every access holds this object's monitor.
 */
public final class LazyCommandDocument extends BsonDocument {
    private static final BsonValueCodec VALUES = new BsonValueCodec();
    private static final DecoderContext CONTEXT = DecoderContext.builder().build();

    private final byte[] bytes;
    /** Per top-level element: its name, where its value starts in {@link #bytes}, its type. */
    private final String[] names;
    private final int[] valueAt;
    private final byte[] types;
    /** Values decoded so far (or given: an OP_MSG kind-1 section), per element. */
    private final BsonValue[] values;
    private final int count;
    /** Set once the tree is built: from then on this is a plain {@code BsonDocument}. */
    private volatile boolean built;

    private LazyCommandDocument(byte[] bytes, String[] names, int[] valueAt, byte[] types, int count) {
        this.bytes = bytes;
        this.names = names;
        this.valueAt = valueAt;
        this.types = types;
        this.values = new BsonValue[names.length];
        this.count = count;
    }

    /**
     * The command in {@code bytes} (one whole BSON document, already checked by {@code BsonBounds}), with room for
     * {@code sections} more fields appended by {@link #section}.
     */
    public static LazyCommandDocument of(byte[] bytes, int sections) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int end = b.getInt(0) - 1;
        int n = 0;
        for (int p = 4; p < end; p = skipValue(b, bytes[p], skipName(bytes, p + 1))) {
            n++;
        }
        String[] names = new String[n + sections];
        int[] valueAt = new int[n + sections];
        byte[] types = new byte[n + sections];
        int i = 0;
        for (int p = 4; p < end; i++) {
            int nameEnd = skipName(bytes, p + 1) - 1;
            types[i] = bytes[p];
            names[i] = new String(bytes, p + 1, nameEnd - p - 1,
                    ascii(bytes, p + 1, nameEnd) ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
            valueAt[i] = nameEnd + 1;
            p = skipValue(b, bytes[p], nameEnd + 1);
        }
        return new LazyCommandDocument(bytes, names, valueAt, types, n);
    }

    /**
     * Appends an OP_MSG kind-1 section as the field {@code name} (before the command runs; at most as many as
     * {@link #of} made room for). A name the body already has replaces its value, as {@code put} would.
     */
    public synchronized void section(String name, BsonArray documents) {
        if (built || last(name) >= 0 || names.length == 0 || names[names.length - 1] != null) {
            build();
            super.put(name, documents);
            return;
        }
        int free = count;
        while (names[free] != null) {
            free++;
        }
        names[free] = name;
        values[free] = documents;
        types[free] = (byte) BsonType.ARRAY.getValue();
    }

    /** The names of {@code doc}'s fields in order, without building a lazy command's tree (no repeats). */
    public static Iterable<String> fieldNames(BsonDocument doc) {
        if (doc instanceof LazyCommandDocument lazy) {
            synchronized (lazy) {
                if (!lazy.built) {
                    java.util.LinkedHashSet<String> out = new java.util.LinkedHashSet<>();
                    for (String n : lazy.names) {
                        if (n != null) {
                            out.add(n);
                        }
                    }
                    return out;
                }
            }
        }
        return doc.keySet();
    }

    // ---- answered from the index ----

    @Override
    public BsonValue get(Object key) {
        if (built) {
            return super.get(key);
        }
        synchronized (this) {
            if (built) {
                return super.get(key);
            }
            int i = key instanceof String s ? last(s) : -1;
            return i < 0 ? null : value(i);
        }
    }

    @Override
    public boolean containsKey(Object key) {
        if (built) {
            return super.containsKey(key);
        }
        synchronized (this) {
            return built ? super.containsKey(key) : key instanceof String s && last(s) >= 0;
        }
    }

    @Override
    public String getFirstKey() {
        if (built) {
            return super.getFirstKey();
        }
        synchronized (this) {
            if (built) {
                return super.getFirstKey();
            }
            if (names.length == 0 || names[0] == null) {
                throw new java.util.NoSuchElementException();
            }
            return names[0];
        }
    }

    @Override
    public boolean isEmpty() {
        if (built) {
            return super.isEmpty();
        }
        synchronized (this) {
            return built ? super.isEmpty() : names.length == 0 || names[0] == null;
        }
    }

    // ---- everything else: the whole tree ----

    @Override
    public int size() {
        whole();
        return super.size();
    }

    @Override
    public boolean containsValue(Object value) {
        whole();
        return super.containsValue(value);
    }

    @Override
    public BsonValue put(String key, BsonValue value) {
        whole();
        return super.put(key, value);
    }

    @Override
    public BsonValue remove(Object key) {
        whole();
        return super.remove(key);
    }

    @Override
    public void putAll(Map<? extends String, ? extends BsonValue> m) {
        whole();
        super.putAll(m);
    }

    @Override
    public void clear() {
        whole();
        super.clear();
    }

    @Override
    public Set<String> keySet() {
        whole();
        return super.keySet();
    }

    @Override
    public Collection<BsonValue> values() {
        whole();
        return super.values();
    }

    @Override
    public Set<Map.Entry<String, BsonValue>> entrySet() {
        whole();
        return super.entrySet();
    }

    @Override
    public BsonDocument append(String key, BsonValue value) {
        whole();
        return super.append(key, value);
    }

    @Override
    public boolean equals(Object o) {
        whole();
        return super.equals(o);
    }

    @Override
    public int hashCode() {
        whole();
        return super.hashCode();
    }

    @Override
    public String toJson() {
        whole();
        return super.toJson();
    }

    @Override
    public String toJson(org.bson.json.JsonWriterSettings settings) {
        whole();
        return super.toJson(settings);
    }

    @Override
    public String toString() {
        whole();
        return super.toString();
    }

    @Override
    public BsonDocument clone() {
        whole();
        return super.clone();
    }

    @Override
    public org.bson.BsonReader asBsonReader() {
        whole();
        return super.asBsonReader();
    }

    private void whole() {
        if (!built) {
            synchronized (this) {
                build();
            }
        }
    }

    /** Builds the tree (under the monitor), reusing every value already handed out. */
    private void build() {
        if (built) {
            return;
        }
        for (int i = 0; i < names.length && names[i] != null; i++) {
            super.put(names[i], value(i));
        }
        built = true;
    }

    /** The last element named {@code name} (the codec's tree keeps the last value of a repeated name), or -1. */
    private int last(String name) {
        int found = -1;
        for (int i = 0; i < names.length && names[i] != null; i++) {
            if (names[i].equals(name)) {
                found = i;
            }
        }
        return found;
    }

    private BsonValue value(int i) {
        BsonValue v = values[i];
        if (v == null) {
            v = decode(i);
            values[i] = v;
        }
        return v;
    }

    /** Element {@code i}'s value as the codec decodes it: the usual scalars from their bytes, the rest by the codec. */
    private BsonValue decode(int i) {
        int at = valueAt[i];
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        switch (types[i]) {
            case 0x01:
                return new BsonDouble(b.getDouble(at));
            case 0x02:
                return new BsonString(new String(bytes, at + 4, b.getInt(at) - 1, StandardCharsets.UTF_8));
            case 0x08:
                return BsonBoolean.valueOf(bytes[at] != 0);
            case 0x0A:
                return BsonNull.VALUE;
            case 0x10:
                return new BsonInt32(b.getInt(at));
            case 0x12:
                return new BsonInt64(b.getLong(at));
            default:
                break;
        }
        try (BsonBinaryReader r = new BsonBinaryReader(b)) {
            r.readStartDocument();
            for (int k = 0; k < i; k++) {
                r.readBsonType();
                r.skipName();
                r.skipValue();
            }
            r.readBsonType();
            r.skipName();
            return VALUES.decode(r, CONTEXT);
        }
    }

    private static boolean ascii(byte[] a, int from, int to) {
        for (int i = from; i < to; i++) {
            if (a[i] < 0) {
                return false;
            }
        }
        return true;
    }

    /** Where the value after the name starting at {@code p} begins. */
    private static int skipName(byte[] a, int p) {
        while (a[p] != 0) {
            p++;
        }
        return p + 1;
    }

    /** Where the element after a value of {@code type} at {@code p} begins (the bytes are known to be well formed). */
    private static int skipValue(ByteBuffer b, byte type, int p) {
        return switch (type & 0xff) {
            case 0x01, 0x09, 0x11, 0x12 -> p + 8;
            case 0x07 -> p + 12;
            case 0x08 -> p + 1;
            case 0x10 -> p + 4;
            case 0x13 -> p + 16;
            case 0x06, 0x0A, 0x7F, 0xFF -> p;
            case 0x02, 0x0D, 0x0E -> p + 4 + b.getInt(p);
            case 0x0B -> skipName(b.array(), skipName(b.array(), p));
            case 0x0C -> p + 4 + b.getInt(p) + 12;
            case 0x05 -> p + 5 + b.getInt(p);
            case 0x03, 0x04, 0x0F -> p + b.getInt(p);
            default -> throw new IllegalStateException("unchecked BSON type " + type);
        };
    }

    /** Only for tests: whether the whole tree has been built. */
    boolean built() {
        return built;
    }
}
