package io.tetradb.core.item;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Builds a Jackson tree of the core's typed nodes from a TB1 value: what {@link BinaryItemReader#read} gives, through
 * the one TB1 decoder ({@link BinaryItemWalker}) that the faces' own builders use too. The shared instances are
 * stateless; a {@link #forItem} builder serves one item.
 */
final class TreeBuilder extends ScalarNodeBuilder {
    static final TreeBuilder INSTANCE = new TreeBuilder(5);

    /** Fields put into the item (the top-level object) after it is read. */
    private final int appended;
    /** core-read: whether to keep the item's own fields ({@link #root}) for the caller appending to them. */
    private final boolean keepsRoot;
    /** core-read: whether objects below the one being built are left undecoded ({@link LazyObjectFields}). */
    private final boolean defers;
    private ItemFields root;

    private TreeBuilder(int appended) {
        this(appended, false);
    }

    private TreeBuilder(int appended, boolean keepsRoot) {
        this(appended, keepsRoot, false);
    }

    private TreeBuilder(int appended, boolean keepsRoot, boolean defers) {
        this.appended = appended;
        this.keepsRoot = keepsRoot;
        this.defers = defers;
    }

    /**
     * core-read: a builder of one object's own fields (kept as {@link #root}) whose nested objects are left undecoded,
     * each a {@link LazyObjectFields} of its own; {@code appended}: room for fields put after it is read.
     */
    static TreeBuilder oneLevel(int appended) {
        return new TreeBuilder(appended, true, true);
    }

    /**
     * core-read: a builder for one stored item that keeps its top-level fields, so the system properties are appended
     * to them without a lookup each ({@link StoredItems}); {@code change}: room for {@code _lsn} too.
     */
    static TreeBuilder forItem(boolean change) {
        return new TreeBuilder(change ? 6 : 5, true);
    }

    /** The fields of the top-level object built (kept by {@link #forItem} builders only). */
    ItemFields root() {
        return root;
    }

    @Override
    public Object startObject(int count, int depth) {
        // the item itself gets its five system properties (and a change's _lsn) put after it is read: room for them,
        // so the map never grows (growing it and its index for _lsn was a seventh of the feed processor's CPU)
        if (depth != 1) {
            return new ItemFields(count);
        }
        ItemFields fields = new ItemFields(count + appended);
        if (keepsRoot) {
            root = fields;
        }
        return fields;
    }

    @Override
    public void field(Object object, String name, JsonNode value, int depth) {
        ((ItemFields) object).append(name, value); // an object's names are distinct (BinaryItemFormat)
    }

    @Override
    public JsonNode endObject(Object object, int depth) {
        return new ObjectNode(JsonNodeFactory.instance, (ItemFields) object);
    }

    @Override
    public JsonNode deferredObject(byte[] b, int at, int depth) {
        return defers && depth > 1 ? new ObjectNode(JsonNodeFactory.instance, LazyObjectFields.nested(b, at)) : null;
    }

    @Override
    public Object startArray(int count, int depth) {
        return new ArrayNode(JsonNodeFactory.instance, count);
    }

    @Override
    public void element(Object array, JsonNode value) {
        ((ArrayNode) array).add(value);
    }

    @Override
    public JsonNode endArray(Object array) {
        return (JsonNode) array;
    }
}
