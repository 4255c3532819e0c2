package io.tetradb.table.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.store.ContainerDefinition;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.CoreStore;
import io.tetradb.document.CosmosClient;
import io.tetradb.table.filter.Filter;
import io.tetradb.table.filter.FilterEvaluator;
import io.tetradb.table.model.EdmValue;
import io.tetradb.table.model.EntityRules;
import io.tetradb.table.model.TableException;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The tables of one storage account. An account is one core database named like the account (e.g.
 * {@code devstoreaccount1}); a table is a container of it with partition key {@code /PartitionKey}, every path
 * indexed (Cosmos DB for Table's behaviour: a filter on any property is an index seek) plus a composite index
 * {@code (/PartitionKey ASC, /id ASC)} that serves the Tables order (PartitionKey, then RowKey) page by page.
 * So another face reads a table as {@code client.getDatabase("devstoreaccount1").getContainer("people")}.
 *
 * <p>Table names are case-insensitive, as in Azure, and keep the case they were created with.
 */
public final class TableService {
    private static final ObjectMapper M = new ObjectMapper();

    private final CoreStore core;
    private final String account;
    /** lower-case name → the open table; refreshed from the core when missing or deleted. */
    private final Map<String, Table> tables = new ConcurrentHashMap<>();
    private final Object ddl = new Object();
    private final AccessPolicies policies;

    public TableService(CosmosClient client, String account) {
        this.core = client.coreStore();
        this.account = account;
        this.policies = new AccessPolicies(core, account);
    }

    /** The stored access policies of this account's tables. */
    public AccessPolicies accessPolicies() {
        return policies;
    }

    public String account() {
        return account;
    }

    /** Creates a table; 409 TableAlreadyExists when one of that name (in any case) exists. */
    public Table createTable(String name) {
        return createTable(name, null);
    }

    /**
     * Creates a table with provisioned throughput (RU/s, null: none), which sets its initial physical partitions
     * as for any container ({@code ceil(RU/s / 10000)}).
     */
    public Table createTable(String name, Integer throughput) {
        EntityRules.checkTableName(name);
        synchronized (ddl) {
            ensureDatabase();
            if (find(name) != null) {
                throw new TableException(409, "TableAlreadyExists", "The table specified already exists.");
            }
            try {
                ContainerStore c = core.createContainer(account, name, PartitionKeyDefinition.of("/PartitionKey"),
                        indexingPolicy(), null, throughput, null);
                Table t = new Table(name, c);
                tables.put(key(name), t);
                return t;
            } catch (StoreException e) {
                if (e.status() == 409) { // created meanwhile through another face
                    throw new TableException(409, "TableAlreadyExists", "The table specified already exists.");
                }
                throw Table.translate(e);
            }
        }
    }

    /** Deletes a table with its entities; 404 TableNotFound. */
    public void deleteTable(String name) {
        synchronized (ddl) {
            Table t = table(name);
            tables.remove(key(name));
            policies.forget(t.name());
            try {
                core.deleteContainer(account, t.name());
            } catch (StoreException e) {
                if (e.status() == 404) { // deleted meanwhile through another face
                    throw new TableException(404, "TableNotFound", "The table specified does not exist.");
                }
                throw Table.translate(e);
            }
        }
    }

    /** The table, or 404 TableNotFound. */
    public Table table(String name) {
        Table t = find(name);
        if (t == null) {
            throw new TableException(404, "TableNotFound", "The table specified does not exist.");
        }
        return t;
    }

    /** Table names in name order (case-insensitive), filtered on {@code TableName}, from {@code after} on. */
    public TablePage listTables(Filter filter, int top, String from) {
        List<String> names = new ArrayList<>();
        if (hasDatabase()) {
            for (ContainerDefinition d : core.listContainers(account)) {
                if (!AccessPolicies.isSystem(d.id())) {
                    names.add(d.id());
                }
            }
        }
        names.sort(Comparator.comparing((String s) -> s.toLowerCase(Locale.ROOT)).thenComparing(s -> s));
        List<String> out = new ArrayList<>();
        for (String n : names) {
            if (from != null && n.compareToIgnoreCase(from) < 0) {
                continue;
            }
            if (filter != null && !FilterEvaluator.matches(filter,
                    p -> p.equals("TableName") ? EdmValue.string(n) : null)) {
                continue;
            }
            if (out.size() == top) {
                return new TablePage(out, n);
            }
            out.add(n);
        }
        return new TablePage(out, null);
    }

    /** One page of table names and the name the next page starts at (null on the last page). */
    public record TablePage(List<String> names, String nextTableName) {
    }

    private Table find(String name) {
        if (name == null) {
            return null;
        }
        Table t = tables.get(key(name));
        if (t != null && !t.container().isDeleted()) {
            return t;
        }
        tables.remove(key(name));
        if (!hasDatabase()) {
            return null;
        }
        for (ContainerDefinition d : core.listContainers(account)) {
            if (d.id().equalsIgnoreCase(name) && !AccessPolicies.isSystem(d.id())) {
                Table found = new Table(d.id(), core.container(account, d.id()));
                tables.put(key(name), found);
                return found;
            }
        }
        return null;
    }

    private boolean hasDatabase() {
        try {
            core.readDatabase(account);
            return true;
        } catch (StoreException e) {
            return false;
        }
    }

    private void ensureDatabase() {
        if (!hasDatabase()) {
            try {
                core.createDatabase(account, null);
            } catch (StoreException e) {
                if (e.status() != 409) {
                    throw e;
                }
            }
        }
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    /** Every path indexed but the type tags, and the composite index of the Tables order. */
    static ObjectNode indexingPolicy() {
        ObjectNode p = M.createObjectNode();
        p.put("indexingMode", "consistent");
        p.putArray("includedPaths").addObject().put("path", "/*");
        p.putArray("excludedPaths").addObject().put("path", "/" + EntityItems.TYPES + "/*");
        var composite = p.putArray("compositeIndexes").addArray();
        composite.addObject().put("path", "/" + EntityItems.PARTITION_KEY).put("order", "ascending");
        composite.addObject().put("path", "/id").put("order", "ascending");
        return p;
    }
}
