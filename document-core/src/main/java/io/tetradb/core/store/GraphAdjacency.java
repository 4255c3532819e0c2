package io.tetradb.core.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.WriteSet;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The adjacency of a graph container: for every edge item (Azure Cosmos DB's Gremlin layout: {@code _isEdge: true},
 * source {@code _vertexId/_vertexLabel} in the edge's own logical partition, target
 * {@code _sink/_sinkLabel/_sinkPartition}), one entry under its source vertex and one under its target:
 * <pre>
 * ADJACENCY collId · EPK(v) · pk(v) · esc(vertexId) · dir(1) · esc(label) · pk(other) · esc(otherId) · esc(edgeId)
 *           → flag(1) · esc(otherLabel) · [edge properties as JSON, when flag is 1]
 * </pre>
 * so a vertex's edges, per direction and label, are one key-range scan that never reads an edge item. The entries are
 * derived from the edge items alone and written in the same {@link WriteSet} as the item (whatever face wrote it),
 * so they are exactly as durable and atomic as the item. The core knows nothing of TinkerPop: only these field
 * names. A container has adjacency once {@link ContainerStore#enableGraphAdjacency()} was called (a durable mark).
 * {@code esc} escapes 0x00 as 0x00 0xFF and ends with 0x00 0x01, so strings are self-delimiting.
 */
public final class GraphAdjacency {
    public static final byte OUT = 1;
    public static final byte IN = 2;
    /** Edge properties longer than this (as JSON) are not copied into the entries: readers then read the edge. */
    static final int MAX_CARRIED_PROPERTY_BYTES = 512;
    /** META · 'G' · collId → the durable mark of a container with adjacency. */
    private static final byte META_MARK = 0x47;

    static final String IS_EDGE = "_isEdge";
    static final String VERTEX_ID = "_vertexId";
    static final String VERTEX_LABEL = "_vertexLabel";
    static final String SINK = "_sink";
    static final String SINK_LABEL = "_sinkLabel";
    static final String SINK_PARTITION = "_sinkPartition";
    static final byte[] IS_EDGE_BYTES = IS_EDGE.getBytes(StandardCharsets.UTF_8);
    private static final byte[] ID_BYTES = "id".getBytes(StandardCharsets.UTF_8);
    private static final byte[] LABEL_BYTES = "label".getBytes(StandardCharsets.UTF_8);
    private static final byte[] VERTEX_ID_BYTES = VERTEX_ID.getBytes(StandardCharsets.UTF_8);
    private static final byte[] VERTEX_LABEL_BYTES = VERTEX_LABEL.getBytes(StandardCharsets.UTF_8);
    private static final byte[] SINK_BYTES = SINK.getBytes(StandardCharsets.UTF_8);
    private static final byte[] SINK_LABEL_BYTES = SINK_LABEL.getBytes(StandardCharsets.UTF_8);
    private static final byte[] SINK_PARTITION_BYTES = SINK_PARTITION.getBytes(StandardCharsets.UTF_8);
    private static final Set<String> NOT_PROPERTIES = Set.of("id", "label", IS_EDGE, VERTEX_ID, VERTEX_LABEL, SINK,
            SINK_LABEL, SINK_PARTITION, "_rid", "_self", "_etag", "_attachments", "_ts", "_lsn");
    /** The same names as UTF-8, so an encoded edge's fields are told apart without decoding each name (graph-load). */
    private static final byte[][] NOT_PROPERTY_BYTES = NOT_PROPERTIES.stream()
            .map(n -> n.getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new);

    private final ContainerStore container;
    private final CoreStore store;
    private final byte[] collId;

    GraphAdjacency(ContainerStore container, CoreStore store) {
        this.container = container;
        this.store = store;
        this.collId = Keys.collId(container.collId());
    }

    static byte[] metaKey(int collId) {
        return Keys.withByte(META_MARK, Keys.collId(collId));
    }

    /**
     * One adjacency entry as a reader sees it. Its parts are read from the key and value bytes when first asked for
     * (a hop to vertices never builds the edge id or the properties).
     */
    public static final class Entry {
        private final byte[] key;
        private final byte[] value;
        private final int labelAt;
        private final int pkAt;
        private final int pkEnd;
        private final int otherIdAt;
        private final int edgeIdAt;
        private final Strings strings;
        private String label;
        private JsonNode otherPk;
        private String otherId;
        private String edgeId;
        private String otherLabel;

        private Entry(byte[] key, int at, byte[] value, Strings strings) {
            this.key = key;
            this.value = value;
            this.strings = strings;
            this.labelAt = at + 1;
            this.pkAt = skipEscaped(key, labelAt);
            this.pkEnd = pkAt + PartitionKeyValue.encodedLength(key, pkAt, 1);
            this.otherIdAt = pkEnd;
            this.edgeIdAt = skipEscaped(key, otherIdAt);
        }

        /** {@link #OUT} or {@link #IN}. */
        public byte direction() {
            return key[labelAt - 1];
        }

        public String label() {
            if (label == null) {
                label = strings.label(key, labelAt);
            }
            return label;
        }

        /** The other vertex's partition key value (a string, number or boolean node). */
        public JsonNode otherPk() {
            if (otherPk == null) {
                otherPk = component(key, pkAt, pkEnd);
            }
            return otherPk;
        }

        public String otherId() {
            if (otherId == null) {
                otherId = unescape(key, new int[]{otherIdAt});
            }
            return otherId;
        }

        public String edgeId() {
            if (edgeId == null) {
                edgeId = unescape(key, new int[]{edgeIdAt});
            }
            return edgeId;
        }

        public String otherLabel() {
            if (otherLabel == null) {
                otherLabel = strings.label(value, 1);
            }
            return otherLabel;
        }

        /**
         * The edge's properties ({@code {}} as no bytes) as JSON, or as TB1 ({@link io.tetradb.core.item}) when they
         * hold typed values JSON does not keep (first byte not '{'); null when the entry does not carry them.
         */
        public byte[] properties() {
            if (value[0] != 1) {
                return null;
            }
            int from = skipEscaped(value, 1);
            return Arrays.copyOfRange(value, from, value.length);
        }
    }

    /** Labels decoded during one scan: a vertex's entries repeat a few labels, so each is built once. */
    private static final class Strings {
        private byte[] lastBytes;
        private int lastFrom;
        private int lastLength = -1;
        private String last;
        private byte[] otherBytes;
        private int otherFrom;
        private int otherLength = -1;
        private String other;

        String label(byte[] b, int from) {
            int end = skipEscaped(b, from) - 2;
            int length = end - from;
            if (length == lastLength && Arrays.equals(b, from, end, lastBytes, lastFrom, lastFrom + length)) {
                return last;
            }
            if (length == otherLength && Arrays.equals(b, from, end, otherBytes, otherFrom, otherFrom + length)) {
                return other;
            }
            String s = unescape(b, new int[]{from});
            otherBytes = lastBytes;
            otherFrom = lastFrom;
            otherLength = lastLength;
            other = last;
            lastBytes = b;
            lastFrom = from;
            lastLength = length;
            last = s;
            return s;
        }
    }

    /** The index just past the escaped string at {@code at} (past its terminator). */
    static int skipEscaped(byte[] b, int at) {
        int i = at;
        while (true) {
            if (b[i] == 0) {
                if (b[i + 1] == 1) {
                    return i + 2;
                }
                i += 2;
            } else {
                i++;
            }
        }
    }

    // ---- writing ------------------------------------------------------------------------------------------------

    /**
     * Adds to {@code ws} the entry changes from one stored version of an item of partition {@code pk} to the next.
     * {@code nowTree}, when not null, is the tree {@code now} was stored from (the writer's own, with the values
     * the index entries were computed from): the entries are derived from it instead of parsing {@code now} again.
     */
    void addWrites(PartitionKeyValue pk, byte[] old, byte[] now, ObjectNode nowTree, WriteSet ws) {
        addWrites(pk, old, now, nowTree, ws, null);
    }

    /**
     * As above; {@code touched} (may be null) receives {@link #vertexDirection} of every entry put or deleted, so the
     * transaction can bump the write stamps of the adjacency lists it changed ({@link WriteStamps#adjacencyStamp}).
     */
    void addWrites(PartitionKeyValue pk, byte[] old, byte[] now, ObjectNode nowTree, WriteSet ws,
                   java.util.function.IntConsumer touched) {
        if (old == null && nowTree != null) { // a new item (a bulk load's edges): nothing to remove, compare or hash
            forEachEntry(pk, nowTree, (k, v) -> put(pk, k, v, ws, touched));
            return;
        }
        if (old == null && now != null && io.tetradb.core.item.StoredItems.isBinary(now)) { // a new encoded item
            forEachEntry(pk, now, (k, v) -> put(pk, k, v, ws, touched));
            return;
        }
        Map<ByteBuffer, byte[]> is = nowTree != null ? entriesOf(pk, nowTree) : entriesOf(pk, now);
        Map<ByteBuffer, byte[]> was = entriesOf(pk, old);
        if (was.isEmpty() && is.isEmpty()) {
            return;
        }
        for (ByteBuffer k : was.keySet()) {
            if (!is.containsKey(k)) {
                ws.delete(Space.ADJACENCY, k.array());
                if (touched != null) {
                    touched.accept(vertexDirection(pk, k.array()));
                }
            }
        }
        for (Map.Entry<ByteBuffer, byte[]> e : is.entrySet()) {
            if (!Arrays.equals(was.get(e.getKey()), e.getValue())) {
                put(pk, e.getKey().array(), e.getValue(), ws, touched);
            }
        }
    }

    private void put(PartitionKeyValue pk, byte[] key, byte[] value, WriteSet ws, java.util.function.IntConsumer touched) {
        ws.put(Space.ADJACENCY, key, value);
        if (touched != null) {
            touched.accept(vertexDirection(pk, key));
        }
    }

    /**
     * Which adjacency list an entry key belongs to — its vertex and direction — as a hash of the key's
     * {@code EPK · pk · esc(vertexId) · dir} part (the prefix {@link #scan} seeks): the stripe of its write stamp.
     * {@code edgePk}: the writing edge's partition, whose number of levels every partition key of the container shares.
     */
    private int vertexDirection(PartitionKeyValue edgePk, byte[] key) {
        int from = collId.length;
        int i = from + edgePk.epk().length;
        i += PartitionKeyValue.encodedLength(key, i, edgePk.components().size());
        while (key[i] != 0 || key[i + 1] != 1) {
            i += key[i] == 0 ? 2 : 1; // an escaped zero is 0x00 0xFF
        }
        return hash(HASH_SEED, key, from, i + 3); // the terminator 0x00 0x01 and the direction
    }

    /** {@link #vertexDirection(PartitionKeyValue, byte[])} of the list a reader asks for: the same bytes, hashed. */
    public int vertexDirection(PartitionKeyValue vertexPk, String vertexId, byte dir) {
        int h = hash(HASH_SEED, vertexPk.epk(), 0, vertexPk.epk().length);
        h = hash(h, vertexPk.encoded(), 0, vertexPk.encoded().length);
        int ascii = h;
        boolean plain = true; // ASCII without NUL: its UTF-8 bytes are its chars, nothing escaped, no array made
        for (int i = 0; plain && i < vertexId.length(); i++) {
            char c = vertexId.charAt(i);
            plain = c > 0 && c < 0x80;
            ascii = 31 * ascii + c;
        }
        if (plain) {
            h = 31 * (31 * ascii) + 1; // the terminator 0x00 0x01
        } else {
            byte[] id = escaped(vertexId);
            h = hash(h, id, 0, id.length);
        }
        return 31 * h + dir;
    }

    private static final int HASH_SEED = 1;

    private static int hash(int h, byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            h = 31 * h + b[i];
        }
        return h;
    }

    private Map<ByteBuffer, byte[]> entriesOf(PartitionKeyValue pk, byte[] stored) {
        if (stored == null
                || TopLevelFields.has(stored, ItemCodec.HEADER, IS_EDGE_BYTES) == TopLevelFields.Presence.ABSENT) {
            return Map.of(); // not an edge: no parse
        }
        if (io.tetradb.core.item.StoredItems.isBinary(stored)) { // read from the bytes: no tree of the item
            Map<ByteBuffer, byte[]> out = new HashMap<>(4);
            forEachEntry(pk, stored, (k, v) -> out.put(ByteBuffer.wrap(k), v));
            return out;
        }
        return entriesOf(pk, store.codec().parse(stored));
    }

    /**
     * As {@link #forEachEntry(PartitionKeyValue, ObjectNode, java.util.function.BiConsumer)} for a binary stored
     * version (TB1): the layout's fields are found through the item's field table and only they, and the edge's own
     * properties, are decoded. An item written as encoded bytes (a bulk load's edges) gets its entries without a tree.
     */
    private void forEachEntry(PartitionKeyValue pk, byte[] stored, java.util.function.BiConsumer<byte[], byte[]> sink) {
        int base = io.tetradb.core.item.StoredItems.HEADER;
        int isEdgeAt = io.tetradb.core.item.BinaryItemReader.find(stored, base, IS_EDGE_BYTES);
        if (!io.tetradb.core.item.ObjectFields.isTrue(stored, isEdgeAt) || pk.levels() != 1) {
            forEachEntryOfNodes(pk, stored, sink); // not an edge, or an unusual one: as the tree reads it
            return;
        }
        // the usual edge: its strings escaped straight from their UTF-8 bytes, no String or node made
        byte[] edgeId = escapedString(stored, base, ID_BYTES);
        byte[] edgeLabel = escapedString(stored, base, LABEL_BYTES);
        byte[] sourceId = escapedString(stored, base, VERTEX_ID_BYTES);
        byte[] sinkId = escapedString(stored, base, SINK_BYTES);
        byte[] sinkLabel = escapedLabel(stored, base, SINK_LABEL_BYTES);
        byte[] vertexLabel = escapedLabel(stored, base, VERTEX_LABEL_BYTES);
        JsonNode sinkPartition = field(stored, base, SINK_PARTITION_BYTES);
        if (edgeId == null || edgeLabel == null || sourceId == null || sinkId == null || sinkLabel == null
                || vertexLabel == null || sinkPartition == null || !sinkPartition.isValueNode() || sinkPartition.isNull()) {
            forEachEntryOfNodes(pk, stored, sink);
            return;
        }
        PartitionKeyValue targetPk;
        try {
            targetPk = PartitionKeyValue.of(sinkPartition);
        } catch (StoreException e) {
            return;
        }
        byte[] props = properties(stored, base);
        sink.accept(key(pk, sourceId, OUT, edgeLabel, targetPk, sinkId, edgeId), value(sinkLabel, props));
        sink.accept(key(targetPk, sinkId, IN, edgeLabel, pk, sourceId, edgeId), value(vertexLabel, props));
    }

    /**
     * A top-level string field as {@link #escaped(String)} gives it, from its TB1 bytes; null when absent, not a
     * string, or holding a byte 0xED (a lone surrogate's form, which String's UTF-8 encoding would replace).
     */
    private static byte[] escapedString(byte[] b, int base, byte[] name) {
        long s = io.tetradb.core.item.ObjectFields.string(b, io.tetradb.core.item.BinaryItemReader.find(b, base, name));
        if (s < 0) {
            return null;
        }
        int from = (int) (s >>> 32);
        int length = (int) s;
        int zeros = 0;
        for (int i = from; i < from + length; i++) {
            if (b[i] == 0) {
                zeros++;
            } else if (b[i] == (byte) 0xED) {
                return null;
            }
        }
        byte[] out = new byte[length + zeros + 2];
        if (zeros == 0) {
            System.arraycopy(b, from, out, 0, length);
        } else {
            int j = 0;
            for (int i = from; i < from + length; i++) {
                out[j++] = b[i];
                if (b[i] == 0) {
                    out[j++] = (byte) 0xFF;
                }
            }
        }
        out[out.length - 2] = 0;
        out[out.length - 1] = 1;
        return out;
    }

    /** A label field of the entry's value ({@code asText("")} of the tree path): absent is "", not a string null. */
    private static byte[] escapedLabel(byte[] b, int base, byte[] name) {
        int at = io.tetradb.core.item.BinaryItemReader.find(b, base, name);
        return at < 0 ? escaped("") : escapedString(b, base, name);
    }

    /** The entries of a binary stored version read through decoded fields (the general case of the fast path). */
    private void forEachEntryOfNodes(PartitionKeyValue pk, byte[] stored,
                                     java.util.function.BiConsumer<byte[], byte[]> sink) {
        int base = io.tetradb.core.item.StoredItems.HEADER;
        JsonNode isEdge = field(stored, base, IS_EDGE_BYTES);
        if (isEdge == null || !isEdge.asBoolean(false) || pk.levels() != 1) {
            return;
        }
        forEachEntry(pk, field(stored, base, ID_BYTES), field(stored, base, LABEL_BYTES),
                field(stored, base, VERTEX_ID_BYTES), field(stored, base, SINK_BYTES),
                field(stored, base, SINK_PARTITION_BYTES), field(stored, base, SINK_LABEL_BYTES),
                field(stored, base, VERTEX_LABEL_BYTES), () -> properties(stored, base), sink);
    }

    private static JsonNode field(byte[] b, int base, byte[] name) {
        int at = io.tetradb.core.item.BinaryItemReader.find(b, base, name);
        return at < 0 ? null : io.tetradb.core.item.BinaryItemReader.read(b, at);
    }

    /** The edge's own properties from its TB1 bytes: every field but the layout's and the partition key's. */
    private byte[] properties(byte[] stored, int base) {
        byte[] pkField = partitionKeyFieldBytes();
        // graph-load3: plain values (an air-routes edge's dist) as JSON straight from the bytes, the same text the
        // tree below gives, without its tree, map and generator per edge
        byte[] plain = io.tetradb.core.item.PlainJsonFields.of(stored, base,
                (b, from, length) -> !named(b, from, length, pkField) && !notProperty(b, from, length),
                MAX_CARRIED_PROPERTY_BYTES);
        if (plain != null) {
            return plain;
        }
        ObjectNode props = store.codec().mapper().createObjectNode();
        io.tetradb.core.item.ObjectFields.forEach(stored, base, (b, from, length, valueAt) -> {
            if (!named(b, from, length, pkField) && !notProperty(b, from, length)) { // only properties' names decoded
                props.set(io.tetradb.core.item.ObjectFields.name(b, from, length),
                        io.tetradb.core.item.BinaryItemReader.read(b, valueAt));
            }
        });
        return carried(props);
    }

    /** The two entries (key → value) of an edge item stored in partition {@code pk}; none for any other item. */
    Map<ByteBuffer, byte[]> entriesOf(PartitionKeyValue pk, ObjectNode item) {
        Map<ByteBuffer, byte[]> out = new HashMap<>(4);
        forEachEntry(pk, item, (k, v) -> out.put(ByteBuffer.wrap(k), v));
        return out;
    }

    /** Gives {@code sink} the two entries (key, value) of an edge item stored in partition {@code pk}; none else. */
    private void forEachEntry(PartitionKeyValue pk, ObjectNode item, java.util.function.BiConsumer<byte[], byte[]> sink) {
        if (!item.path(IS_EDGE).asBoolean(false) || pk.levels() != 1) {
            return;
        }
        forEachEntry(pk, item.get("id"), item.get("label"), item.get(VERTEX_ID), item.get(SINK),
                item.get(SINK_PARTITION), item.path(SINK_LABEL), item.path(VERTEX_LABEL), () -> properties(item), sink);
    }

    /** The two entries of an edge from its layout's fields (null when absent); its properties asked for last. */
    private void forEachEntry(PartitionKeyValue pk, JsonNode id, JsonNode label, JsonNode source, JsonNode target,
                              JsonNode sinkPartition, JsonNode sinkLabel, JsonNode vertexLabel,
                              java.util.function.Supplier<byte[]> properties,
                              java.util.function.BiConsumer<byte[], byte[]> sink) {
        if (!textual(id) || !textual(label) || !textual(source) || !textual(target) || sinkPartition == null
                || !sinkPartition.isValueNode() || sinkPartition.isNull()) {
            return; // not a well-formed edge: the graph does not see it as one either
        }
        PartitionKeyValue targetPk;
        try {
            targetPk = PartitionKeyValue.of(sinkPartition);
        } catch (StoreException e) {
            return;
        }
        byte[] props = properties.get();
        // each string escaped once for both keys
        byte[] edgeId = escaped(id.textValue());
        byte[] edgeLabel = escaped(label.textValue());
        byte[] sourceId = escaped(source.textValue());
        byte[] sinkId = escaped(target.textValue());
        sink.accept(key(pk, sourceId, OUT, edgeLabel, targetPk, sinkId, edgeId),
                value(sinkLabel == null ? "" : sinkLabel.asText(""), props));
        sink.accept(key(targetPk, sinkId, IN, edgeLabel, pk, sourceId, edgeId),
                value(vertexLabel == null ? "" : vertexLabel.asText(""), props));
    }

    private static boolean textual(JsonNode n) {
        return n != null && n.isTextual();
    }

    /** The edge's own properties as JSON (null when longer than {@link #MAX_CARRIED_PROPERTY_BYTES}). */
    private byte[] properties(ObjectNode item) {
        ObjectNode props = store.codec().mapper().createObjectNode();
        String pkField = partitionKeyField();
        for (Iterator<Map.Entry<String, JsonNode>> it = item.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (!NOT_PROPERTIES.contains(f.getKey()) && !f.getKey().equals(pkField)) {
                props.set(f.getKey(), f.getValue());
            }
        }
        return carried(props);
    }

    /** Properties as an entry carries them: JSON, or TB1 when JSON would not keep their types; null when too long. */
    private byte[] carried(ObjectNode props) {
        if (props.isEmpty()) {
            return new byte[0];
        }
        try {
            // typed values JSON would not give back (Int64, Float, dates, ...) are carried in TB1, whose first byte
            // (an object tag, 0x20/0x21) tells readers apart from JSON's '{'; plain JSON stays JSON
            byte[] bytes = JsonFaithful.holds(props) ? store.codec().mapper().writeValueAsBytes(props)
                    : io.tetradb.core.item.BinaryItemWriter.encode(props);
            return bytes.length <= MAX_CARRIED_PROPERTY_BYTES ? bytes : null;
        } catch (JsonProcessingException | IllegalArgumentException e) {
            return null;
        }
    }

    /** Whether a tree reads back from its JSON text as the same nodes (Int32, Int64 beyond Int32, finite Double). */
    static final class JsonFaithful {
        private JsonFaithful() {
        }

        static boolean holds(JsonNode v) {
            if (v.isContainerNode()) {
                for (JsonNode e : v) {
                    if (!holds(e)) {
                        return false;
                    }
                }
                return true;
            }
            if (v.isTextual() || v.isBoolean() || v.isNull() || v.isInt()) {
                return true;
            }
            if (v.isLong()) {
                return !v.canConvertToInt();
            }
            return v.isDouble() && Double.isFinite(v.doubleValue());
        }
    }

    private static boolean notProperty(byte[] b, int from, int length) {
        for (byte[] name : NOT_PROPERTY_BYTES) {
            if (named(b, from, length, name)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the field name at {@code b[from, from + length)} is {@code name} (UTF-8). */
    private static boolean named(byte[] b, int from, int length, byte[] name) {
        return length == name.length && java.util.Arrays.equals(b, from, from + length, name, 0, length);
    }

    private String partitionKeyField() {
        String path = container.definition().partitionKey().paths().get(0);
        return path.substring(1);
    }

    /** The partition key field's name as UTF-8, made once per definition's path (graph-load3: not once per edge). */
    private byte[] partitionKeyFieldBytes() {
        String path = container.definition().partitionKey().paths().get(0);
        PkField f = pkField;
        if (f == null || f.path() != path) {
            f = new PkField(path, path.substring(1).getBytes(StandardCharsets.UTF_8));
            pkField = f;
        }
        return f.name();
    }

    private record PkField(String path, byte[] name) {
    }

    private volatile PkField pkField;

    /** An entry's key from its parts, the strings already {@link #escaped}. */
    private byte[] key(PartitionKeyValue vertexPk, byte[] vertexId, byte dir, byte[] label, PartitionKeyValue otherPk,
                       byte[] otherId, byte[] edgeId) {
        byte[] epk = vertexPk.epk();
        byte[] pk = vertexPk.encoded();
        byte[] other = otherPk.encoded();
        byte[] key = new byte[collId.length + epk.length + pk.length + vertexId.length + 1 + label.length
                + other.length + otherId.length + edgeId.length];
        int at = put(key, 0, collId);
        at = put(key, at, epk);
        at = put(key, at, pk);
        at = put(key, at, vertexId);
        key[at++] = dir;
        at = put(key, at, label);
        at = put(key, at, other);
        at = put(key, at, otherId);
        put(key, at, edgeId);
        return key;
    }

    private static int put(byte[] to, int at, byte[] part) {
        System.arraycopy(part, 0, to, at, part.length);
        return at + part.length;
    }

    /** {@code s} as {@link #escape} writes it. */
    static byte[] escaped(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        int zeros = 0;
        for (byte x : b) {
            if (x == 0) {
                zeros++;
            }
        }
        byte[] out = new byte[b.length + zeros + 2];
        if (zeros == 0) {
            System.arraycopy(b, 0, out, 0, b.length);
        } else {
            int j = 0;
            for (byte x : b) {
                out[j++] = x;
                if (x == 0) {
                    out[j++] = (byte) 0xFF;
                }
            }
        }
        out[out.length - 2] = 0;
        out[out.length - 1] = 1;
        return out;
    }

    /** As {@link #value(String, byte[])} with the label already {@link #escaped}. */
    private static byte[] value(byte[] escapedLabel, byte[] props) {
        byte[] out = new byte[1 + escapedLabel.length + (props == null ? 0 : props.length)];
        out[0] = (byte) (props == null ? 0 : 1);
        System.arraycopy(escapedLabel, 0, out, 1, escapedLabel.length);
        if (props != null) {
            System.arraycopy(props, 0, out, 1 + escapedLabel.length, props.length);
        }
        return out;
    }

    private static byte[] value(String otherLabel, byte[] props) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(32 + (props == null ? 0 : props.length));
        out.write(props == null ? 0 : 1);
        escape(out, otherLabel);
        if (props != null) {
            out.writeBytes(props);
        }
        return out.toByteArray();
    }

    static void escape(ByteArrayOutputStream out, String s) {
        out.writeBytes(escaped(s)); // one bulk write: ByteArrayOutputStream.write(int) synchronises per byte
    }

    /** Reads an escaped string at {@code at[0]}, moving {@code at[0]} past its terminator. */
    static String unescape(byte[] b, int[] at) {
        int start = at[0];
        int i = start;
        boolean escaped = false;
        while (true) {
            if (b[i] == 0) {
                if (b[i + 1] == 1) {
                    break;
                }
                escaped = true;
                i += 2;
            } else {
                i++;
            }
        }
        at[0] = i + 2;
        if (!escaped) {
            return new String(b, start, i - start, StandardCharsets.UTF_8);
        }
        ByteArrayOutputStream raw = new ByteArrayOutputStream(i - start);
        for (int j = start; j < i; j++) {
            raw.write(b[j]);
            if (b[j] == 0) {
                j++; // the 0xFF after an escaped zero
            }
        }
        return raw.toString(StandardCharsets.UTF_8);
    }

    // ---- reading ------------------------------------------------------------------------------------------------

    private byte[] prefix(PartitionKeyValue vertexPk, String vertexId, byte dir, String label) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64);
        out.writeBytes(collId);
        out.writeBytes(vertexPk.epk());
        out.writeBytes(vertexPk.encoded());
        escape(out, vertexId);
        if (dir != 0) {
            out.write(dir);
            if (label != null) {
                escape(out, label);
            }
        }
        return out.toByteArray();
    }

    /**
     * Visits a vertex's entries in key order (direction, label, other vertex, edge id) until the visitor returns
     * false. {@code dir} 0: both directions; {@code label} null: every label (only with a direction).
     */
    public void scan(PartitionKeyValue vertexPk, String vertexId, byte dir, String label, Predicate<Entry> visitor) {
        byte[] from = prefix(vertexPk, vertexId, dir, label);
        int vertexEnd = prefix(vertexPk, vertexId, (byte) 0, null).length;
        Strings strings = new Strings();
        scanRange(vertexPk, vertexId, dir, from, Keys.prefixEnd(from),
                kv -> visitor.test(new Entry(kv.key(), vertexEnd, kv.value(), strings)));
    }

    /** The embedded engine's range, or through the storage contracts (AdjacencyContractPath) on another engine. */
    private void scanRange(PartitionKeyValue vertexPk, String vertexId, byte dir, byte[] from, byte[] to,
                           Predicate<io.tetradb.core.storage.KeyValue> visitor) {
        if (container.reads().embedded()) {
            store.engine().scan(Space.ADJACENCY, from, to, visitor);
            return;
        }
        AdjacencyContractPath.scan(container.reads(), Keys.concat(collId, vertexPk.epk(), vertexPk.encoded()),
                prefix(vertexPk, vertexId, (byte) 0, null), dir, from, to, visitor);
    }

    /** How many entries {@link #scan} would visit, without decoding them. */
    public long count(PartitionKeyValue vertexPk, String vertexId, byte dir, String label) {
        byte[] from = prefix(vertexPk, vertexId, dir, label);
        long[] n = {0};
        scanRange(vertexPk, vertexId, dir, from, Keys.prefixEnd(from), kv -> {
            n[0]++;
            return true;
        });
        return n[0];
    }

    /**
     * One partition key component from its encoding ({@link PartitionKeyValue#encoded()}): strings and numbers read
     * here, without building a PartitionKeyValue (which hashes its EPK: a third of an entry's decoding); other
     * values through PartitionKeyValue.
     */
    private static JsonNode component(byte[] b, int from, int end) {
        if (b[from] == 0x08) { // string: varint length, UTF-8
            int i = from + 1;
            int len = 0;
            for (int shift = 0; ; shift += 7) {
                int x = b[i++] & 0xFF;
                len |= (x & 0x7F) << shift;
                if (x < 0x80) {
                    break;
                }
            }
            if (i + len == end) {
                return com.fasterxml.jackson.databind.node.TextNode.valueOf(
                        new String(b, i, len, StandardCharsets.UTF_8));
            }
        }
        return PartitionKeyValue.decode(b, from, end).components().get(0);
    }

    // ---- checking and rebuilding ---------------------------------------------------------------------------------

    /** What {@link #check()} found: entries the edge items call for, entries stored, and the differences. */
    public record Check(long expected, long stored, long missing, long extra, long differing) {
        public boolean consistent() {
            return missing == 0 && extra == 0 && differing == 0;
        }
    }

    private Map<ByteBuffer, byte[]> expected() {
        Map<ByteBuffer, byte[]> expected = new HashMap<>();
        byte[] end = Keys.collId(container.collId() + 1);
        Predicate<io.tetradb.core.storage.KeyValue> edge = kv -> {
            if (TopLevelFields.has(kv.value(), ItemCodec.HEADER, IS_EDGE_BYTES) != TopLevelFields.Presence.ABSENT) {
                ObjectNode item = store.codec().parse(kv.value());
                expected.putAll(entriesOf(container.partitionKeyOf(item), item));
            }
            return true;
        };
        if (container.reads().embedded()) {
            store.engine().scan(Space.DOCS, collId, end, edge);
        } else {
            container.reads().scanItems(collId, end, edge);
        }
        return expected;
    }

    /**
     * Recomputes every edge's entries from the items and compares them with the stored ones (for tests, operators
     * and after crashes; it reads the whole container, so run it when no one writes).
     */
    public Check check() {
        Map<ByteBuffer, byte[]> expected = expected();
        long[] n = {0, 0, 0};
        byte[] end = Keys.collId(container.collId() + 1);
        Predicate<io.tetradb.core.storage.KeyValue> count = kv -> {
            n[0]++;
            byte[] want = expected.get(ByteBuffer.wrap(kv.key()));
            if (want == null) {
                n[1]++;
            } else if (!Arrays.equals(want, kv.value())) {
                n[2]++;
            }
            return true;
        };
        if (container.reads().embedded()) {
            store.engine().scan(Space.ADJACENCY, collId, end, count);
        } else {
            container.reads().scanContainerDerived(container.collId(), Space.ADJACENCY, collId, end, count);
        }
        long present = n[0] - n[1];
        return new Check(expected.size(), n[0], expected.size() - present, n[1], n[2]);
    }

    /** Replaces every entry by the ones the items call for; the caller keeps writers out. */
    void rebuild() {
        if (AdjacencyContractPath.applies(container)) { // items on another engine: mark and backfill through the contracts
            AdjacencyContractPath.enable(store, container, this);
            return;
        }
        Map<ByteBuffer, byte[]> expected = expected();
        byte[] end = Keys.collId(container.collId() + 1);
        if (store.engine().anyKey(Space.ADJACENCY, collId, end)) { // graph-load6: no tombstone over an empty range
            store.engine().apply(new WriteSet().deleteRange(Space.ADJACENCY, collId, end));
        }
        WriteSet ws = new WriteSet();
        for (Map.Entry<ByteBuffer, byte[]> e : expected.entrySet()) {
            ws.put(Space.ADJACENCY, e.getKey().array(), e.getValue());
            if (ws.writes().size() >= 10_000) {
                store.engine().apply(ws);
                ws = new WriteSet();
            }
        }
        ws.put(Space.META, metaKey(container.collId()), new byte[]{1});
        store.engine().apply(ws);
        container.writeStamps.bumpAll(); // entries rewritten without a transaction: every cached list is a miss
    }

    static void refuseUnless(boolean ok, String why) {
        if (!ok) {
            throw new StoreException(Status.BAD_REQUEST, why);
        }
    }
}
