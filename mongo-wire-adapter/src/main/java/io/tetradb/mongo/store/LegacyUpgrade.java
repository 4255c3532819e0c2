package io.tetradb.mongo.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.ContainerQuery;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.mongo.bson.DocumentMapper;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonString;

import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * Converts a collection's documents stored by the earlier mapping (relaxed Extended JSON, the {@code _types}
 * sidecar) to typed values when the collection is first opened, so that index seeks on ObjectIds and dates — which
 * now look for typed values — find them too. Reads already understand both shapes; this makes queries exact.
 *
 * <p>Crash-safe and resumable: each document is rewritten on its own with its etag (a writer that came between
 * wins, and wrote the typed shape), and converting a converted document changes nothing, so an interrupted pass is
 * simply run again at the next open. When a pass over a collection this face created (of 1,000 documents or more)
 * ends, a marker
 * ({@code {_id: {typedValues: <collection>}}} in the database's {@code system.namespaces}) spares later opens the
 * scan; collections of other faces or sharded ones are scanned once per process (their documents are never
 * rewritten unless they have a Mongo {@code _id}). Progress goes to the log every 10,000 documents.
 * A rewrite is a write: it shows in the collection's change stream as an update. Runs only on a store that writes
 * the binary item format (JSON text cannot hold typed values).
 */
final class LegacyUpgrade {
    private static final System.Logger LOG = System.getLogger(LegacyUpgrade.class.getName());
    private static final Set<String> SYSTEM = Set.of("_rid", "_self", "_etag", "_attachments", "_ts");
    /** Smaller collections are rescanned at each process's first open rather than marked (cheaper than a write). */
    private static final long MARKED_FROM = 1_000;

    private LegacyUpgrade() {
    }

    static void run(MongoCatalog catalog, MongoCollection coll) {
        ContainerStore container = coll.container();
        if (!container.codec().writesBinary()) {
            return; // a JSON-text store would write the typed values as their JSON views: converting would lose types
        }
        boolean ours = coll.shardField() == null && !coll.name().startsWith("system.");
        BsonDocument markerId = new BsonDocument("typedValues", new BsonString(coll.name()));
        if (ours) {
            MongoCollection ns = catalog.collection(coll.database(), CollectionOptions.NAMESPACES);
            if (ns != null && ns.findById(markerId, new double[1]) != null) {
                return;
            }
        }
        PartitionKeyValue partition = coll.shardField() == null ? PartitionKeyValue.none(1) : null;
        String continuation = null;
        long seen = 0;
        long converted = 0;
        do {
            ContainerQuery.Page page = container.queryPage(MongoCollection.plan(new BsonDocument(), coll.shardField()),
                    Map.of(), partition, null, continuation, 500, 8L * 1024 * 1024);
            for (JsonNode item : page.results()) {
                seen++;
                if (item instanceof ObjectNode o && convert(container, o)) {
                    converted++;
                }
                if (seen % 10_000 == 0) {
                    LOG.log(System.Logger.Level.INFO, "typed values: " + coll.namespace() + ": " + seen
                            + " documents read, " + converted + " converted");
                }
            }
            continuation = page.continuation();
        } while (continuation != null);
        if (converted > 0) {
            LOG.log(System.Logger.Level.INFO, "typed values: " + coll.namespace() + ": " + converted + " of " + seen
                    + " documents converted from the earlier shape");
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

    /** Rewrites one document in the typed shape when it is in the earlier one; true when it did. */
    private static boolean convert(ContainerStore container, ObjectNode item) {
        if (!item.has("_id") || !earlierShape(item, true)) {
            return false;
        }
        ObjectNode typed = DocumentMapper.toItem(DocumentMapper.fromItem(item));
        typed.set("id", item.get("id")); // an id of the earlier encoding stays: ItemIdUpgrade moves it next
        JsonNode replaced = item.get(DocumentMapper.REPLACED);
        if (replaced != null) {
            typed.set(DocumentMapper.REPLACED, replaced);
        }
        ObjectNode user = item.deepCopy();
        user.remove(SYSTEM);
        if (typed.equals(user)) {
            return false; // only values the typed model has no type for: they keep their tagged form
        }
        try {
            container.execute(container.partitionKeyOf(item), ItemOperation.replace(item.get("id").asText(), typed,
                    item.path("_etag").asText()));
            return true;
        } catch (StoreException e) {
            if (e.status() == Status.PRECONDITION_FAILED || e.status() == Status.NOT_FOUND) {
                return false; // written or deleted meanwhile, in the typed shape
            }
            throw e;
        }
    }

    /** A {@code _types} sidecar at the top, or a tagged Extended JSON object ({@code {"$…": …}}) anywhere. */
    private static boolean earlierShape(JsonNode v, boolean top) {
        if (v.isObject()) {
            if (top && v.has(DocumentMapper.TYPES)) {
                return true;
            }
            Iterator<String> names = v.fieldNames();
            if (names.hasNext()) {
                String first = names.next();
                if (first.startsWith("$") && !first.equals("$ref")) {
                    return true;
                }
            }
            for (JsonNode e : v) {
                if (earlierShape(e, false)) {
                    return true;
                }
            }
            return false;
        }
        if (v.isArray()) {
            for (JsonNode e : v) {
                if (earlierShape(e, false)) {
                    return true;
                }
            }
        }
        return false;
    }
}
