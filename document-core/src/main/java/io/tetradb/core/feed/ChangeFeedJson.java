package io.tetradb.core.feed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The JSON forms of a change, as Cosmos DB shows them in its two modes: as JSON (what the REST face sends; typed
 * values as their JSON views) or as item trees with their typed values ({@code …Item}: what the embedded API's point
 * reads and queries give, so its change feed gives the same).
 */
public final class ChangeFeedJson {
    private ChangeFeedJson() {
    }

    /** Latest version: the item with {@code _lsn}. */
    public static ObjectNode latestVersion(ObjectMapper mapper, ChangeFeedPage.Change change) {
        return change.tree(mapper);
    }

    /**
     * All versions and deletes: {@code {current, previous, metadata: {lsn, crts, operationType, previousImageLSN,
     * timeToLiveExpired, id, partitionKey}}}; {@code current} for creates and replaces, {@code previous} for replaces
     * and deletes (the images the container's retention kept), {@code id}/{@code partitionKey} in the metadata of
     * deletes.
     */
    public static ObjectNode allVersions(ObjectMapper mapper, ChangeFeedPage.Change change,
                                         PartitionKeyDefinition definition) {
        return allVersions(mapper, change, definition, false);
    }

    /** Latest version as an item tree with its typed values and {@code _lsn}. */
    public static ObjectNode latestVersionItem(ObjectMapper mapper, ChangeFeedPage.Change change) {
        byte[] stored = change.stored();
        if (stored == null) {
            return latestVersion(mapper, change);
        }
        ObjectNode item;
        if (io.tetradb.core.item.StoredItems.isBinary(stored)) {
            item = io.tetradb.core.item.StoredItems.parseChange(stored); // with room for _lsn
        } else {
            try {
                item = (ObjectNode) mapper.readTree(stored, io.tetradb.core.store.ItemCodec.HEADER,
                        stored.length - io.tetradb.core.store.ItemCodec.HEADER);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return item.put("_lsn", change.record().lsn());
    }

    /** As {@link #allVersions(ObjectMapper, ChangeFeedPage.Change, PartitionKeyDefinition)}, images as typed trees. */
    public static ObjectNode allVersionsItem(ObjectMapper mapper, ChangeFeedPage.Change change,
                                             PartitionKeyDefinition definition) {
        return allVersions(mapper, change, definition, true);
    }

    private static ObjectNode allVersions(ObjectMapper mapper, ChangeFeedPage.Change change,
                                          PartitionKeyDefinition definition, boolean typed) {
        ChangeRecord r = change.record();
        ObjectNode out = mapper.createObjectNode();
        if (r.current() != null) {
            out.set("current", image(mapper, r.current(), r.lsn(), typed));
        } else {
            out.putObject("current");
        }
        if (r.previous() != null) {
            out.set("previous", image(mapper, r.previous(), r.previousLsn(), typed));
        }
        ObjectNode meta = out.putObject("metadata");
        meta.put("lsn", r.lsn());
        meta.put("crts", r.crts());
        meta.put("operationType", r.operationType().cosmosName());
        if (r.previousLsn() > 0) {
            meta.put("previousImageLSN", r.previousLsn());
        }
        meta.put("timeToLiveExpired", r.ttlExpired());
        if (r.operationType() == ChangeRecord.OperationType.DELETE) {
            meta.put("id", r.id());
            ObjectNode pk = meta.putObject("partitionKey");
            List<JsonNode> values = partitionKey(r, definition).components();
            for (int i = 0; i < values.size() && i < definition.paths().size(); i++) {
                if (!values.get(i).isMissingNode()) {
                    pk.set(definition.paths().get(i).substring(1), values.get(i));
                }
            }
        }
        return out;
    }

    /** The partition key value of a change. */
    public static PartitionKeyValue partitionKey(ChangeRecord r, PartitionKeyDefinition definition) {
        int at = 16 * definition.levels();
        return PartitionKeyValue.decode(r.logicalPartition(), at, r.logicalPartition().length);
    }

    private static JsonNode image(ObjectMapper mapper, byte[] image, long lsn, boolean typed) {
        return typed ? ChangeFeed.imageItem(image, mapper).put("_lsn", lsn)
                : read(mapper, ChangeFeed.imageWithLsn(image, lsn));
    }

    private static JsonNode read(ObjectMapper mapper, byte[] json) {
        try {
            return mapper.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
