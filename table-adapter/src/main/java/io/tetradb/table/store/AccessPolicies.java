package io.tetradb.table.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.CoreStore;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.core.store.ItemResult;
import io.tetradb.table.model.TableException;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The stored access policies of an account's tables ({@code ?comp=acl}), kept in the core like everything else: one
 * item per table in the account database's container {@code system.tables} (a name no table can have, and hidden from
 * the table listing and from the Mongo face's, which hides {@code system.*}). The item records the table container's
 * resource id, so a table deleted and created again (through any face) starts without policies, as in Azure.
 */
public final class AccessPolicies {
    static final String CONTAINER = "system.tables";
    /** Azure keeps at most five signed identifiers per table. */
    public static final int MAX_IDENTIFIERS = 5;
    private static final ObjectMapper M = new ObjectMapper();

    private final CoreStore core;
    private final String account;

    AccessPolicies(CoreStore core, String account) {
        this.core = core;
        this.account = account;
    }

    /** One stored access policy; null fields are not set by the policy (the SAS may give them). */
    public record SignedIdentifier(String id, String start, String expiry, String permission) {
    }

    static boolean isSystem(String containerName) {
        return containerName.toLowerCase(Locale.ROOT).startsWith("system.");
    }

    /** The table's policies in the order they were set; empty when none were. */
    public List<SignedIdentifier> get(Table table) {
        ContainerStore c = container(false);
        if (c == null) {
            return List.of();
        }
        ObjectNode item;
        try {
            ItemResult r = c.read(key(table), table.name().toLowerCase(Locale.ROOT), null);
            item = c.codec().parse(r.stored());
        } catch (StoreException e) {
            if (e.status() == 404) {
                return List.of();
            }
            throw e;
        }
        if (!item.path("tableRid").asText().equals(table.container().definition().rid())) {
            return List.of(); // the policies of an earlier table of that name
        }
        List<SignedIdentifier> out = new ArrayList<>();
        for (JsonNode n : item.path("identifiers")) {
            out.add(new SignedIdentifier(n.path("id").asText(), text(n, "start"), text(n, "expiry"),
                    text(n, "permission")));
        }
        return out;
    }

    /** Replaces the table's policies (an empty list removes them all). */
    public void set(Table table, List<SignedIdentifier> identifiers) {
        if (identifiers.size() > MAX_IDENTIFIERS) {
            throw TableException.invalidInput("a table has at most " + MAX_IDENTIFIERS
                    + " stored access policies; the request sets " + identifiers.size());
        }
        ContainerStore c = container(true);
        ObjectNode item = M.createObjectNode();
        item.put("id", table.name().toLowerCase(Locale.ROOT));
        item.put("table", table.name().toLowerCase(Locale.ROOT));
        item.put("tableRid", table.container().definition().rid());
        ArrayNode list = item.putArray("identifiers");
        for (SignedIdentifier s : identifiers) {
            ObjectNode n = list.addObject();
            n.put("id", s.id());
            n.put("start", s.start());
            n.put("expiry", s.expiry());
            n.put("permission", s.permission());
        }
        c.execute(key(table), ItemOperation.upsert(item, null));
    }

    /** Forgets a deleted table's policies. */
    void forget(String tableName) {
        ContainerStore c = container(false);
        if (c == null) {
            return;
        }
        String name = tableName.toLowerCase(Locale.ROOT);
        try {
            c.execute(PartitionKeyValue.of(TextNode.valueOf(name)), ItemOperation.delete(name, null));
        } catch (StoreException e) {
            if (e.status() != 404) {
                throw e;
            }
        }
    }

    private static PartitionKeyValue key(Table table) {
        return PartitionKeyValue.of(TextNode.valueOf(table.name().toLowerCase(Locale.ROOT)));
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private ContainerStore container(boolean create) {
        return core.metadataContainer(account, CONTAINER, PartitionKeyDefinition.of("/table"), create);
    }
}
