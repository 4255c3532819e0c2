package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.item.BinaryItemReader;
import io.tetradb.core.item.ObjectFields;
import io.tetradb.core.item.StoredItems;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An item a face has already encoded in the binary item format (TB1, the user's fields: what the store keeps before
 * the system-property trailer), handed to the core instead of a tree (issue 17's tree-free write: the Cosmos face
 * encodes the request's JSON tokens, the Mongo face the BSON bytes). The core reads what it checks (id, partition
 * key, ttl) from a few top-level fields, computes index terms from the bytes, and decodes the whole tree only where
 * a tree is still needed (unique keys, expiry by date fields, face-unique indexes, graph adjacency, triggers, the
 * JSON-text item format). Immutable; the tree is decoded at most once.
 */
public final class EncodedItem {
    /**
     * The TB1 object at {@link #at}: the whole array for bytes of unknown origin, or (insert-frame, issue 17) for an
     * item {@link #of} made, a frame — {@code StoredItems.FRAME_HEADER ·} the object {@code ·} room for the usual
     * trailer — which the store finishes in place and keeps as the stored item: the writer's bytes copied once.
     */
    private final byte[] bytes;
    private final int at;
    private final int length;
    /**
     * mongo-encode: the TB1 writer noted, as it wrote them, that no top-level name is a system property's (so the
     * store need not look for one in the bytes); false when the bytes came from elsewhere.
     */
    private final boolean userFieldsOnly;
    /** insert-frame: 1 once the frame was handed to a write, which fills it in place: a second write gets a copy. */
    @SuppressWarnings("unused") // through FRAME_TAKEN
    private volatile int frameTaken;
    private volatile ObjectNode tree;

    /** @param tb1Object a TB1 object as {@link io.tetradb.core.item.BinaryItemStreamWriter} writes it */
    public EncodedItem(byte[] tb1Object) {
        this(tb1Object, 0, tb1Object.length, false);
    }

    private EncodedItem(byte[] bytes, int at, int length, boolean userFieldsOnly) {
        if (length == 0 || !StoredItems.isBinaryBody(bytes[at])) {
            throw new IllegalArgumentException("not a TB1 object");
        }
        this.bytes = bytes;
        this.at = at;
        this.length = length;
        this.userFieldsOnly = userFieldsOnly;
    }

    /**
     * The item {@code w} has just written, copied once into the frame the store keeps (insert-frame): the writer noted
     * whether a top-level name is a system property's ({@code _rid _self _etag _attachments _ts}), so the store does
     * not search the bytes for them (five lookups per item on every write) and no face has to vouch for its names
     * (mongo-encode).
     */
    public static EncodedItem of(io.tetradb.core.item.BinaryItemStreamWriter w) {
        return new EncodedItem(w.toFrame(StoredItems.FRAME_HEADER, ContainerStore.USUAL_TRAILER_ROOM),
                StoredItems.HEADER, w.size(), !w.wroteTopLevelSystemName());
    }

    /**
     * The TB1 bytes: for an item {@link #of} made, a copy (its bytes are the frame the store keeps); a caller that
     * wants only their length asks {@link #bodyLength()}.
     */
    public byte[] body() {
        return at == 0 && length == bytes.length ? bytes : Arrays.copyOfRange(bytes, at, at + length);
    }

    /** The length of the TB1 bytes (the item's size, without the store's header and system properties). */
    public int bodyLength() {
        return length;
    }

    /** The whole item as a tree (decoded once). */
    public ObjectNode tree() {
        ObjectNode t = tree;
        if (t == null) {
            t = BinaryItemReader.readObject(bytes, at);
            tree = t;
        }
        return t.deepCopy(); // callers own what they get, as they own a tree they build
    }

    /** The top-level field {@code name}, decoded, or null. */
    public JsonNode field(String name) {
        int v = BinaryItemReader.find(bytes, at, name);
        return v < 0 ? null : BinaryItemReader.read(bytes, v);
    }

