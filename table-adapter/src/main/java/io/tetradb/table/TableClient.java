package io.tetradb.table;

import io.tetradb.table.filter.FilterParser;
import io.tetradb.table.model.Entity;
import io.tetradb.table.model.TableException;
import io.tetradb.table.store.Table;
import io.tetradb.table.store.TableService;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;

/**
 * The entities of one table, embedded over the core (the shape of the Azure SDK's sync {@code TableClient}). Every
 * failure is a {@link TableServiceException} with the status and error code the REST service would answer.
 */
public final class TableClient {
    private final TableService service;
    private final String tableName;

    TableClient(TableService service, String tableName) {
        this.service = service;
        this.tableName = tableName;
    }

    public String getTableName() {
        return tableName;
    }

    public String getAccountName() {
        return service.account();
    }

    private Table table() {
        return service.table(tableName);
    }

    /** Creates this table; 409 TableAlreadyExists. */
    public TableItem createTable() {
        return call(() -> new TableItem(service.createTable(tableName).name()));
    }

    public void deleteTable() {
        call(() -> {
            service.deleteTable(tableName);
            return null;
        });
    }

    /** Inserts; 409 EntityAlreadyExists. */
    public void createEntity(TableEntity entity) {
        call(() -> table().insert(entity.toModel()));
    }

    /** Insert or replace. */
    public void upsertEntity(TableEntity entity) {
        upsertEntity(entity, TableEntityUpdateMode.MERGE);
    }

    /** Insert, or merge into / replace the stored entity. */
    public void upsertEntity(TableEntity entity, TableEntityUpdateMode mode) {
        call(() -> mode == TableEntityUpdateMode.REPLACE ? table().upsert(entity.toModel())
                : table().merge(entity.toModel(), null, true));
    }

    /** Merges into the stored entity; 404 if there is none. */
    public void updateEntity(TableEntity entity) {
        updateEntity(entity, TableEntityUpdateMode.MERGE, false);
    }

    public void updateEntity(TableEntity entity, TableEntityUpdateMode mode) {
        updateEntity(entity, mode, false);
    }

    /**
     * Updates the stored entity (404 if there is none); with {@code ifUnchanged} only if its ETag is still
     * {@code entity.getETag()} (412 UpdateConditionNotSatisfied otherwise).
     */
    public void updateEntity(TableEntity entity, TableEntityUpdateMode mode, boolean ifUnchanged) {
        String ifMatch = ifUnchanged && entity.getETag() != null ? entity.getETag() : "*";
        call(() -> mode == TableEntityUpdateMode.REPLACE ? table().update(entity.toModel(), ifMatch)
                : table().merge(entity.toModel(), ifMatch, false));
    }

    /** 404 ResourceNotFound when absent. */
    public TableEntity getEntity(String partitionKey, String rowKey) {
        return call(() -> TableEntity.fromModel(table().get(partitionKey, rowKey).entity()));
    }

    /** The entity with only the {@code select}ed properties (null: all). */
    public TableEntity getEntity(String partitionKey, String rowKey, List<String> select) {
        return select(getEntity(partitionKey, rowKey), select);
    }

    public void deleteEntity(String partitionKey, String rowKey) {
        call(() -> table().delete(partitionKey, rowKey, "*"));
    }

    /** Deletes; with {@code ifUnchanged} only if the stored ETag is still {@code entity.getETag()}. */
    public void deleteEntity(TableEntity entity, boolean ifUnchanged) {
        String ifMatch = ifUnchanged && entity.getETag() != null ? entity.getETag() : "*";
        call(() -> table().delete(entity.getPartitionKey(), entity.getRowKey(), ifMatch));
    }

    public TablePagedIterable listEntities() {
        return listEntities(new ListEntitiesOptions());
    }

    /** Entities matching the options' filter, in PartitionKey then RowKey order, fetched page by page. */
    public TablePagedIterable listEntities(ListEntitiesOptions options) {
        var filter = options.getFilter() == null || options.getFilter().isBlank() ? null
                : call(() -> FilterParser.parse(options.getFilter()));
        int top = options.getTop() == null ? Table.MAX_PAGE : options.getTop();
        if (top < 1 || top > Table.MAX_PAGE) {
            throw new TableServiceException(400, "InvalidInput", "top must be from 1 to 1000");
        }
        return new TablePagedIterable(token -> call(() -> {
            Table.Page page = table().query(filter, top, token);
            List<TableEntity> out = new ArrayList<>();
            page.entities().forEach(e -> out.add(select(TableEntity.fromModel(e), options.getSelect())));
            return new TablePagedIterable.Page(out, page.continuation());
        }));
    }

    /**
     * Runs the actions atomically (one PartitionKey, ≤ 100 actions, each entity once); a failure throws
     * {@link TableTransactionFailedException} naming the failed action, and nothing is applied.
     */
    public void submitTransaction(List<TableTransactionAction> actions) {
        List<Table.BatchOperation> ops = new ArrayList<>();
        for (TableTransactionAction a : actions) {
            Entity e = a.entity().toModel();
            String ifMatch = a.ifUnchanged() && a.entity().getETag() != null ? a.entity().getETag() : "*";
            ops.add(switch (a.actionType()) {
                case CREATE -> new Table.BatchOperation(Table.BatchOperation.Kind.INSERT, e, null);
                case UPSERT_MERGE -> new Table.BatchOperation(Table.BatchOperation.Kind.UPSERT_MERGE, e, null);
                case UPSERT_REPLACE -> new Table.BatchOperation(Table.BatchOperation.Kind.UPSERT_REPLACE, e, null);
                case UPDATE_MERGE -> new Table.BatchOperation(Table.BatchOperation.Kind.MERGE, e, ifMatch);
                case UPDATE_REPLACE -> new Table.BatchOperation(Table.BatchOperation.Kind.UPDATE, e, ifMatch);
                case DELETE -> new Table.BatchOperation(Table.BatchOperation.Kind.DELETE, e, ifMatch);
            });
        }
        try {
            table().batch(ops);
        } catch (Table.BatchFailure f) {
            throw new TableTransactionFailedException(f.status(), f.errorCode(), f.index() + ":" + f.getMessage(),
                    f.index());
        } catch (TableException e) {
            throw TableServiceException.of(e);
        }
    }

    private static TableEntity select(TableEntity e, List<String> select) {
        if (select == null) {
            return e;
        }
        Set<String> keep = Set.copyOf(select);
        LinkedHashMap<String, Object> props = new LinkedHashMap<>();
        e.getProperties().forEach((k, v) -> {
            if (keep.contains(k)) {
                props.put(k, v);
            }
        });
        e.setProperties(props);
        return e;
    }

    static <T> T call(java.util.function.Supplier<T> op) {
        try {
            return op.get();
        } catch (TableException e) {
            throw TableServiceException.of(e);
        }
    }
}
