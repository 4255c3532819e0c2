package io.tetradb.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.partition.PhysicalPartition;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.ItemCodec;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.core.store.ItemResult;
import io.tetradb.core.store.PartitionStatistics;
import io.tetradb.core.store.ContainerQuery;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A container handle with the item operations of azure-cosmos' sync {@code CosmosContainer}. Every write is a
 * transaction in one logical partition; reads never wait for writers.
 */
public final class CosmosContainer {
    private final CosmosClient client;
    private final CosmosDatabase database;
    private final String id;

    CosmosContainer(CosmosClient client, CosmosDatabase database, String id) {
        this.client = client;
        this.database = database;
        this.id = id;
    }

    public String getId() {
        return id;
    }

    public CosmosDatabase getDatabase() {
        return database;
    }

    private volatile ContainerStore cached;

    /** The container's store; looked up again only after it was deleted (and perhaps created anew). */
    ContainerStore store() {
        ContainerStore c = cached;
        if (c == null || c.isDeleted()) {
            c = client.coreStore().container(database.getId(), id);
            cached = c;
        }
        return c;
    }

    private ItemCodec codec() {
        return client.coreStore().codec();
    }

    /** The container's properties (the current indexing policy) and its index transformation progress. */
    public CosmosContainerResponse read() {
        ContainerStore store = CosmosException.call(this::store);
        long progress = store.indexTransformationProgress();
        return new CosmosContainerResponse(Status.OK, CosmosContainerProperties.of(store), progress);
    }

    /**
     * Replaces the container's properties: a new indexing policy (or default TTL) is stored and returned at once,
     * and the indexes are rebuilt in the background (see {@link CosmosContainerResponse#getIndexTransformationProgress()});
     * writes and queries keep working meanwhile. Another id or partition key is 400.
     */
    public CosmosContainerResponse replace(CosmosContainerProperties properties) {
        return replace(properties, null);
    }

    public CosmosContainerResponse replace(CosmosContainerProperties properties, CosmosContainerRequestOptions options) {
        return CosmosException.call(() -> {
            if (properties == null) {
                throw new StoreException(Status.BAD_REQUEST, "the container properties are null");
            }
            if (!id.equals(properties.getId())) {
                throw new StoreException(Status.BAD_REQUEST, "the container id " + id + " cannot change (got "
                        + properties.getId() + ")");
            }
            client.coreStore().replaceContainer(database.getId(), id,
                    properties.getPartitionKeyDefinition().toCore(), properties.getIndexingPolicy().toJson(),
                    properties.getDefaultTimeToLiveInSeconds());
            ContainerStore store = store();
            CosmosContainerProperties.applyChangeFeedPolicy(properties, store);
            return new CosmosContainerResponse(Status.OK, CosmosContainerProperties.of(store),
                    store.indexTransformationProgress());
        });
    }

    /** The container's own throughput; 404 when it shares its database's (it has no offer of its own). */
    public ThroughputResponse readThroughput() {
        return CosmosException.call(() -> Throughputs.read(client.coreStore(), store()));
    }

    /**
     * Replaces the container's throughput. Lowering is immediate; raising beyond 10,000 RU/s per physical partition
     * splits partitions online and the response reports {@link ThroughputResponse#isReplacePending()} until done.
     */
    public ThroughputResponse replaceThroughput(ThroughputProperties throughput) {
        return CosmosException.call(() -> {
            client.coreStore().throughput().replaceContainer(database.getId(), id, throughput.settings());
            return Throughputs.read(client.coreStore(), store());
        });
    }

    public CosmosContainerResponse delete() {
        CosmosException.call(() -> {
            client.coreStore().deleteContainer(database.getId(), id);
            return null;
        });
        return new CosmosContainerResponse(Status.NO_CONTENT, null);
    }

    /** The container's stored procedures, triggers and user-defined functions. */
    public CosmosScripts getScripts() {
        return new CosmosScripts(this);
    }

    // ---- items -------------------------------------------------------------------------------------------------

    public <T> CosmosItemResponse<T> createItem(T item) {
        return createItem(item, null, null);
    }

    public <T> CosmosItemResponse<T> createItem(T item, CosmosItemRequestOptions options) {
        return createItem(item, null, options);
    }

    /** Creates an item; 409 if its id exists in its logical partition. */
    public <T> CosmosItemResponse<T> createItem(T item, PartitionKey partitionKey, CosmosItemRequestOptions options) {
        return write(item, partitionKey, options, node -> ItemOperation.create(node));
    }

