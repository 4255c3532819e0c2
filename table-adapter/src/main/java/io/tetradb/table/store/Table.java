package io.tetradb.table.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.ItemCodec;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.core.store.ItemResult;
import io.tetradb.table.filter.Filter;
import io.tetradb.table.model.DateTimes;
import io.tetradb.table.model.Entity;
import io.tetradb.table.model.EntityRules;
import io.tetradb.table.model.TableException;

import java.util.ArrayList;
import java.util.List;

/**
 * The entities of one table, over its core container: point operations (each one core transaction), queries in
 * (PartitionKey, RowKey) order with continuation, and entity group transactions (one core transactional batch).
 *
 * <p>ETags are the core's item etags, written {@code W/"<etag>"}. A merge reads the entity and replaces it on the
 * condition that it did not change meanwhile (retrying when the caller gave no etag), so concurrent merges never
 * lose each other's properties.
 */
public final class Table {
    /** Results per query page at most, as in Azure. */
    public static final int MAX_PAGE = 1000;
    private static final int MAX_RETRIES = 16;

    private final String name;
    private final ContainerStore container;
    private volatile int seekSortLimit = 5000;

    Table(String name, ContainerStore container) {
        this.name = name;
        this.container = container;
    }

    public String name() {
        return name;
    }

    ContainerStore container() {
        return container;
    }

    /**
     * An entity with the request charge of the operation that produced it (entity null for a delete). The entity is
     * read from the stored item only when asked for: a write's answer usually needs just its ETag.
     */
    public static final class Outcome {
        private final ItemResult stored;
        private final ItemCodec codec;
        private Entity entity;
        private final double requestCharge;

        /** The entity of a stored item (null: none), read on demand. */
        Outcome(ItemResult stored, ItemCodec codec, double requestCharge) {
            this.stored = stored;
            this.codec = codec;
            this.requestCharge = requestCharge;
        }

        /** The same entity with another charge (a merge's read and write together). */
        Outcome withCharge(double total) {
            Outcome o = new Outcome(stored, codec, total);
            o.entity = entity;
            return o;
        }

        public Entity entity() {
            if (entity == null && stored != null) {
                entity = Table.entity(codec, stored);
            }
            return entity;
        }

        /** The entity's wire ETag (null for none), without reading the entity. */
        public String etag() {
            return stored == null ? null : Table.etag(stored.etag());
        }

        public double requestCharge() {
            return requestCharge;
        }
    }

    // ---- point operations ----------------------------------------------------------------------------------------

    public Outcome get(String partitionKey, String rowKey) {
        try {
            ItemResult r = container.read(pk(partitionKey), RowKeys.toId(rowKey), null);
            return outcome(r);
        } catch (StoreException e) {
            throw translate(e);
        }
    }

    /** Insert; 409 EntityAlreadyExists. */
    public Outcome insert(Entity e) {
        return write(e, ItemOperation.create(item(e)));
    }

    /** Replace an existing entity ({@code ifMatch} an etag or {@code *}); 404 ResourceNotFound, 412. */
    public Outcome update(Entity e, String ifMatch) {
        return write(e, ItemOperation.replace(RowKeys.toId(e.rowKey()), item(e), coreEtag(ifMatch)));
    }

    /** Insert or replace. */
    public Outcome upsert(Entity e) {
        return write(e, ItemOperation.upsert(item(e), null));
    }

    /**
     * Merge {@code e}'s properties into the stored entity. With {@code insert} a missing entity is created (insert or
     * merge); otherwise it is 404. {@code ifMatch} null or {@code *}: any version.
     */
    public Outcome merge(Entity e, String ifMatch, boolean insert) {
        EntityRules.checkEntity(e);
        String expected = coreEtag(ifMatch);
        double charge = 0;
        for (int attempt = 0; attempt < MAX_RETRIES; attempt++) {
            ItemResult cur;
            try {
                cur = container.read(pk(e.partitionKey()), RowKeys.toId(e.rowKey()), null);
                charge += cur.requestCharge();
            } catch (StoreException ex) {
                if (ex.status() != 404) {
                    throw translate(ex);
                }
                cur = null;
            }
            try {
                if (cur == null) {
                    if (!insert || expected != null) {
                        throw new TableException(404, "ResourceNotFound", "The specified resource does not exist.");
                    }
                    Outcome o = write(e, ItemOperation.create(item(e)));
                    return o.withCharge(charge + o.requestCharge());
                }
                if (expected != null && !expected.equals(cur.etag())) {
                    throw preconditionFailed();
                }
                Entity merged = entity(cur).mergedWith(e);
                Outcome o = write(merged, ItemOperation.replace(RowKeys.toId(e.rowKey()), item(merged), cur.etag()));
                return o.withCharge(charge + o.requestCharge());
            } catch (TableException ex) {
                boolean raced = ex.status() == 412 && expected == null || ex.status() == 409 && cur == null;
                if (!raced) {
                    throw ex;
                }
            }
        }
        throw new TableException(503, "ServerBusy", "The entity changed too often to merge; retry");
    }

