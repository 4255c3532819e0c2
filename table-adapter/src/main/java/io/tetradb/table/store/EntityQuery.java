package io.tetradb.table.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.query.plan.LogicalPlan;
import io.tetradb.core.query.sql.Expr;
import io.tetradb.core.query.sql.OrderByItem;
import io.tetradb.core.query.sql.Projection;
import io.tetradb.core.store.ContainerQuery;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.table.filter.Filter;
import io.tetradb.table.filter.FilterCompiler;
import io.tetradb.table.model.Entity;
import io.tetradb.table.model.TableException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * One page of a table query in Tables order (PartitionKey, then RowKey), by one of two strategies:
 * <ul>
 *   <li><b>seek, then sort</b> — when the filter has a sargable condition on a non-key property (equality or range,
 *       a top-level conjunct): the plan without a sort lets the core seek that property's index; if at most
 *       {@code seekSortLimit} entities (and 32 MiB) match, the face sorts them and returns the page from a position. The
 *       continuation is that position (the next entity's keys), so a later page is the same seek narrowed to keys
 *       from there on. Without this, a filter matching a few hundred entities of a large table would read the whole
 *       table in order.</li>
 *   <li><b>ordered read</b> — otherwise (or when the seek finds more): the plan sorts by {@code (PartitionKey, id)},
 *       which the container's composite index serves page by page (by {@code id} inside one logical partition
 *       when the filter pins the PartitionKey); the continuation is the core's stateless token.</li>
 * </ul>
 * Tokens are {@code base64url(JSON)}: {@code {"p":[pk,rk]}} (a position) or {@code {"p":…,"t":core token}}.
 */
final class EntityQuery {
    private static final ObjectMapper M = new ObjectMapper();
    /** The matches a face-side sort may hold in memory at most (more: the ordered read). */
    private static final long SEEK_SORT_MAX_BYTES = 32L << 20;
    private static final Expr D = new Expr.Identifier(FilterCompiler.ALIAS);
    private static final Expr ID = new Expr.PropertyAccess(D, "id");
    private static final Comparator<Entity> TABLES_ORDER =
            Comparator.comparing(Entity::partitionKey).thenComparing(Entity::rowKey);

    private EntityQuery() {
    }

    static Table.Page run(ContainerStore container, EntityLayout layout, Filter filter, int top, String continuation,
                          int seekSortLimit) {
        Token token = continuation == null ? new Token(null, null) : Token.decode(continuation);
        String pinned = filter == null ? null : FilterCompiler.pinnedPartitionKey(filter);
        PartitionKeyValue pk = pinned == null ? null : layout.partition(pinned);
        FilterCompiler.Compiled compiled = filter == null ? null : FilterCompiler.compile(filter, layout);
        Expr condition = compiled == null ? null : compiled.condition();
        Map<String, JsonNode> params = compiled == null ? Map.of() : compiled.parameters();
        Expr pkExpr = FilterCompiler.partitionKeyExpr(layout);
        if (token.position() != null) {
            Expr from = from(pkExpr, token.position(), pinned != null);
            condition = condition == null ? from : new Expr.Binary(Expr.BinaryOp.AND, condition, from);
        }
        try {
            // positions are entity keys; in another face's container the RowKey need not be the id: ordered reads only
            if (token.core() == null && filter != null && layout.isTables() && hasNonKeySeek(filter)) {
                ContainerQuery.Page all = container.queryPage(plan(condition, null), params, pk, null, null,
                        seekSortLimit + 1, SEEK_SORT_MAX_BYTES);
                if (all.continuation() == null && all.results().size() <= seekSortLimit) {
                    List<Entity> matches = entities(all.results(), layout);
                    matches.sort(TABLES_ORDER);
                    List<Entity> page = new ArrayList<>(matches.subList(0, Math.min(top, matches.size())));
                    String next = matches.size() > top ? new Token(keys(matches.get(top)), null).encode() : null;
                    return new Table.Page(page, next, all.requestCharge(), all.access() + ", sorted by the table face");
                }
            }
            // another face's container has no composite index of the Tables order: its items come in the core's
            // order (logical partition, then id), which is the Tables order within one partition
            List<OrderByItem> order = pinned != null ? List.of(new OrderByItem(ID, false))
                    : layout.isTables() ? List.of(new OrderByItem(pkExpr, false), new OrderByItem(ID, false)) : null;
            ContainerQuery.Page page = container.queryPage(plan(condition, order), params, pk, null, token.core(),
                    top, 4L << 20);
            String next = page.continuation() == null ? null : new Token(token.position(), page.continuation()).encode();
            return new Table.Page(entities(page.results(), layout), next, page.requestCharge(), page.access());
        } catch (StoreException e) {
            throw Table.translate(e);
        }
    }