    /** The item as far as a reader of the top-level fields {@code names} sees it: only those fields, decoded. */
    public ObjectNode fields(List<String> names) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        for (String name : names) {
            int v = BinaryItemReader.find(bytes, at, name);
            if (v >= 0) {
                out.set(name, BinaryItemReader.read(bytes, v));
            }
        }
        return out;
    }

    /**
     * insert-frame (issue 17): the item's id when the bytes show, without a tree, that the write's checks pass — the
     * id is a string (equal to {@code requestId} when there is one), each partition key component is absent where
     * {@code pk}'s is undefined or the same string as {@code pk}'s, and the item has no ttl of its own when
     * {@code defaultTtl} is set — else null, and the caller checks {@link #keyFields}' tree, which words a refusal
     * (a number or boolean key, an own ttl: rare, decided there exactly).
     */
    String idIfChecksPass(String requestId, PartitionKeyDefinition def, PartitionKeyValue pk, Integer defaultTtl) {
        KeyNames names = KEY_FIELDS.computeIfAbsent(def.paths(), EncodedItem::keyFields);
        long s = ObjectFields.string(bytes, BinaryItemReader.find(bytes, at, ID));
        if (s < 0 || pk.levels() != names.segments.length) {
            return null;
        }
        for (int level = 0; level < names.segments.length; level++) {
            int v = at;
            for (byte[] segment : names.segments[level]) {
                v = BinaryItemReader.find(bytes, v, segment);
                if (v < 0) {
                    break;
                }
            }
            JsonNode component = pk.components().get(level);
            if (v < 0 ? !component.isMissingNode() : !component.isTextual() || !sameString(v, component.textValue())) {
                return null;
            }
        }
        if (defaultTtl != null && BinaryItemReader.find(bytes, at, TTL) >= 0) {
            return null;
        }
        String id = ObjectFields.name(bytes, (int) (s >>> 32), (int) s);
        return requestId == null || requestId.equals(id) ? id : null;
    }

    /** Whether the value at {@code v} is the string {@code text} (ASCII compared in place, else decoded). */
    private boolean sameString(int v, String text) {
        long s = ObjectFields.string(bytes, v);
        if (s < 0) {
            return false;
        }
        int from = (int) (s >>> 32);
        int n = (int) s;
        if (n == text.length()) {
            int i = 0;
            while (i < n && bytes[from + i] >= 0) {
                if (bytes[from + i] != text.charAt(i)) {
                    return false; // equal so far as ASCII: this char differs
                }
                i++;
            }
            if (i == n) {
                return true;
            }
        }
        return ObjectFields.name(bytes, from, n).equals(text);
    }

    /**
     * The bytes the write keeps ({@code storedBody}) and {@link #of}'s frame: that frame goes to one write, which
     * fills it in place; any later write (a retried transaction) gets the body, copied as before.
     */
    private byte[] takeFrame() {
        return FRAME_TAKEN.compareAndSet(this, 0, 1) ? bytes : body();
    }

    /** Whether {@code stored} is this item's frame, finished in place by a write (for tests). */
    boolean isFrame(byte[] stored) {
        return at != 0 && stored == bytes;
    }

    private static final java.lang.invoke.VarHandle FRAME_TAKEN;

    static {
        try {
            FRAME_TAKEN = java.lang.invoke.MethodHandles.lookup().findVarHandle(EncodedItem.class, "frameTaken",
                    int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final byte[] ID = BinaryItemReader.key("id");
    private static final byte[] TTL = BinaryItemReader.key("ttl");

    /**
     * The item as the partition key and the id read it: {@code id}, {@code ttl} and the key's top-level fields.
     * Decoded once per key definition (the face and the core both read it); callers must not change it.
     */
    public ObjectNode keyFields(PartitionKeyDefinition pk) {
        KeyFields k = keyFields;
        if (k == null || !k.paths.equals(pk.paths())) {
            KeyNames names = KEY_FIELDS.computeIfAbsent(pk.paths(), EncodedItem::keyFields);
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            for (int i = 0; i < names.keys.length; i++) {
                int v = BinaryItemReader.find(bytes, at, names.keys[i]);
                if (v >= 0) {
                    out.set(names.names.get(i), BinaryItemReader.read(bytes, v));
                }
            }
            k = new KeyFields(pk.paths(), out);
            keyFields = k;
        }
        return k.fields;
    }

    private record KeyFields(List<String> paths, ObjectNode fields) {
    }

    private volatile KeyFields keyFields;

    /** Whether the item carries a system property of its own (written back after a read): the core drops those. */
    boolean hasSystemProperty() {
        if (userFieldsOnly) {
            return false;
        }
        for (byte[] p : SYSTEM_KEYS) { // their UTF-8 bytes once, not per item
            if (BinaryItemReader.find(bytes, at, p) >= 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The body the store keeps: these bytes — for an item {@link #of} made its frame, finished in place (insert-frame)
     * — unless the item carries system properties of its own (dropped, as from a tree) or the store writes JSON text
     * ({@code -Dtetradb.itemFormat=json}); then the tree's body.
     */
    byte[] storedBody(ItemCodec codec, ItemCodec.BodyWriter writer) {
        if (!codec.writesBinary() || hasSystemProperty()) {
            return writer.write(tree());
        }
        return at == 0 ? bytes : takeFrame();
    }

    private static final byte[][] SYSTEM_KEYS = ItemCodec.SYSTEM_PROPERTIES.stream().map(BinaryItemReader::key)
            .toArray(byte[][]::new);

    /** Per partition key definition: the UTF-8 names of the fields {@link #keyFields} reads. */
    private static final Map<List<String>, KeyNames> KEY_FIELDS = new ConcurrentHashMap<>();

    /** {@code segments}: per partition key level, its path's names as UTF-8 (insert-frame: read from the bytes). */
    private record KeyNames(List<String> names, byte[][] keys, byte[][][] segments) {
    }

    private static KeyNames keyFields(List<String> pkPaths) {
        List<String> names = keyFieldNames(pkPaths);
        byte[][][] segments = new byte[pkPaths.size()][][];
        for (int level = 0; level < segments.length; level++) {
            segments[level] = PartitionKeyDefinition.segments(pkPaths.get(level)).stream()
                    .map(BinaryItemReader::key).toArray(byte[][]::new);
        }
        return new KeyNames(names, names.stream().map(BinaryItemReader::key).toArray(byte[][]::new), segments);
    }

    private static List<String> keyFieldNames(List<String> pkPaths) {
        List<String> names = new ArrayList<>(List.of("id", "ttl"));
        for (String path : pkPaths) {
            String first = PartitionKeyDefinition.segments(path).get(0);
            if (!names.contains(first)) {
                names.add(first);
            }
        }
        return List.copyOf(names);
    }
}
