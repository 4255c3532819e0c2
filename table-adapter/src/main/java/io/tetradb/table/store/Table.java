package io.tetradb.table.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.ItemCodec;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.core.store.ItemResult;
import io.tetradb.core.store.PartitionRaceRetry;
import io.tetradb.table.filter.Filter;
import io.tetradb.table.model.DateTimes;
import io.tetradb.table.model.ETags;
import io.tetradb.table.model.Entity;
import io.tetradb.table.model.EntityRules;
import io.tetradb.table.model.TableException;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The entities of one table, over its core container: point operations (each one core transaction), queries in
 * (PartitionKey, RowKey) order with continuation, and entity group transactions (one core transactional batch).
 *
 * <p>ETags are Azure's, made of the entity's Timestamp ({@link ETags}); every write gets a later Timestamp than
 * any before it. A conditional write reads the entity, compares its Timestamp with the If-Match, and writes on the
 * core's condition that the item is still the one read (its core etag), so a concurrent write fails it with 412. A
 * merge reads the entity and replaces it on the same condition (retrying when the caller gave no etag), so
 * concurrent merges never lose each other's properties.
 */
public final class Table {
    /** Results per query page at most, as in Azure. */
    public static final int MAX_PAGE = 1000;
    private static final int MAX_RETRIES = 16;

    private final String name;
    private final ContainerStore container;
    /** Where the container's items keep the keys: this face's own table, or another face's container. */
    private final EntityLayout layout;
    private volatile int seekSortLimit = 5000;

    Table(String name, ContainerStore container) {
        this.name = name;
        this.container = container;
        this.layout = EntityLayout.of(container.definition());
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
        private final EntityLayout layout;
        private Entity entity;
        private final double requestCharge;
        private final Instant written;

        /** The entity of a stored item (null: none), read on demand; {@code written} its Timestamp if known. */
        Outcome(ItemResult stored, ItemCodec codec, double requestCharge, Instant written) {
            this(stored, codec, EntityLayout.TABLES, requestCharge, written);
        }

        Outcome(ItemResult stored, ItemCodec codec, EntityLayout layout, double requestCharge, Instant written) {
            this.stored = stored;
            this.codec = codec;
            this.layout = layout;
            this.requestCharge = requestCharge;
            this.written = written;
        }

        /** The same entity with another charge (a merge's read and write together). */
        Outcome withCharge(double total) {
            Outcome o = new Outcome(stored, codec, layout, total, written);
            o.entity = entity;
            return o;
        }

        public Entity entity() {
            if (entity == null && stored != null) {
                entity = Table.entity(codec, layout, stored);
            }
            return entity;
        }

        /** The entity's wire ETag (null for none), without reading the entity when this write set it. */
        public String etag() {
            if (written != null) {
                return ETags.of(written);
            }
            return stored == null ? null : entity().etag();
        }

        public double requestCharge() {
            return requestCharge;
        }
    }

    // ---- point operations ----------------------------------------------------------------------------------------

    public Outcome get(String partitionKey, String rowKey) {
        try {
            ItemResult r = readItem(partitionKey, rowKey);
            return outcome(r);
        } catch (StoreException e) {
            throw translate(e);
        }
    }

    /**
     * The stored item of an entity (404 as the core's StoreException). In another face's container the RowKey may
     * be the item's {@code _id} rather than its id (a Mongo document's id encodes its {@code _id}): when no item has
     * the RowKey as id, the partition's item whose {@code _id} shows as that RowKey is read.
     */
    private ItemResult readItem(String partitionKey, String rowKey) {
        try {
            return container.read(pk(partitionKey), RowKeys.toId(rowKey), null);
        } catch (StoreException e) {
            if (e.status() != 404 || layout.isTables()) {
                throw e;
            }
            String id = ForeignIds.idOf(container, pk(partitionKey), rowKey);
            if (id == null) {
                throw e;
            }
            return container.read(pk(partitionKey), id, null);
        }
    }

    /** The stored item of an entity in another face's container (its read charge included), or null. */
    private ItemResult readForeign(Entity e) {
        return layout.isTables() ? null : readOrNull(e);
    }

    /** Insert; 409 EntityAlreadyExists. */
    public Outcome insert(Entity e) {
        return write(e, item -> ItemOperation.create(item));
    }