    public <T> CosmosItemResponse<T> upsertItem(T item) {
        return upsertItem(item, null, null);
    }

    public <T> CosmosItemResponse<T> upsertItem(T item, CosmosItemRequestOptions options) {
        return upsertItem(item, null, options);
    }

    /** Creates the item (201) or replaces it (200). */
    public <T> CosmosItemResponse<T> upsertItem(T item, PartitionKey partitionKey, CosmosItemRequestOptions options) {
        return write(item, partitionKey, options, node -> ItemOperation.upsert(node, ifMatch(options)));
    }

    /** Replaces an existing item; 404 if absent, 412 if {@code ifMatchETag} is stale. */
    public <T> CosmosItemResponse<T> replaceItem(T item, String itemId, PartitionKey partitionKey,
                                                 CosmosItemRequestOptions options) {
        return write(item, partitionKey, options, node -> ItemOperation.replace(itemId, node, ifMatch(options)));
    }

    public <T> CosmosItemResponse<T> readItem(String itemId, PartitionKey partitionKey, Class<T> itemType) {
        return readItem(itemId, partitionKey, null, itemType);
    }

    /** A point read; 404 if absent; a 304 response without item if {@code ifNoneMatchETag} is current. */
    public <T> CosmosItemResponse<T> readItem(String itemId, PartitionKey partitionKey,
                                              CosmosItemRequestOptions options, Class<T> itemType) {
        return CosmosException.call(() -> {
            ContainerStore store = store();
            ItemResult r = store.read(value(store, partitionKey), itemId,
                    options == null ? null : options.getIfNoneMatchETag(),
                    options == null ? null : ConsistencyLevel.core(options.getConsistencyLevel()));
            return new CosmosItemResponse<>(r, codec(), itemType, true);
        });
    }

    public CosmosItemResponse<Object> deleteItem(String itemId, PartitionKey partitionKey,
                                                 CosmosItemRequestOptions options) {
        return CosmosException.call(() -> {
            ContainerStore store = store();
            ItemResult r = execute(store, value(store, partitionKey), ItemOperation.delete(itemId, ifMatch(options)),
                    options);
            return new CosmosItemResponse<>(r, codec(), Object.class, false);
        });
    }

    public <T> CosmosItemResponse<Object> deleteItem(T item, CosmosItemRequestOptions options) {
        return CosmosException.call(() -> {
            ContainerStore store = store();
            ObjectNode node = toNode(item);
            JsonNode itemId = node.get("id");
            if (itemId == null || !itemId.isTextual()) {
                throw new StoreException(Status.BAD_REQUEST, "the item has no string 'id'");
            }
            return deleteItem(itemId.textValue(), PartitionKey.of(store.partitionKeyOf(node)), options);
        });
    }

    public <T> CosmosItemResponse<T> patchItem(String itemId, PartitionKey partitionKey,
                                               CosmosPatchOperations operations, Class<T> itemType) {
        return patchItem(itemId, partitionKey, operations, null, itemType);
    }

    /** Applies the patch operations atomically: all of them or none. */
    public <T> CosmosItemResponse<T> patchItem(String itemId, PartitionKey partitionKey,
                                               CosmosPatchOperations operations,
                                               CosmosPatchItemRequestOptions options, Class<T> itemType) {
        return CosmosException.call(() -> {
            ContainerStore store = store();
            // named triggers are not silently dropped: writeWithTriggers refuses them on a patch (400), as the
            // REST face does
            ItemResult r = execute(store, value(store, partitionKey),
                    ItemOperation.patch(itemId, operations.operations(), ifMatch(options)), options);
            return new CosmosItemResponse<>(r, codec(), itemType, withContent(options));
        });
    }

    /** Runs a transactional batch: every operation or none (the failed one keeps its status, the rest get 424). */
    public CosmosBatchResponse executeCosmosBatch(CosmosBatch batch) {
        return CosmosException.call(() -> {
            ContainerStore store = store();
            List<ItemOperation> ops = new ArrayList<>();
            for (CosmosItemOperation o : batch.getOperations()) {
                ops.add(toOperation((CosmosBatch.Op) o));
            }
            List<ItemResult> results = store.executeBatch(value(store, batch.getPartitionKeyValue()), ops);
            List<CosmosBatchOperationResult> out = new ArrayList<>();
            for (int i = 0; i < results.size(); i++) {
                out.add(new CosmosBatchOperationResult(results.get(i), batch.getOperations().get(i), codec()));
            }
            return new CosmosBatchResponse(out);
        });
    }

