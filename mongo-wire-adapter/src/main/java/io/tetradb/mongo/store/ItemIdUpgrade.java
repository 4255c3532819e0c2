package io.tetradb.mongo.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.ContainerQuery;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.core.store.ItemResult;
import io.tetradb.mongo.bson.DocumentMapper;
import io.tetradb.mongo.bson.IdCodec;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.util.List;
import java.util.Map;
import java.util.Set;

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
    private static final Set<String> SYSTEM = Set.of("_rid", "_self", "_etag", "_attachments", "_ts");
    private static final long MARKED_FROM = 1_000;
    /** The longest chain of earlier ids that are each other's new ids is bounded by the id length (255). */
    private static final int MAX_CHAIN = 300;

    private ItemIdUpgrade() {
    }

    static void run(MongoCatalog catalog, MongoCollection coll) {
        ContainerStore container = coll.container();
        boolean ours = coll.shardField() == null && !coll.name().startsWith("system.");
        BsonDocument markerId = new BsonDocument("itemIds", new BsonString(coll.name()));
        if (ours) {
            MongoCollection ns = catalog.collection(coll.database(), CollectionOptions.NAMESPACES);
            if (ns != null && ns.findById(markerId, new double[1]) != null) {
                return;
            }
        }
        PartitionKeyValue partition = coll.shardField() == null ? PartitionKeyValue.none(1) : null;
        String continuation = null;
        long seen = 0;
        long moved = 0;
        do {
            ContainerQuery.Page page = container.queryPage(MongoCollection.plan(new BsonDocument(), coll.shardField()),
                    Map.of(), partition, null, continuation, 500, 8L * 1024 * 1024);
            for (JsonNode item : page.results()) {
                seen++;
                if (item instanceof ObjectNode o && o.has("_id") && move(container, o, 0)) {
                    moved++;
                }
                if (seen % 10_000 == 0) {
                    LOG.log(System.Logger.Level.INFO, "item ids: " + coll.namespace() + ": " + seen
                            + " documents read, " + moved + " moved to their new id");
                }
            }
            continuation = page.continuation();
        } while (continuation != null);
        if (moved > 0) {
            LOG.log(System.Logger.Level.INFO, "item ids: " + coll.namespace() + ": " + moved + " of " + seen
                    + " documents moved from the earlier id encoding");
        }
        if (ours && seen >= MARKED_FROM) {
            try {
                catalog.createIfAbsent(coll.database(), CollectionOptions.NAMESPACES)
                        .insert(new BsonDocument("_id", markerId).append("done", BsonBoolean.TRUE));
            } catch (io.tetradb.mongo.command.MongoError alreadyMarked) {
                if (alreadyMarked.code() != io.tetradb.mongo.command.ErrorCode.DUPLICATE_KEY) {
                    throw alreadyMarked;
                }
            }
        }
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
        moved.remove(SYSTEM);
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