    private static LogicalPlan plan(Expr condition, List<OrderByItem> order) {
        LogicalPlan plan = new LogicalPlan.Scan();
        plan = new LogicalPlan.Unwind(plan, FilterCompiler.ALIAS, new Expr.Identifier(LogicalPlan.ITEM), false);
        if (condition != null) {
            plan = new LogicalPlan.Filter(plan, condition);
        }
        if (order != null) {
            plan = new LogicalPlan.Sort(plan, order);
        }
        return new LogicalPlan.Project(plan, new Projection.Star(), FilterCompiler.ALIAS);
    }

    /** Entities with keys at or after {@code position}: {@code PK > p OR (PK = p AND id >= r)}. */
    private static Expr from(Expr pkExpr, List<String> position, boolean onePartition) {
        Expr idFrom = new Expr.Binary(Expr.BinaryOp.GREATER_OR_EQUAL, ID,
                new Expr.StringLiteral(RowKeys.toId(position.get(1))));
        if (onePartition) {
            return idFrom;
        }
        Expr pk = new Expr.StringLiteral(position.get(0));
        return new Expr.Binary(Expr.BinaryOp.OR, new Expr.Binary(Expr.BinaryOp.GREATER, pkExpr, pk),
                new Expr.Binary(Expr.BinaryOp.AND, new Expr.Binary(Expr.BinaryOp.EQUAL, pkExpr, pk), idFrom));
    }

    /** A top-level conjunct comparing a non-key property with eq/gt/ge/lt/le: an index seek candidate. */
    private static boolean hasNonKeySeek(Filter f) {
        if (f instanceof Filter.And a) {
            return hasNonKeySeek(a.left()) || hasNonKeySeek(a.right());
        }
        return f instanceof Filter.Comparison c && c.op() != Filter.Op.NE && !c.property().equals("PartitionKey")
                && !c.property().equals("RowKey");
    }

    private static List<Entity> entities(List<JsonNode> items, EntityLayout layout) {
        List<Entity> out = new ArrayList<>(items.size());
        for (JsonNode item : items) {
            out.add(EntityItems.fromItem(item, layout));
        }
        return out;
    }

    private static List<String> keys(Entity e) {
        return List.of(e.partitionKey(), e.rowKey());
    }

    /** A continuation: the position the page starts at and, for ordered reads, the core's token. */
    private record Token(List<String> position, String core) {
        String encode() {
            ObjectNode o = M.createObjectNode();
            if (position != null) {
                o.putArray("p").add(position.get(0)).add(position.get(1));
            }
            if (core != null) {
                o.put("t", core);
            }
            return Base64.getUrlEncoder().withoutPadding().encodeToString(o.toString().getBytes(
                    java.nio.charset.StandardCharsets.UTF_8));
        }

        static Token decode(String s) {
            try {
                JsonNode o = M.readTree(Base64.getUrlDecoder().decode(s));
                JsonNode p = o.get("p");
                List<String> position = null;
                if (p != null) {
                    if (!p.isArray() || p.size() != 2 || !p.get(0).isTextual() || !p.get(1).isTextual()) {
                        throw new IllegalArgumentException();
                    }
                    position = List.of(p.get(0).textValue(), p.get(1).textValue());
                }
                JsonNode t = o.get("t");
                if (position == null && t == null || t != null && !t.isTextual()) {
                    throw new IllegalArgumentException();
                }
                return new Token(position, t == null ? null : t.textValue());
            } catch (IOException | IllegalArgumentException | NullPointerException e) {
                throw TableException.invalidInput("the continuation token is not valid");
            }
        }
    }
}
