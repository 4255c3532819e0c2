package io.tetradb.core.item;

import com.fasterxml.jackson.databind.JsonNode;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.AbstractMap;
import java.util.Collection;
import java.util.Map;
import java.util.Set;

import static io.tetradb.core.item.BinaryItemFormat.OBJECT;

/**
 * core-read (issue 17): the fields of an object of a stored TB1 item, decoded from the item's bytes when first
 * touched — the map under an {@code ObjectNode} of a point read's tree ({@link StoredItems#parseLazily}). Until then
 * the object is its offset in the bytes; its first use decodes its own fields into an {@link ItemFields} (its nested
 * objects again as lazy ones), and every later use is that map's. {@code size()} and {@code isEmpty()} answer from the
 * format's field count without decoding (the names of one object are distinct; the item's own level adds the five
 * system properties unless a name of its own starts with '_').
 *
 * <p>Safe for concurrent readers: the decoded map is published once by compare-and-set, so threads that touch an
 * undecoded object at once may each decode it, but all of them then use the one map that won (the same nested nodes,
 * the same field order); a thread that sees the map sees it whole (a volatile read). Changes are a tree's ordinary
 * ones (not thread-safe, as Jackson's nodes are not) and go to the decoded map.
 */
final class LazyObjectFields extends AbstractMap<String, JsonNode> {
    private static final VarHandle DECODED;

    static {
        try {
            DECODED = MethodHandles.lookup().findVarHandle(LazyObjectFields.class, "decoded", ItemFields.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final byte[] b;
    /** The object's tag. */
    private final int at;
    /** Whether this is a stored item's own level: the system properties of the trailer follow its fields. */
    private final boolean item;
    /** Room for fields put after decoding (a change's {@code _lsn}). */
    private final int extra;
    private volatile ItemFields decoded;

    private LazyObjectFields(byte[] b, int at, boolean item, int extra) {
        this.b = b;
        this.at = at;
        this.item = item;
        this.extra = extra;
    }

    /** The fields of the object at {@code at} of {@code b}, nested in an item. */
    static LazyObjectFields nested(byte[] b, int at) {
        return new LazyObjectFields(b, at, false, 0);
    }

    /** The fields of a stored item (header, TB1 object, trailer), system properties included. */
    static LazyObjectFields item(byte[] stored, int extra) {
        return new LazyObjectFields(stored, StoredItems.HEADER, true, extra);
    }

    /** Whether the fields were decoded already (for tests). */
    boolean isDecoded() {
        return decoded != null;
    }

    private ItemFields fields() {
        ItemFields f = decoded;
        return f != null ? f : decode();
    }

    private ItemFields decode() {
        TreeBuilder builder = TreeBuilder.oneLevel(item ? 5 + extra : extra);
        BinaryItemWalker.read(b, at, builder);
        ItemFields f = builder.root();
        if (item) {
            StoredItems.appendTrailer(b, f);
        }
        ItemFields won = (ItemFields) DECODED.compareAndExchange(this, (ItemFields) null, f);
        return won != null ? won : f;
    }

    /** The object's own field count from its header, or -1 when only decoding tells (a name starting with '_'). */
    private int countedSize() {
        int width = b[at] == OBJECT ? 2 : 4;
        long cv = BinaryItemReader.varintAt(b, at + 5);
        int count = (int) cv;
        if (!item) {
            return count;
        }
        int tableAt = (int) (cv >>> 32);
        int entriesAt = tableAt + width * count;
        for (int i = 0; i < count; i++) {
            int keyAt = entriesAt + (width == 2 ? Bytes.u16(b, tableAt + 2 * i) : Bytes.i32(b, tableAt + 4 * i));
            long kv = BinaryItemReader.varintAt(b, keyAt);
            if ((int) kv > 0 && b[(int) (kv >>> 32)] == '_') {
                return -1; // a system property's name may be among them: decoding counts it once
            }
        }
        return count + 5;
    }

    @Override
    public int size() {
        ItemFields f = decoded;
        if (f != null) {
            return f.size();
        }
        int n = countedSize();
        return n >= 0 ? n : fields().size();
    }

    @Override
    public boolean isEmpty() {
        return size() == 0;
    }

    @Override
    public JsonNode get(Object key) {
        return fields().get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        return fields().containsKey(key);
    }

    @Override
    public boolean containsValue(Object value) {
        return fields().containsValue(value);
    }

    @Override
    public JsonNode put(String key, JsonNode value) {
        return fields().put(key, value);
    }

    @Override
    public JsonNode remove(Object key) {
        return fields().remove(key);
    }

    @Override
    public void putAll(Map<? extends String, ? extends JsonNode> m) {
        fields().putAll(m);
    }

    @Override
    public void clear() {
        fields().clear();
    }

    @Override
    public Set<String> keySet() {
        return fields().keySet();
    }

    @Override
    public Collection<JsonNode> values() {
        return fields().values();
    }

    @Override
    public Set<Map.Entry<String, JsonNode>> entrySet() {
        return fields().entrySet();
    }

    @Override
    public boolean equals(Object o) {
        return o == this || fields().equals(o);
    }

    @Override
    public int hashCode() {
        return fields().hashCode();
    }

    @Override
    public String toString() {
        return fields().toString();
    }
}
