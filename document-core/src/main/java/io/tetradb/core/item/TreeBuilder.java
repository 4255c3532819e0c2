package io.tetradb.core.item;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.FloatNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.value.BinaryDataNode;
import io.tetradb.core.value.DateTimeNode;
import io.tetradb.core.value.Decimal128Node;
import io.tetradb.core.value.MaxKeyNode;
import io.tetradb.core.value.MinKeyNode;
import io.tetradb.core.value.ObjectIdNode;
import io.tetradb.core.value.RegexNode;
import io.tetradb.core.value.TimestampNode;
import io.tetradb.core.value.UuidNode;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.UUID;

/**
 * Builds a Jackson tree of the core's typed nodes from a TB1 value: what {@link BinaryItemReader#read} gives, through
 * the one TB1 decoder ({@link BinaryItemWalker}) that the faces' own builders use too. The shared instances are
 * stateless; a {@link #forItem} builder serves one item.
 */
final class TreeBuilder implements BinaryItemWalker.Builder<JsonNode> {
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
    public JsonNode nullValue() {
        return NullNode.getInstance();
    }

    @Override
    public JsonNode bool(boolean v) {
        return BooleanNode.valueOf(v);
    }

    @Override
    public JsonNode int32(int v) {
        return IntNode.valueOf(v);
    }

    @Override
    public JsonNode int64(long v) {
        return LongNode.valueOf(v);
    }

    @Override
    public JsonNode float64(double v) {
        return DoubleNode.valueOf(v);
    }

    @Override
    public JsonNode float32(float v) {
        return FloatNode.valueOf(v);
    }

    @Override
    public JsonNode bigInteger(BigInteger v) {
        return BigIntegerNode.valueOf(v);
    }

    @Override
    public JsonNode bigDecimal(BigDecimal v) {
        return DecimalNode.valueOf(v);
    }

    @Override
    public JsonNode decimal128(BigDecimal v) {
        return Decimal128Node.of(v);
    }

    @Override
    public JsonNode decimal128Special(int kind) {
        return kind == 0 ? Decimal128Node.nan()
                : kind == 1 ? Decimal128Node.positiveInfinity() : Decimal128Node.negativeInfinity();
    }

    @Override
    public JsonNode string(String v) {
        return TextNode.valueOf(v);
    }

    @Override
    public JsonNode dateTime(long ticks, int offsetMinutes) {
        return DateTimeNode.ofTicks(ticks, offsetMinutes);
    }

    @Override
    public JsonNode binary(int subtype, byte[] bytes) {
        return BinaryDataNode.of(subtype, bytes);
    }

    @Override
    public JsonNode objectId(byte[] twelve) {
        return ObjectIdNode.of(twelve);
    }

    @Override
    public JsonNode uuid(long mostSignificant, long leastSignificant) {
        return UuidNode.of(new UUID(mostSignificant, leastSignificant));
    }

    @Override
    public JsonNode timestamp(long value) {
        return TimestampNode.ofValue(value);
    }

    @Override
    public JsonNode regex(String pattern, String options) {
        return RegexNode.of(pattern, options);
    }

    @Override
    public JsonNode minKey() {
        return MinKeyNode.INSTANCE;
    }

    @Override
    public JsonNode maxKey() {
        return MaxKeyNode.INSTANCE;
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
