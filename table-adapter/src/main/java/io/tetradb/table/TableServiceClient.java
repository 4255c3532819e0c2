package io.tetradb.table;

import io.tetradb.document.CosmosClient;
import io.tetradb.table.filter.FilterParser;
import io.tetradb.table.model.TableException;
import io.tetradb.table.store.Table;
import io.tetradb.table.store.TableService;

import java.util.ArrayList;
import java.util.List;

/**
 * The tables of one account, embedded over the core (the shape of the Azure SDK's sync {@code TableServiceClient}).
 * Built by {@link TableServiceClientBuilder}; {@link #close()} closes the store only when the builder opened it.
 */
public final class TableServiceClient implements AutoCloseable {
    private final CosmosClient client;
    private final boolean ownsClient;
    private final TableService service;

    TableServiceClient(CosmosClient client, boolean ownsClient, String account) {
        this.client = client;
        this.ownsClient = ownsClient;
        this.service = new TableService(client, account);
    }

    public String getAccountName() {
        return service.account();
    }

    /** Creates a table; 409 TableAlreadyExists. */
    public TableClient createTable(String tableName) {
        TableClient.call(() -> service.createTable(tableName));
        return getTableClient(tableName);
    }

    /** Creates a table with provisioned throughput (RU/s: its initial physical partitions, as for containers). */
    public TableClient createTable(String tableName, int throughput) {
        TableClient.call(() -> service.createTable(tableName, throughput));
        return getTableClient(tableName);
    }

    /** Creates the table unless one of that name (in any case) exists. */
    public TableClient createTableIfNotExists(String tableName) {
        try {
            return createTable(tableName);
        } catch (TableServiceException e) {
            if (e.getStatusCode() != 409) {
                throw e;
            }
            return getTableClient(tableName);
        }
    }

    public void deleteTable(String tableName) {
        TableClient.call(() -> {
            service.deleteTable(tableName);
            return null;
        });
    }

    /** A client for the table (which need not exist yet). */
    public TableClient getTableClient(String tableName) {
        return new TableClient(service, tableName);
    }

    public List<TableItem> listTables() {
        return listTables(null);
    }

    /** Tables in name order; {@code filter} is an OData filter on {@code TableName} (null: all). */
    public List<TableItem> listTables(String filter) {
        try {
            var parsed = filter == null ? null : FilterParser.parse(filter);
            List<TableItem> out = new ArrayList<>();
            String next = null;
            do {
                TableService.TablePage page = service.listTables(parsed, Table.MAX_PAGE, next);
                page.names().forEach(n -> out.add(new TableItem(n)));
                next = page.nextTableName();
            } while (next != null);
            return out;
        } catch (TableException e) {
            throw TableServiceException.of(e);
        }
    }

    /** The document-face client underneath (the same store). */
    public CosmosClient getCosmosClient() {
        return client;
    }

    @Override
    public void close() {
        if (ownsClient) {
            client.close();
        }
    }
}