    // ---- queries -----------------------------------------------------------------------------------------------

    public <T> CosmosPagedIterable<T> queryItems(String query, CosmosQueryRequestOptions options, Class<T> type) {
        return queryItems(new SqlQuerySpec(query), options, type);
    }

    /**
     * Runs a Cosmos SQL query, lazily, page by page. Continuation tokens are stateless (a storage position, or the
     * offset for queries that sort in memory, group or de-duplicate), so they stay valid across restarts and
     * partition splits.
     */
    public <T> CosmosPagedIterable<T> queryItems(SqlQuerySpec spec, CosmosQueryRequestOptions options, Class<T> type) {
        io.tetradb.core.query.sql.SqlQuery parsed = CosmosException.call(
                () -> io.tetradb.core.query.sql.SqlParser.parse(spec.getQueryText()));
        Map<String, JsonNode> parameters = new java.util.LinkedHashMap<>();
        for (SqlParameter p : spec.getParameters()) {
            parameters.put(p.getName(), p.toJson());
        }
        CosmosQueryRequestOptions o = options == null ? new CosmosQueryRequestOptions() : options;
        int pageSize = o.getMaxItemCount() == null || o.getMaxItemCount() <= 0 ? 100 : o.getMaxItemCount();
        return new CosmosPagedIterable<>((continuation, size) -> CosmosException.call(() -> {
            ContainerStore store = store();
            ContainerQuery.Page page = store.queryPage(parsed, parameters,
                    o.getPartitionKey() == null ? null : value(store, o.getPartitionKey()),
                    o.getFeedRange() == null ? null : o.getFeedRange().range(), continuation, size, MAX_PAGE_BYTES,
                    ConsistencyLevel.core(o.getConsistencyLevel()));
            List<T> results = new ArrayList<>(page.results().size());
            for (JsonNode n : page.results()) {
                results.add(convert(n, type));
            }
            return new FeedResponse<>(results, page.continuation(), page.requestCharge(),
                    new QueryMetrics(page.documentsLoaded(), page.bytesLoaded(), page.results().size(),
                            page.indexHits(), page.elapsedNanos()), page.access(),
                    Boolean.TRUE.equals(o.isIndexMetricsEnabled()) ? page.indexMetrics().get() : null,
                    Boolean.TRUE.equals(o.isExplain()) ? page.explain().get() : null);
        }), pageSize);
    }

    /** Cosmos DB's response-size cap for one page of query results. */
    static final long MAX_PAGE_BYTES = 4L * 1024 * 1024;

    private <T> T convert(JsonNode node, Class<T> type) {
        if (type.isInstance(node)) {
            return type.cast(node);
        }
        try {
            return codec().mapper().treeToValue(node, type);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new StoreException(Status.BAD_REQUEST, "a query result cannot be read as " + type.getName()
                    + ": " + e.getOriginalMessage());
        }
    }

    // ---- change feed -------------------------------------------------------------------------------------------

    /**
     * Reads the container's change feed page by page, as azure-cosmos' {@code queryChangeFeed}: the iteration ends
     * when the feed has nothing newer; the last page's {@link FeedResponse#getContinuationToken()} resumes it later
     * (also after a restart or a partition split). In latest-version mode each result is the item (with {@code _lsn});
     * with {@link CosmosChangeFeedRequestOptions#allVersionsAndDeletes()} it is {@code {current, previous, metadata}}.
     */
    public <T> CosmosPagedIterable<T> queryChangeFeed(CosmosChangeFeedRequestOptions options, Class<T> type) {
        if (options == null) {
            throw new NullPointerException("Argument 'options' must not be null.");
        }
        ChangeFeedContinuation first = CosmosException.call(() -> startOf(options));
        return new CosmosPagedIterable<>((continuation, size) -> CosmosException.call(() -> {
            ChangeFeedContinuation at = continuation == null ? first
                    : ChangeFeedContinuation.decode(continuation, cursorTokens());
            return readChangeFeed(at, size, type);
        }), options.getMaxItemCount());
    }

    /** The store's codec of large feed cursors (stored in the metadata, valid on every server): lease-cursor hook. */
    io.tetradb.core.feed.FeedCursorTokens cursorTokens() {
        return store().changeFeed().cursorTokens();
    }

