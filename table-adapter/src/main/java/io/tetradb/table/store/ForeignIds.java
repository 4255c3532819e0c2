package io.tetradb.table.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.ContainerStore;

import java.util.List;

/**
 * The core id of the item of another face whose {@code _id} is shown as a RowKey ({@link EntityLayout}) when the
 * RowKey is not its id: the Mongo face's id encodings ({@code IdCodec}: a string {@code _id} is its id with
 * {@code ~} escaped as {@code ~0}; an ObjectId's is {@code "~o"} + its hex; before, {@code "s"} + the string and
 * {@code "o"} + the hex, which a collection keeps until the Mongo face first opens it), tried as point reads and
 * accepted when the item's {@code _id} shows as the RowKey. Bounded on purpose: a missing entity costs at most four
 * more point reads, never a scan of the partition (an unsharded Mongo collection is one partition).
 */
final class ForeignIds {
    private ForeignIds() {
    }

    static String idOf(ContainerStore container, PartitionKeyValue pk, String rowKey) {
        String escaped = rowKey.replace("~", "~0");
        List<String> candidates = rowKey.matches("[0-9a-f]{24}") ? List.of("~o" + rowKey, "o" + rowKey, "s" + rowKey)
                : escaped.equals(rowKey) ? List.of("s" + rowKey) : List.of(escaped, "s" + escaped);
        for (String candidate : candidates) {
            try {
                JsonNode item = container.codec().parse(container.read(pk, candidate, null).stored());
                if (rowKey.equals(EntityLayout.idText(item.path("_id")))) {
                    return candidate;
                }
            } catch (StoreException notThere) {
                if (notThere.status() != 404) {
                    throw notThere;
                }
            }
        }
        return null;
    }
}
