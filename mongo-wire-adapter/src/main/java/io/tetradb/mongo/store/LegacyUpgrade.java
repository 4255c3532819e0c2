package io.tetradb.mongo.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.mongo.bson.DocumentMapper;

import java.util.Iterator;

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
    private LegacyUpgrade() {
    }

    static void run(MongoCatalog catalog, MongoCollection coll) {
        if (!coll.container().codec().writesBinary()) {
            return; // a JSON-text store would write the typed values as their JSON views: converting would lose types
        }
        CollectionUpgradePass.run(catalog, coll, "typedValues", "typed values", "converted from the earlier shape",
                LegacyUpgrade::convert);
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
        user.remove(CollectionUpgradePass.SYSTEM);
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
