package io.tetradb.mongo.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.ContainerQuery;
import io.tetradb.core.store.ContainerStore;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonString;

import java.util.Map;
import java.util.Set;

/**
 * One pass of an upgrade that runs when a collection is first opened ({@link LegacyUpgrade}, {@link ItemIdUpgrade}):
 * every document is offered to the upgrade's step, page by page, with progress in the log every 10,000 documents.
 * When a pass over a collection this face created (of 1,000 documents or more) ends, a marker ({@code {_id: {<name>:
 * <collection>}}} in the database's {@code system.namespaces}) spares later opens the scan; smaller collections and
 * other faces' containers are scanned once per process (cheaper than a write).
 */
final class CollectionUpgradePass {
    /** The system properties a rewritten document must not carry back into the core. */
    static final Set<String> SYSTEM = Set.of("_rid", "_self", "_etag", "_attachments", "_ts");
    private static final System.Logger LOG = System.getLogger(CollectionUpgradePass.class.getName());
    private static final long MARKED_FROM = 1_000;

    /** What the upgrade does to one document; true when it changed it. */
    interface Step {
        boolean apply(ContainerStore container, ObjectNode item);
    }

    private CollectionUpgradePass() {
    }

    /**
     * Runs {@code step} over {@code coll}'s documents unless its marker {@code name} says a pass already ended;
     * {@code what} names the upgrade in the log, {@code done} what a changed document went through.
     */
    static void run(MongoCatalog catalog, MongoCollection coll, String name, String what, String done, Step step) {
        ContainerStore container = coll.container();
        boolean ours = coll.shardField() == null && !coll.name().startsWith("system.");
        BsonDocument markerId = new BsonDocument(name, new BsonString(coll.name()));
        if (ours) {
            MongoCollection ns = catalog.collection(coll.database(), CollectionOptions.NAMESPACES);
            if (ns != null && ns.findById(markerId, new double[1]) != null) {
                return;
            }
        }
        PartitionKeyValue partition = coll.shardField() == null ? PartitionKeyValue.none(1) : null;
        String continuation = null;
        long seen = 0;
        long changed = 0;
        do {
            ContainerQuery.Page page = container.queryPage(MongoCollection.plan(new BsonDocument(), coll.shardField()),
                    Map.of(), partition, null, continuation, 500, 8L * 1024 * 1024);
            for (JsonNode item : page.results()) {
                seen++;
                if (item instanceof ObjectNode o && step.apply(container, o)) {
                    changed++;
                }
                if (seen % 10_000 == 0) {
                    LOG.log(System.Logger.Level.INFO, what + ": " + coll.namespace() + ": " + seen
                            + " documents read, " + changed + " " + done);
                }
            }
            continuation = page.continuation();
        } while (continuation != null);
        if (changed > 0) {
            LOG.log(System.Logger.Level.INFO, what + ": " + coll.namespace() + ": " + changed + " of " + seen
                    + " documents " + done);
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
}