    /** Delete ({@code ifMatch} an etag or {@code *}); 404 ResourceNotFound, 412. */
    public Outcome delete(String partitionKey, String rowKey, String ifMatch) {
        try {
            ItemResult r = container.execute(pk(partitionKey),
                    ItemOperation.delete(RowKeys.toId(rowKey), coreEtag(ifMatch)));
            return new Outcome(null, null, r.requestCharge());
        } catch (StoreException e) {
            throw translate(e);
        }
    }

    private Outcome write(Entity e, ItemOperation op) {
        EntityRules.checkEntity(e);
        try {
            ItemResult r = container.execute(pk(e.partitionKey()), op);
            return outcome(r);
        } catch (StoreException ex) {
            throw translate(ex);
        }
    }

    private Outcome outcome(ItemResult r) {
        return new Outcome(r, container.codec(), r.requestCharge());
    }

    private Entity entity(ItemResult r) {
        return entity(container.codec(), r);
    }

    private static Entity entity(ItemCodec codec, ItemResult r) {
        return EntityItems.fromItem(codec.parse(r.stored()), etag(r.etag()));
    }

    private static ObjectNode item(Entity e) {
        return EntityItems.toItem(e, DateTimes.now());
    }

    // ---- queries -------------------------------------------------------------------------------------------------

    /**
     * One page of a query: entities in (PartitionKey, RowKey) order, the continuation (null on the last page), and
     * the core's access path (its explain: which index or partition the page read).
     */
    public record Page(List<Entity> entities, String continuation, double requestCharge, String access) {
    }

    /**
     * Up to {@code top} (≤ 1000) entities matching {@code filter} (null: all), in (PartitionKey, RowKey) order, from
     * {@code continuation} (a previous page's, or null). A filter that pins one PartitionKey reads that logical
     * partition only.
     */
    public Page query(Filter filter, int top, String continuation) {
        return EntityQuery.run(container, filter, Math.max(1, Math.min(top, MAX_PAGE)), continuation, seekSortLimit);
    }

    /** A filter seek matching at most this many entities is sorted by the face (see {@link EntityQuery}). */
    void seekSortLimit(int limit) {
        this.seekSortLimit = limit;
    }

    // ---- entity group transactions -------------------------------------------------------------------------------

    /** One operation of a {@code $batch} changeset. */
    public record BatchOperation(Kind kind, Entity entity, String ifMatch) {
        public enum Kind { INSERT, UPDATE, MERGE, UPSERT_REPLACE, UPSERT_MERGE, DELETE }
    }

    /** The outcome of each operation, in order (entity null for deletes and merges' empty answers). */
    public record BatchResult(List<Outcome> outcomes, double requestCharge) {
    }

