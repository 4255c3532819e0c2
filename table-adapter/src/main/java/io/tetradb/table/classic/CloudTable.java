package io.tetradb.table.classic;

import io.tetradb.table.ListEntitiesOptions;
import io.tetradb.table.TableClient;
import io.tetradb.table.TableEntity;
import io.tetradb.table.TableEntityUpdateMode;
import io.tetradb.table.TableServiceClient;
import io.tetradb.table.TableServiceException;
import io.tetradb.table.TableTransactionAction;
import io.tetradb.table.TableTransactionActionType;
import io.tetradb.table.TableTransactionFailedException;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** One table in the classic API; every call maps onto {@link TableClient}. */
public final class CloudTable {
    private final TableServiceClient service;
    private final TableClient table;

    CloudTable(TableServiceClient service, String name) {
        this.service = service;
        this.table = service.getTableClient(name);
    }

    public String getName() {
        return table.getTableName();
    }

    /** Creates the table if it does not exist; true when it was created. */
    public boolean createIfNotExists() {
        return createIfNotExists(null);
    }

    /** Creates the table with provisioned throughput (RU/s; null: none) if it does not exist. */
    public boolean createIfNotExists(Integer throughput) {
        try {
            if (throughput == null) {
                table.createTable();
            } else {
                service.createTable(getName(), throughput);
            }
            return true;
        } catch (TableServiceException e) {
            if (e.getStatusCode() == 409) {
                return false;
            }
            throw classic(e);
        }
    }

    public boolean exists() {
        return service.listTables().stream().anyMatch(t -> t.getName().equalsIgnoreCase(getName()));
    }

    public boolean deleteIfExists() {
        try {
            table.deleteTable();
            return true;
        } catch (TableServiceException e) {
            if (e.getStatusCode() == 404) {
                return false;
            }
            throw classic(e);
        }
    }

    public TableResult execute(TableOperation op) {
        try {
            TableServiceEntity e = op.entity();
            switch (op.getOperationType()) {
                case RETRIEVE -> {
                    try {
                        TableEntity found = table.getEntity(op.partitionKey(), op.rowKey());
                        return new TableResult(200, EntityMapper.fromEntity(found, op.resultType()), found.getETag());
                    } catch (TableServiceException notFound) {
                        if (notFound.getStatusCode() == 404) {
                            return new TableResult(404, null, null);
                        }
                        throw notFound;
                    }
                }
                case INSERT -> table.createEntity(EntityMapper.toEntity(e));
                case INSERT_OR_REPLACE -> table.upsertEntity(EntityMapper.toEntity(e), TableEntityUpdateMode.REPLACE);
                case INSERT_OR_MERGE -> table.upsertEntity(EntityMapper.toEntity(e), TableEntityUpdateMode.MERGE);
                case REPLACE -> table.updateEntity(withEtag(e), TableEntityUpdateMode.REPLACE, conditional(e));
                case MERGE -> table.updateEntity(withEtag(e), TableEntityUpdateMode.MERGE, conditional(e));
                case DELETE -> {
                    table.deleteEntity(withEtag(e), conditional(e));
                    return new TableResult(204, e, null);
                }
                default -> throw new IllegalStateException();
            }
            TableEntity stored = table.getEntity(e.getPartitionKey(), e.getRowKey());
            e.setEtag(stored.getETag());
            e.setTimestamp(java.util.Date.from(stored.getTimestamp().toInstant()));
            return new TableResult(op.getOperationType() == TableOperation.Type.INSERT ? 201 : 204, e, stored.getETag());
        } catch (TableServiceException ex) {
            throw classic(ex);
        }
    }

    /** Applies every operation or none (one PartitionKey). */
    public List<TableResult> execute(TableBatchOperation batch) {
        List<TableTransactionAction> actions = new ArrayList<>();
        for (TableOperation op : batch) {
            TableServiceEntity e = op.entity();
            if (e == null) {
                throw new StorageException(400, "InvalidInput", "a batch cannot hold a retrieve here");
            }
            actions.add(switch (op.getOperationType()) {
                case INSERT -> new TableTransactionAction(TableTransactionActionType.CREATE, EntityMapper.toEntity(e));
                case INSERT_OR_REPLACE -> new TableTransactionAction(TableTransactionActionType.UPSERT_REPLACE,
                        EntityMapper.toEntity(e));
                case INSERT_OR_MERGE -> new TableTransactionAction(TableTransactionActionType.UPSERT_MERGE,
                        EntityMapper.toEntity(e));
                case REPLACE -> new TableTransactionAction(TableTransactionActionType.UPDATE_REPLACE, withEtag(e),
                        conditional(e));
                case MERGE -> new TableTransactionAction(TableTransactionActionType.UPDATE_MERGE, withEtag(e),
                        conditional(e));
                case DELETE -> new TableTransactionAction(TableTransactionActionType.DELETE, withEtag(e), conditional(e));
                default -> throw new IllegalStateException();
            });
        }
        try {
            table.submitTransaction(actions);
        } catch (TableTransactionFailedException f) {
            throw new StorageException(f.getStatusCode(), f.getErrorCode(), f.getMessage());
        } catch (TableServiceException e) {
            throw classic(e);
        }
        List<TableResult> results = new ArrayList<>();
        for (TableOperation op : batch) {
            results.add(new TableResult(op.getOperationType() == TableOperation.Type.INSERT ? 201 : 204, op.entity(), null));
        }
        return results;
    }

    /** The query's results in PartitionKey, RowKey order, fetched page by page. */
    public <T extends TableServiceEntity> Iterable<T> execute(TableQuery<T> query) {
        ListEntitiesOptions options = new ListEntitiesOptions().setFilter(query.getFilterString())
                .setSelect(query.columns());
        try {
            var results = table.listEntities(options).stream();
            if (query.take() != null) {
                results = results.limit(query.take());
            }
            return results.map(e -> EntityMapper.fromEntity(e, query.getClazzType())).collect(Collectors.toList());
        } catch (TableServiceException e) {
            throw classic(e);
        }
    }

    private static TableEntity withEtag(TableServiceEntity e) {
        TableEntity entity = EntityMapper.toEntity(e);
        return e.getEtag() == null ? entity : etagged(entity, e.getEtag());
    }

    private static boolean conditional(TableServiceEntity e) {
        return e.getEtag() != null && !e.getEtag().equals("*");
    }

    private static TableEntity etagged(TableEntity e, String etag) {
        return e.setETag(etag);
    }

    private static StorageException classic(TableServiceException e) {
        return new StorageException(e.getStatusCode(), e.getErrorCode(), e.getMessage());
    }
}