    ChangeFeedContinuation startOf(CosmosChangeFeedRequestOptions o) {
        ContainerStore store = store();
        io.tetradb.core.feed.ChangeFeedMode mode = o.isAllVersionsAndDeletes()
                ? io.tetradb.core.feed.ChangeFeedMode.ALL_VERSIONS_AND_DELETES
                : io.tetradb.core.feed.ChangeFeedMode.LATEST_VERSION;
        if (o.start() == CosmosChangeFeedRequestOptions.Start.CONTINUATION) {
            ChangeFeedContinuation c = ChangeFeedContinuation.decode(o.continuation(), cursorTokens());
            if (!c.containerRid().equals(store.definition().rid())) {
                throw new StoreException(Status.BAD_REQUEST, "the continuation token belongs to another container");
            }
            return c;
        }
        FeedRange range = o.getFeedRange();
        PartitionKeyValue pk = range.partitionKey() == null ? null : range.partitionKey()
                .toValue(store.definition().partitionKey().levels());
        long position = o.start() == CosmosChangeFeedRequestOptions.Start.NOW ? store.changeFeed().currentPosition() : 0;
        long since = o.start() == CosmosChangeFeedRequestOptions.Start.POINT_IN_TIME ? o.pointInTime().toEpochMilli() : 0;
        io.tetradb.core.feed.FeedCursor cursor = null;
        if (store.changeFeed().readsPerPartition()) { // feed-per-partition hook: positions per logical partition
            cursor = o.start() == CosmosChangeFeedRequestOptions.Start.NOW
                    ? store.changeFeed().cursorAtNow(new io.tetradb.core.feed.ChangeFeedRequest(mode, range.range(),
                    pk, 0, 0, 1)) : io.tetradb.core.feed.FeedCursor.beginning();
        }
        return new ChangeFeedContinuation(store.definition().rid(), mode, range.range(), pk, position, since, cursor);
    }

    private <T> FeedResponse<T> readChangeFeed(ChangeFeedContinuation at, int size, Class<T> type) {
        ChangeFeedBatch<T> b = readChangeFeedBatch(at, size, type);
        FeedResponse<T> response = new FeedResponse<>(b.results(), b.next().encode(cursorTokens()), b.requestCharge(), b.metrics(),
                "changeFeed", null, null);
        response.drained = b.drained();
        return response;
    }

    /** One change feed page with its continuation as an object (the processor encodes it only to checkpoint). */
    <T> ChangeFeedBatch<T> readChangeFeedBatch(ChangeFeedContinuation at, int size, Class<T> type) {
        ContainerStore store = store();
        long started = System.nanoTime();
        io.tetradb.core.store.ChargedChangeFeedPage charged = store.readChangeFeed(
                new io.tetradb.core.feed.ChangeFeedRequest(at.mode(), at.range(), at.partitionKey(), at.position(),
                        at.notBeforeMillis(), size, at.cursor()), null);
        io.tetradb.core.feed.ChangeFeedPage page = charged.page();
        List<T> results = new ArrayList<>(page.changes().size());
        long bytes = 0;
        for (io.tetradb.core.feed.ChangeFeedPage.Change c : page.changes()) {
            // item trees with their typed values, as point reads and queries give them
            JsonNode node = at.mode() == io.tetradb.core.feed.ChangeFeedMode.LATEST_VERSION
                    ? io.tetradb.core.feed.ChangeFeedJson.latestVersionItem(codec().mapper(), c)
                    : io.tetradb.core.feed.ChangeFeedJson.allVersionsItem(codec().mapper(), c,
                    store.definition().partitionKey());
            bytes += c.size();
            results.add(convert(node, type));
        }
        ChangeFeedContinuation next = new ChangeFeedContinuation(at.containerRid(), at.mode(), at.range(),
                at.partitionKey(), page.continuation(), at.notBeforeMillis(), page.cursor());
        return new ChangeFeedBatch<>(results, next, charged.requestCharge(),
                new QueryMetrics(results.size(), bytes, results.size(), 0, System.nanoTime() - started),
                page.caughtUp());
    }

    /**
     * How many changes follow {@code at} now (the change feed processor's estimated lag): read page by page as a
     * reader would (metered alike), counted without building the items' trees.
     */
    int countChangesAfter(ChangeFeedContinuation at) {
        ContainerStore store = store();
        int n = 0;
        while (true) {
            io.tetradb.core.feed.ChangeFeedPage page = store.readChangeFeed(new io.tetradb.core.feed.ChangeFeedRequest(
                    at.mode(), at.range(), at.partitionKey(), at.position(), at.notBeforeMillis(), 1000, at.cursor()),
                    null).page();
            n += page.changes().size();
            boolean moved = page.continuation() != at.position() || !java.util.Objects.equals(page.cursor(), at.cursor());
            if (page.caughtUp() || !moved) {
                return n;
            }
            at = new ChangeFeedContinuation(at.containerRid(), at.mode(), at.range(), at.partitionKey(),
                    page.continuation(), at.notBeforeMillis(), page.cursor());
        }
    }