    /** Replace an existing entity ({@code ifMatch} an etag or {@code *}); 404 ResourceNotFound, 412. */
    public Outcome update(Entity e, String ifMatch) {
        Instant expected = ETags.condition(ifMatch);
        String id = RowKeys.toId(e.rowKey());
        if (!layout.isTables()) {
            return replaceForeign(e, expected, false);
        }
        if (expected == null) {
            return write(e, item -> ItemOperation.replace(id, item, null));
        }
        EntityRules.checkEntity(e);
        ItemResult cur = readMatching(e.partitionKey(), e.rowKey(), expected);
        Outcome o = write(e, item -> ItemOperation.replace(id, item, cur.etag()));
        return o.withCharge(cur.requestCharge() + o.requestCharge());
    }

    /** Insert or replace. */
    public Outcome upsert(Entity e) {
        if (!layout.isTables()) {
            return replaceForeign(e, null, true);
        }
        return write(e, item -> ItemOperation.upsert(item, null));
    }

    /**
     * Update (or with {@code insert} upsert) of an entity in another face's container: the stored item is read and
     * rewritten so that its keys, bookkeeping and the values Tables shows unchanged stay as they are; without an
     * If-Match a concurrent write is retried, as merges are.
     */
    private Outcome replaceForeign(Entity e, Instant expected, boolean insert) {
        EntityRules.checkEntity(e);
        for (int attempt = 0; attempt < MAX_RETRIES; attempt++) {
            ItemResult cur = expected == null ? readForeign(e) : readMatching(e.partitionKey(), e.rowKey(), expected);
            try {
                if (cur == null) {
                    if (!insert) {
                        throw new TableException(404, "ResourceNotFound", "The specified resource does not exist.");
                    }
                    return write(e, item -> ItemOperation.create(item));
                }
                Outcome o = rewrite(cur, e, true);
                return o.withCharge(cur.requestCharge() + o.requestCharge());
            } catch (TableException ex) {
                boolean raced = ex.status() == 412 && expected == null || ex.status() == 409 && cur == null;
                if (!raced) {
                    throw ex;
                }
            }
        }
        throw new TableException(503, "ServerBusy", "The entity changed too often to replace; retry");
    }

    /**
     * The stored item of an entity whose Timestamp is {@code expected} (an If-Match): 404 ResourceNotFound when
     * there is none, 412 when it has another version.
     */
    private ItemResult readMatching(String partitionKey, String rowKey, Instant expected) {
        ItemResult cur;
        try {
            cur = readItem(partitionKey, rowKey);
        } catch (StoreException ex) {
            throw translate(ex);
        }
        if (!expected.equals(entity(cur).timestamp())) {
            throw preconditionFailed();
        }
        return cur;
    }

