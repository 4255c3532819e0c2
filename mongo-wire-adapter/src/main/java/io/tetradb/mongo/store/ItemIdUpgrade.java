package io.tetradb.mongo.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.core.store.ItemResult;
import io.tetradb.mongo.bson.DocumentMapper;
import io.tetradb.mongo.bson.IdCodec;
import org.bson.BsonValue;

import java.util.List;

/**
 * Moves a collection's documents stored under the earlier item id encoding ({@link IdCodec#legacy}: {@code "sm1"}
 * for the {@code _id} {@code "m1"}) to their id of today ({@link IdCodec#encode}: {@code "m1"}) when the collection is
 * first opened.
 *
 * <p>Crash-safe: a document moves in one transactional batch of its partition (delete the old id with its etag,
 * create the new one), so a crash leaves it under one id or the other, never both or neither, and the next open goes
 * on where this one stopped; a writer that came between wins (its etag no longer matches) and wrote the new id. An
 * earlier id may be the new id of another earlier document ({@code "ssm1"} → {@code "sm1"}, the old id of
 * {@code "m1"}): that one is moved first. A document whose new id an item of another face holds (a vertex {@code m1}
 * beside a Mongo {@code _id: "m1"}: two documents MongoDB could not hold at once) keeps its old id and is logged; it
 * is still found by scans. A move shows in the change feed (and change streams) as a delete and an insert.
 *
 * <p>When a pass over a collection this face created (of 1,000 documents or more) ends, a marker ({@code {_id:
 * {itemIds: <collection>}}} in the database's {@code system.namespaces}) spares later opens the scan; smaller
 * collections and other faces' containers are scanned once per process. Progress goes to the log every 10,000
 * documents.
 */
final class ItemIdUpgrade {
    private static final System.Logger LOG = System.getLogger(ItemIdUpgrade.class.getName());
    /** The longest chain of earlier ids that are each other's new ids is bounded by the id length (255). */
    private static final int MAX_CHAIN = 300;

    private ItemIdUpgrade() {
    }

    static void run(MongoCatalog catalog, MongoCollection coll) {
        CollectionUpgradePass.run(catalog, coll, "itemIds", "item ids", "moved to their new id", (c, o) -> o.has("_id") && move(c, o, 0));
    }

    /** The id {@code item} (a Mongo document) has today, or null when it cannot have one. */
    private static String newId(JsonNode item) {
        try {
            BsonValue id = DocumentMapper.fromItem(item).get("_id");
            return id == null ? null : IdCodec.encode(id);
        } catch (RuntimeException unencodable) {
            return null; // an _id no encoding takes (too long): it stays where it is
        }
    }

    /** Moves one document to its new id when it is under another; true when it moved. */
    private static boolean move(ContainerStore container, ObjectNode item, int depth) {
        String oldId = item.path("id").asText();
        String target = newId(item);
        if (target == null || target.equals(oldId)) {
            return false;
        }
        ObjectNode moved = item.deepCopy();
        moved.remove(CollectionUpgradePass.SYSTEM);
        moved.put("id", target);
        PartitionKeyValue pk = container.partitionKeyOf(item);
        List<ItemResult> results = container.executeBatch(pk, List.of(
                ItemOperation.delete(oldId, item.path("_etag").asText()), ItemOperation.create(moved)));
        int deleted = results.get(0).status();
        int created = results.get(1).status();
        if (deleted < 300 && created < 300) {
            return true;
        }
        if (deleted == Status.PRECONDITION_FAILED || deleted == Status.NOT_FOUND) {
            return false; // written or deleted meanwhile, under its new id
        }
        if (created == Status.CONFLICT && depth < MAX_CHAIN) {
            JsonNode occupant = read(container, pk, target);
            if (occupant instanceof ObjectNode o && o.has("_id") && !target.equals(newId(o))
                    && move(container, o, depth + 1)) {
                return move(container, item, depth + 1); // the earlier id it took was another's: moved on first
            }
            LOG.log(System.Logger.Level.WARNING, "item ids: the document with item id " + oldId
                    + " keeps it: its new id " + target + " is held by another item");
            return false;
        }
        throw new StoreException(created >= 300 ? created : deleted, "moving the document " + oldId + " to the item id "
                + target + " failed: " + results);
    }

    private static JsonNode read(ContainerStore container, PartitionKeyValue pk, String id) {
        try {
            return container.codec().parse(container.read(pk, id, null).stored());
        } catch (StoreException e) {
            if (e.status() == Status.NOT_FOUND) {
                return null;
            }
            throw e;
        }
    }
}