    /** One feed range per physical partition, in EPK order. */
    public List<FeedRange> getFeedRanges() {
        return CosmosException.call(() -> store().partitionMap().partitions().stream()
                .map(PhysicalPartition::range).map(FeedRange::new).toList());
    }

    /** TetraDB extension: what the partition storage page shows for this container. */
    public PartitionStatistics readPartitionStatistics() {
        return CosmosException.call(() -> store().statistics());
    }

    // ---- helpers -----------------------------------------------------------------------------------------------

    private interface OperationFactory {
        ItemOperation make(ObjectNode item);
    }

    @SuppressWarnings("unchecked")
    private <T> CosmosItemResponse<T> write(T item, PartitionKey partitionKey, CosmosItemRequestOptions options,
                                            OperationFactory factory) {
        return CosmosException.call(() -> {
            ContainerStore store = store();
            ObjectNode node = toNode(item);
            PartitionKeyValue pk = partitionKey == null ? store.partitionKeyOf(node) : value(store, partitionKey);
            ItemResult r = execute(store, pk, factory.make(node), options);
            return new CosmosItemResponse<>(r, codec(), (Class<T>) item.getClass(), withContent(options));
        });
    }

    /** One write, through the request's pre/post triggers when it names any (one transaction with them). */
    private static ItemResult execute(ContainerStore store, PartitionKeyValue pk, ItemOperation op,
                                      CosmosItemRequestOptions options) {
        String pre = options == null ? null : single(options.getPreTriggerInclude(), "pre");
        String post = options == null ? null : single(options.getPostTriggerInclude(), "post");
        if (pre == null && post == null) {
            return store.execute(pk, op);
        }
        var e = store.scripts().writeWithTriggers(pk, op, pre, post);
        ItemResult r = e.item();
        return new ItemResult(r.type(), r.id(), r.status(), r.stored(), r.etag(), e.requestCharge(), r.error());
    }

    private static String single(List<String> triggers, String kind) {
        if (triggers == null || triggers.isEmpty()) {
            return null;
        }
        if (triggers.size() > 1) {
            throw new StoreException(Status.BAD_REQUEST, "at most one " + kind + "-trigger can be included in a "
                    + "request, got " + triggers);
        }
        return triggers.get(0);
    }

    private ItemOperation toOperation(CosmosBatch.Op o) {
        String ifMatch = o.options == null ? null : o.options.getIfMatchETag();
        return switch (o.type) {
            case CREATE -> ItemOperation.create(toNode(o.item));
            case UPSERT -> ItemOperation.upsert(toNode(o.item), ifMatch);
            case REPLACE -> ItemOperation.replace(o.id, toNode(o.item), ifMatch);
            case DELETE -> ItemOperation.delete(o.id, ifMatch);
            case READ -> ItemOperation.read(o.id, o.options == null ? null : o.options.getIfNoneMatchETag());
            case PATCH -> ItemOperation.patch(o.id, o.patch.operations(), ifMatch);
        };
    }

    private boolean withContent(CosmosItemRequestOptions options) {
        Boolean b = options == null ? null : options.isContentResponseOnWriteEnabled();
        return b != null ? b : client.contentResponseOnWriteEnabled();
    }

    private static String ifMatch(CosmosItemRequestOptions options) {
        return options == null ? null : options.getIfMatchETag();
    }

    private static PartitionKeyValue value(ContainerStore store, PartitionKey pk) {
        if (pk == null) {
            throw new StoreException(Status.BAD_REQUEST, "a partition key is required");
        }
        return pk.toValue(store.definition().partitionKey().levels());
    }

    private ObjectNode toNode(Object item) {
        if (item == null) {
            throw new StoreException(Status.BAD_REQUEST, "the item is null");
        }
        if (item instanceof ObjectNode n) {
            return n;
        }
        JsonNode tree = codec().mapper().valueToTree(item);
        if (!(tree instanceof ObjectNode n)) {
            throw new StoreException(Status.BAD_REQUEST, "an item must be a JSON object, not " + tree.getNodeType());
        }
        return n;
    }
}