    /**
     * Merge {@code e}'s properties into the stored entity. With {@code insert} a missing entity is created (insert or
     * merge); otherwise it is 404. {@code ifMatch} null or {@code *}: any version.
     */
    public Outcome merge(Entity e, String ifMatch, boolean insert) {
        EntityRules.checkEntity(e);
        Instant expected = ETags.condition(ifMatch);
        double charge = 0;
        for (int attempt = 0; attempt < MAX_RETRIES; attempt++) {
            ItemResult cur;
            try {
                cur = readItem(e.partitionKey(), e.rowKey());
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
                    Outcome o = write(e, item -> ItemOperation.create(item));
                    return o.withCharge(charge + o.requestCharge());
                }
                Entity stored = entity(cur);
                if (expected != null && !expected.equals(stored.timestamp())) {
                    throw preconditionFailed();
                }
                EntityRules.checkEntity(stored.mergedWith(e));
                Outcome o = rewrite(cur, e, false);
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
        Instant expected = ETags.condition(ifMatch);
        ItemResult cur = expected == null ? null : readMatching(partitionKey, rowKey, expected);
        try {
            String id = RowKeys.toId(rowKey);
            if (!layout.isTables()) { // the other face's id of the RowKey
                ItemResult found = cur != null ? cur : readItem(partitionKey, rowKey);
                id = container.codec().parse(found.stored()).path("id").asText();
            }
            String deleted = id;
            ItemResult r = PartitionRaceRetry.run(() -> container.execute(pk(partitionKey),
                    ItemOperation.delete(deleted, cur == null ? null : cur.etag())));
            return new Outcome(null, null, r.requestCharge() + (cur == null ? 0 : cur.requestCharge()), null);
        } catch (StoreException e) {
            throw translate(e);
        }
    }

    /** Writes the item of {@code e}, stamped with a new Timestamp, by the operation {@code op} makes of it. */
    private Outcome write(Entity e, java.util.function.Function<ObjectNode, ItemOperation> op) {
        EntityRules.checkEntity(e);
        Instant written = DateTimes.nextWriteTime();
        try {
            ObjectNode item = layout.isTables() ? EntityItems.toItem(e, written, typed())
                    : EntityItems.toForeignItem(e, layout);
            ItemResult r = PartitionRaceRetry.run(() -> container.execute(pk(e.partitionKey()), op.apply(item)));
            return new Outcome(r, container.codec(), layout, r.requestCharge(), layout.isTables() ? written : null);
        } catch (StoreException ex) {
            throw translate(ex);
        }
    }

    /**
     * Replaces the stored item {@code cur} by itself with {@code e}'s properties laid over (a merge) or replacing
     * the shown ones ({@code replace}), on the condition that it is still {@code cur} ({@link EntityItems#overlay}).
     */
    private Outcome rewrite(ItemResult cur, Entity e, boolean replace) {
        Instant written = DateTimes.nextWriteTime();
        ObjectNode item = EntityItems.overlay(container.codec().parse(cur.stored()), e, replace, written, layout,
                typed());
        try {
            ItemResult r = PartitionRaceRetry.run(() -> container.execute(storedPartition(item, e),
                    ItemOperation.replace(item.path("id").asText(), item, cur.etag())));
            return new Outcome(r, container.codec(), layout, r.requestCharge(), layout.isTables() ? written : null);
        } catch (StoreException ex) {
            throw translate(ex);
        }
    }

    /** The logical partition of a rewritten item: the entity's, or in another face's container the item's own. */
    private PartitionKeyValue storedPartition(ObjectNode item, Entity e) {
        return layout.isTables() ? pk(e.partitionKey()) : container.definition().partitionKey().extract(item);
    }

    private Outcome outcome(ItemResult r) {
        return new Outcome(r, container.codec(), layout, r.requestCharge(), null);
    }

    private Entity entity(ItemResult r) {
        return entity(container.codec(), layout, r);
    }

    private static Entity entity(ItemCodec codec, EntityLayout layout, ItemResult r) {
        return EntityItems.fromItem(codec.parse(r.stored()), layout);
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
        return EntityQuery.run(container, layout, filter, Math.max(1, Math.min(top, MAX_PAGE)), continuation,
                seekSortLimit);
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
        // one Timestamp for the whole transaction, as Azure stamps an entity group transaction
        Instant written = DateTimes.nextWriteTime();
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
                Instant expected = op.kind() == BatchOperation.Kind.UPSERT_REPLACE
                        || op.kind() == BatchOperation.Kind.UPSERT_MERGE || op.kind() == BatchOperation.Kind.INSERT
                        ? null : ETags.condition(op.ifMatch());
                if (!layout.isTables() && (op.kind() == BatchOperation.Kind.UPDATE
                        || op.kind() == BatchOperation.Kind.UPSERT_REPLACE)) {
                    // another face's item: replaced through the overlay that keeps its keys and bookkeeping
                    EntityRules.checkEntity(e);
                    ItemResult cur = expected == null ? readOrNull(e)
                            : readMatching(e.partitionKey(), e.rowKey(), expected);
                    if (cur == null && op.kind() == BatchOperation.Kind.UPDATE) {
                        throw new TableException(404, "ResourceNotFound", "The specified resource does not exist.");
                    }
                    if (cur == null) {
                        core.add(ItemOperation.create(checked(e, written)));
                    } else {
                        charge += cur.requestCharge();
                        ObjectNode item = EntityItems.overlay(container.codec().parse(cur.stored()), e, true, written,
                                layout, typed());
                        core.add(ItemOperation.replace(item.path("id").asText(), item, cur.etag()));
                    }
                    continue;
                }
                switch (op.kind()) {
                    case INSERT -> core.add(ItemOperation.create(checked(e, written)));
                    case UPSERT_REPLACE -> core.add(ItemOperation.upsert(checked(e, written), null));
                    case UPDATE, DELETE -> {
                        String coreEtag = null;
                        if (expected != null) {
                            if (op.kind() == BatchOperation.Kind.UPDATE) {
                                EntityRules.checkEntity(e);
                            }
                            ItemResult cur = readMatching(e.partitionKey(), e.rowKey(), expected);
                            charge += cur.requestCharge();
                            coreEtag = cur.etag();
                        }
                        core.add(op.kind() == BatchOperation.Kind.UPDATE
                                ? ItemOperation.replace(id, checked(e, written), coreEtag)
                                : ItemOperation.delete(id, coreEtag));
                    }
                    case MERGE, UPSERT_MERGE -> {
                        EntityRules.checkEntity(e);
                        ItemResult cur = readOrNull(e);
                        if (cur == null) {
                            if (op.kind() == BatchOperation.Kind.MERGE) {
                                throw new TableException(404, "ResourceNotFound",
                                        "The specified resource does not exist.");
                            }
                            core.add(ItemOperation.create(checked(e, written)));
                        } else {
                            Entity stored = entity(cur);
                            if (expected != null && !expected.equals(stored.timestamp())) {
                                throw preconditionFailed();
                            }
                            charge += cur.requestCharge();
                            EntityRules.checkEntity(stored.mergedWith(e));
                            ObjectNode item = EntityItems.overlay(container.codec().parse(cur.stored()), e, false,
                                    written, layout, typed());
                            core.add(ItemOperation.replace(item.path("id").asText(), item, cur.etag()));
                        }
                    }
                }
            } catch (TableException ex) {
                throw new BatchFailure(i, ex);
            }
        }
        List<ItemResult> results;
        try {
            results = PartitionRaceRetry.run(() -> container.executeBatch(pk(partitionKey), core));
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
            outcomes.add(r.stored() == null ? new Outcome(null, null, r.requestCharge(), null)
                    : new Outcome(r, container.codec(), layout, r.requestCharge(), layout.isTables() ? written : null));
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

    private ObjectNode checked(Entity e, Instant written) {
        EntityRules.checkEntity(e);
        return layout.isTables() ? EntityItems.toItem(e, written, typed()) : EntityItems.toForeignItem(e, layout);
    }

    private ItemResult readOrNull(Entity e) {
        try {
            return readItem(e.partitionKey(), e.rowKey());
        } catch (StoreException ex) {
            if (ex.status() == 404) {
                return null;
            }
            throw translate(ex);
        }
    }

    // ---- helpers -------------------------------------------------------------------------------------------------

    private PartitionKeyValue pk(String partitionKey) {
        return layout.partition(partitionKey);
    }

    EntityLayout layout() {
        return layout;
    }

    /** Whether the core stores typed (binary) items; JSON text would lose the Edm types of typed values. */
    private boolean typed() {
        return container.codec().writesBinary();
    }

    private static TableException preconditionFailed() {
        return new TableException(412, "UpdateConditionNotSatisfied",
                "The update condition specified in the request was not satisfied.");
    }

    /** Azure's 503 ServerBusy (which its SDKs retry) for a request a shared engine could not serve, nothing done. */
    public static TableException serverBusy(StoreException e) {
        return new TableException(503, "ServerBusy", "The server is currently unable to receive requests. Please "
                + "retry your request. (" + e.getMessage() + ")");
    }

    /** A core failure in Tables' terms. */
    static TableException translate(StoreException e) {
        if (e instanceof io.tetradb.core.throughput.RequestRateTooLargeException t) {
            return new io.tetradb.table.model.TableThrottledException(t.retryAfterMillis(), t.getMessage());
        }
        if (e instanceof io.tetradb.core.storage.WriteOutcomeUnknownException) { // --storage cassandra: applied or not
            return new TableException(500, "OperationTimedOut", "Operation could not be completed within the specified "
                    + "time; whether it was applied is unknown: read the entity before retrying.");
        }
        if (e instanceof io.tetradb.core.storage.StorageUnavailableException) { // --storage cassandra: nothing done
            return serverBusy(e);
        }
        return switch (e.status()) {
            case 404 -> new TableException(404, "ResourceNotFound", "The specified resource does not exist.");
            case 409 -> new TableException(409, "EntityAlreadyExists", "The specified entity already exists.");
            case 412 -> preconditionFailed();
            case 413 -> new TableException(400, "EntityTooLarge", "The entity is larger than allowed.");
            case 403 -> new TableException(403, "PartitionKeyQuotaExceeded", e.getMessage());
            case 400 -> TableException.invalidInput(e.getMessage());
            // --storage cassandra: still losing the partition to other servers after retries; Azure's retryable busy
            case 449 -> new TableException(503, "ServerBusy", "The server is currently unable to receive requests. "
                    + "Please retry your request.");
            default -> new TableException(e.status() >= 500 ? e.status() : 500, "InternalError", e.getMessage());
        };
    }
}
