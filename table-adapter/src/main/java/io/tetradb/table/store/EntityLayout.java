package io.tetradb.table.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.ContainerDefinition;

import java.util.List;
import java.util.Set;

/**
 * Where a container's items keep an entity's keys. A table this face created has the partition key
 * {@code /PartitionKey} and its items hold {@code PartitionKey} and {@code Timestamp} ({@link #TABLES}). A container
 * another face created (a Mongo collection, a graph, a document container in the account's database) is shown as a
 * table too: the PartitionKey is the item's value at the container's partition key path (its text; "" when the item
 * has none), the RowKey is Mongo's {@code _id} (its JSON view: an ObjectId as 24 hex digits) or else the item id, the
 * Timestamp and ETag come from {@code _ts} and {@code _etag}, and the other face's bookkeeping (the partition key
 * property, {@code _id}, the graph's edge fields, Mongo's replace marker) is no property.
 */
public final class EntityLayout {
    public static final EntityLayout TABLES = new EntityLayout(List.of(EntityItems.PARTITION_KEY), true);
    /** Fields other faces keep for themselves (graph-core's Layout, the Mongo face's replace marker). */
    private static final Set<String> FOREIGN_BOOKKEEPING = Set.of("_id", "_isEdge", "_vertexId", "_vertexLabel",
            "_sink", "_sinkLabel", "_sinkPartition", "~rep", EntityItems.PARTITION_KEY, "RowKey",
            EntityItems.TIMESTAMP);

    private final List<String> partitionKeyPath;
    private final boolean tables;

    private EntityLayout(List<String> partitionKeyPath, boolean tables) {
        this.partitionKeyPath = partitionKeyPath;
        this.tables = tables;
    }

    /** The layout of a container's items. */
    public static EntityLayout of(ContainerDefinition d) {
        List<String> paths = d.partitionKey().paths();
        if (paths.size() == 1 && paths.get(0).equals("/" + EntityItems.PARTITION_KEY)) {
            return TABLES;
        }
        return new EntityLayout(PartitionKeyDefinition.segments(paths.get(0)), false);
    }

    /** True for this face's own tables (partition key {@code /PartitionKey}). */
    public boolean isTables() {
        return tables;
    }

    /** The property names along the partition key path ({@code [PartitionKey]} for own tables). */
    public List<String> partitionKeyPath() {
        return partitionKeyPath;
    }

    /**
     * The logical partition of a PartitionKey: its text; in another face's container the empty PartitionKey is the
     * partition of items without a partition key value (Cosmos {@code PartitionKey.NONE}), as {@link #partitionKey}
     * shows them.
     */
    public PartitionKeyValue partition(String partitionKey) {
        if (!tables && partitionKey.isEmpty()) {
            return PartitionKeyValue.none(1);
        }
        return PartitionKeyValue.of(TextNode.valueOf(partitionKey));
    }

    /** The PartitionKey of an item. */
    String partitionKey(JsonNode item) {
        JsonNode v = item;
        for (String segment : partitionKeyPath) {
            v = v.path(segment);
        }
        if (v.isMissingNode() || v.isNull()) {
            return "";
        }
        return v.isTextual() ? v.textValue() : io.tetradb.core.value.TypedValues.jsonView(v).asText();
    }

    /** The RowKey of an item. */
    String rowKey(JsonNode item) {
        if (!tables) {
            JsonNode id = item.get("_id");
            if (id != null) {
                return idText(id);
            }
        }
        return RowKeys.fromId(item.path("id").asText());
    }

    /** Mongo's {@code _id} as RowKey text: a string as is, an ObjectId as its 24 hex digits, others as JSON. */
    static String idText(JsonNode id) {
        if (id.isTextual()) {
            return id.textValue();
        }
        if (id.isObject() && id.size() == 1 && id.path("$oid").isTextual()) {
            return id.path("$oid").textValue(); // the Mongo face's earlier relaxed Extended JSON
        }
        JsonNode view = io.tetradb.core.value.TypedValues.jsonView(id);
        return view.isValueNode() ? view.asText() : view.toString();
    }

    /** True for a top-level field of an item that is not an entity property in this layout. */
    boolean bookkeeping(String field) {
        return !tables && (FOREIGN_BOOKKEEPING.contains(field)
                || partitionKeyPath.size() == 1 && partitionKeyPath.get(0).equals(field));
    }
}