    /**
     * Runs the operations as one transaction of the core (one logical partition): all or nothing. A failing
     * operation is reported as {@link BatchFailure} with its index. Merges read their entities first and replace
     * them on the condition that they are unchanged; a concurrent write fails the batch with 412 (nothing applied).
     */
    public BatchResult batch(List<BatchOperation> ops) {
        if (ops.isEmpty() || ops.size() > 100) {
            throw TableException.invalidInput("a batch holds 1 to 100 operations, this one " + ops.size());
        }
        String partitionKey = ops.get(0).entity().partitionKey();
        java.util.Set<String> rowKeys = new java.util.HashSet<>();
        List<ItemOperation> core = new ArrayList<>();
        double charge = 0;
        for (int i = 0; i < ops.size(); i++) {
            BatchOperation op = ops.get(i);
            Entity e = op.entity();
            try {
                if (!e.partitionKey().equals(partitionKey)) {
                    throw new TableException(400, "CommandsInBatchActOnDifferentPartitions",
                            "All commands in a batch must operate on the same partition key");
                }
                if (!rowKeys.add(e.rowKey())) {
                    throw new TableException(400, "InvalidDuplicateRow",
                            "The batch request contains multiple changes with the same row key.");
                }
                String id = RowKeys.toId(e.rowKey());
                switch (op.kind()) {
                    case INSERT -> core.add(ItemOperation.create(checked(e)));
                    case UPDATE -> core.add(ItemOperation.replace(id, checked(e), coreEtag(op.ifMatch())));
                    case UPSERT_REPLACE -> core.add(ItemOperation.upsert(checked(e), null));
                    case DELETE -> core.add(ItemOperation.delete(id, coreEtag(op.ifMatch())));
                    case MERGE, UPSERT_MERGE -> {
                        EntityRules.checkEntity(e);
                        ItemResult cur = readOrNull(e);
                        String expected = coreEtag(op.ifMatch());
                        if (cur == null) {
                            if (op.kind() == BatchOperation.Kind.MERGE) {
                                throw new TableException(404, "ResourceNotFound",
                                        "The specified resource does not exist.");
                            }
                            core.add(ItemOperation.create(checked(e)));
                        } else {
                            if (expected != null && !expected.equals(cur.etag())) {
                                throw preconditionFailed();
                            }
                            charge += cur.requestCharge();
                            core.add(ItemOperation.replace(id, checked(entity(cur).mergedWith(e)), cur.etag()));
                        }
                    }
                }
            } catch (TableException ex) {
                throw new BatchFailure(i, ex);
            }
        }
        List<ItemResult> results;
        try {
            results = container.executeBatch(pk(partitionKey), core);
        } catch (StoreException e) {
            throw translate(e);
        }
        List<Outcome> outcomes = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            ItemResult r = results.get(i);
            if (!r.isSuccess() && r.status() != 424) {
                throw new BatchFailure(i, translate(new StoreException(r.status(), r.error())));
            }
        }
        for (ItemResult r : results) {
            charge += r.requestCharge();
            outcomes.add(r.stored() == null ? new Outcome(null, null, r.requestCharge()) : outcome(r));
        }
        return new BatchResult(outcomes, charge);
    }

    /** The operation at {@code index} failed; nothing of the batch was applied. */
    public static final class BatchFailure extends TableException {
        private final int index;

        public BatchFailure(int index, TableException cause) {
            super(cause.status(), cause.errorCode(), cause.getMessage());
            this.index = index;
        }

        public int index() {
            return index;
        }
    }

    private ObjectNode checked(Entity e) {
        EntityRules.checkEntity(e);
        return item(e);
    }

    private ItemResult readOrNull(Entity e) {
        try {
            return container.read(pk(e.partitionKey()), RowKeys.toId(e.rowKey()), null);
        } catch (StoreException ex) {
            if (ex.status() == 404) {
                return null;
            }
            throw translate(ex);
        }
    }

    // ---- helpers -------------------------------------------------------------------------------------------------

    private static PartitionKeyValue pk(String partitionKey) {
        return PartitionKeyValue.of(TextNode.valueOf(partitionKey));
    }

    /** The wire ETag of a core etag. */
    public static String etag(String coreEtag) {
        return "W/\"" + coreEtag + "\"";
    }

    /** The core etag an If-Match names (null for none or {@code *}: any version). */
    static String coreEtag(String ifMatch) {
        if (ifMatch == null || ifMatch.equals("*")) {
            return null;
        }
        String s = ifMatch.trim();
        if (s.startsWith("W/")) {
            s = s.substring(2);
        }
        if (s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"")) {
            s = s.substring(1, s.length() - 1);
        }
        return s;
    }

    private static TableException preconditionFailed() {
        return new TableException(412, "UpdateConditionNotSatisfied",
                "The update condition specified in the request was not satisfied.");
    }

    /** A core failure in Tables' terms. */
    static TableException translate(StoreException e) {
        return switch (e.status()) {
            case 404 -> new TableException(404, "ResourceNotFound", "The specified resource does not exist.");
            case 409 -> new TableException(409, "EntityAlreadyExists", "The specified entity already exists.");
            case 412 -> preconditionFailed();
            case 413 -> new TableException(400, "EntityTooLarge", "The entity is larger than allowed.");
            case 403 -> new TableException(403, "PartitionKeyQuotaExceeded", e.getMessage());
            case 400 -> TableException.invalidInput(e.getMessage());
            default -> new TableException(e.status() >= 500 ? e.status() : 500, "InternalError", e.getMessage());
        };
    }
}
