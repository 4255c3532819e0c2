package io.tetradb.cosmos;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.CoreStore;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.core.store.ItemResult;

import java.util.ArrayList;
import java.util.List;

/**
 * The face's own metadata, kept in the core like everything else: the offer settings of a database's containers are
 * items of its container {@code system.cosmos} (partitioned by the owning container's name; hidden from the Cosmos
 * listings, and from the Mongo face's, which hides {@code system.*}). Scripts are not here: they are the core's
 * ({@code ContainerStore.scripts()}); entries of kind sprocs/triggers/udfs an earlier build left are ignored.
 */
final class SystemStore {
    static final String CONTAINER = "system.cosmos";

    private final CoreStore store;

    SystemStore(CoreStore store) {
        this.store = store;
    }

    static boolean isSystem(String container) {
        return CONTAINER.equals(container);
    }

    /** A stored entry: the resource as the client gave it plus its etag and timestamp. */
    record Entry(String kind, ObjectNode resource, String etag, long ts) {
    }

    /** The database's metadata container; null when it does not exist and {@code create} is false. */
    private ContainerStore container(String db, boolean create) {
        return store.metadataContainer(db, CONTAINER, PartitionKeyDefinition.of("/coll"), create);
    }

    private static PartitionKeyValue key(String coll) {
        return PartitionKeyValue.of(TextNode.valueOf(coll));
    }

    private static String id(String kind, String name) {
        return kind + ":" + name;
    }

    Entry get(String db, String coll, String kind, String name) {
        ContainerStore c = container(db, false);
        if (c == null) {
            return null;
        }
        try {
            ItemResult r = c.read(key(coll), id(kind, name), null);
            return entry(c, r.stored());
        } catch (StoreException e) {
            if (e.status() == 404) {
                return null;
            }
            throw e;
        }
    }

    /** Writes an entry whether or not it exists. */
    Entry upsert(String db, String coll, String kind, String name, ObjectNode resource) {
        ContainerStore c = container(db, true);
        ObjectNode item = Json.object();
        item.put("id", id(kind, name));
        item.put("coll", coll);
        item.put("_kind", kind);
        item.set("resource", resource);
        return entry(c, c.execute(key(coll), ItemOperation.upsert(item, null)).stored());
    }

    /** Forgets everything stored for a deleted container. */
    void dropContainer(String db, String coll) {
        ContainerStore c = container(db, false);
        if (c == null) {
            return;
        }
        List<String> ids = new ArrayList<>();
        c.scan(key(coll), stored -> {
            ids.add(c.codec().parse(stored).path("id").asText());
            return true;
        });
        for (String id : ids) {
            try {
                c.execute(key(coll), ItemOperation.delete(id, null));
            } catch (StoreException e) {
                if (e.status() != 404) {
                    throw e;
                }
            }
        }
    }

    private static Entry entry(ContainerStore c, byte[] stored) {
        ObjectNode item = c.codec().parse(stored);
        ObjectNode resource = item.path("resource").isObject() ? (ObjectNode) item.get("resource") : Json.object();
        return new Entry(item.path("_kind").asText(), resource, item.path("_etag").asText(), item.path("_ts").asLong());
    }
}
