package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.item.BinaryItemReader;
import io.tetradb.core.item.StoredItems;
import io.tetradb.core.partition.PartitionKeyDefinition;

import java.util.ArrayList;
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
    private final byte[] body;
    /**
     * mongo-encode: the TB1 writer noted, as it wrote them, that no top-level name is a system property's (so the
     * store need not look for one in the bytes); false when the bytes came from elsewhere.
     */
    private final boolean userFieldsOnly;
    private volatile ObjectNode tree;

    /** @param tb1Object a TB1 object as {@link io.tetradb.core.item.BinaryItemStreamWriter} writes it */
    public EncodedItem(byte[] tb1Object) {
        this(tb1Object, false);
    }

    private EncodedItem(byte[] tb1Object, boolean userFieldsOnly) {
        if (!StoredItems.isBinaryBody(tb1Object)) {
            throw new IllegalArgumentException("not a TB1 object");
        }
        this.body = tb1Object;
        this.userFieldsOnly = userFieldsOnly;
    }

    /**
     * The item {@code w} has just written (a copy of its bytes): the writer noted whether a top-level name is a
     * system property's ({@code _rid _self _etag _attachments _ts}), so the store does not search the bytes for them
     * (five lookups per item on every write) and no face has to vouch for its names (mongo-encode).
     */
    public static EncodedItem of(io.tetradb.core.item.BinaryItemStreamWriter w) {
        return new EncodedItem(w.toByteArray(), !w.wroteTopLevelSystemName());
    }

    /** The TB1 bytes. */
    public byte[] body() {
        return body;
    }

    /** The whole item as a tree (decoded once). */
    public ObjectNode tree() {
        ObjectNode t = tree;
        if (t == null) {
            t = BinaryItemReader.readObject(body, 0);
            tree = t;
        }
        return t.deepCopy(); // callers own what they get, as they own a tree they build
    }

    /** The top-level field {@code name}, decoded, or null. */
    public JsonNode field(String name) {
        int at = BinaryItemReader.find(body, 0, name);
        return at < 0 ? null : BinaryItemReader.read(body, at);
    }

    /** The item as far as a reader of the top-level fields {@code names} sees it: only those fields, decoded. */
    public ObjectNode fields(List<String> names) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        for (String name : names) {
            int at = BinaryItemReader.find(body, 0, name);
            if (at >= 0) {
                out.set(name, BinaryItemReader.read(body, at));
            }
        }
        return out;
    }

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
                int at = BinaryItemReader.find(body, 0, names.keys[i]);
                if (at >= 0) {
                    out.set(names.names.get(i), BinaryItemReader.read(body, at));
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
            if (BinaryItemReader.find(body, 0, p) >= 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The body the store keeps: these bytes, unless the item carries system properties of its own (dropped, as from a
     * tree) or the store writes JSON text ({@code -Dtetradb.itemFormat=json}); then the tree's body.
     */
    byte[] storedBody(ItemCodec codec, ItemCodec.BodyWriter writer) {
        return codec.writesBinary() && !hasSystemProperty() ? body : writer.write(tree());
    }

    private static final byte[][] SYSTEM_KEYS = ItemCodec.SYSTEM_PROPERTIES.stream().map(BinaryItemReader::key)
            .toArray(byte[][]::new);

    /** Per partition key definition: the UTF-8 names of the fields {@link #keyFields} reads. */
    private static final Map<List<String>, KeyNames> KEY_FIELDS = new ConcurrentHashMap<>();

    private record KeyNames(List<String> names, byte[][] keys) {
    }

    private static KeyNames keyFields(List<String> pkPaths) {
        List<String> names = keyFieldNames(pkPaths);
        return new KeyNames(names, names.stream().map(BinaryItemReader::key).toArray(byte[][]::new));
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
