package io.tetradb.table.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.query.plan.LogicalPlan;
import io.tetradb.core.query.sql.Expr;
import io.tetradb.core.query.sql.Projection;
import io.tetradb.core.store.ContainerQuery;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.value.ObjectIdNode;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The core id of the item of another face whose {@code _id} is shown as a RowKey ({@link EntityLayout}): a string
 * {@code _id} equal to it, an ObjectId whose hex it is, or (the Mongo face's earlier shape) {@code {"$oid": …}}.
 * First the Mongo face's own id encodings as point reads, then one query over the logical partition.
 */
final class ForeignIds {
    private static final Expr D = new Expr.Identifier("d");
    private static final Expr ID = new Expr.PropertyAccess(D, "_id");

    private ForeignIds() {
    }

    static String idOf(ContainerStore container, PartitionKeyValue pk, String rowKey) {
        // the Mongo face's id encoding (IdCodec: "o" + ObjectId hex, "s" + the string with '~' escaped): point reads
        boolean objectId = rowKey.matches("[0-9a-f]{24}");
        for (String candidate : objectId ? List.of("o" + rowKey, "s" + rowKey) : List.of("s" + rowKey.replace("~", "~0"))) {
            try {
                JsonNode item = container.codec().parse(container.read(pk, candidate, null).stored());
                if (rowKey.equals(EntityLayout.idText(item.path("_id")))) {
                    return candidate;
                }
            } catch (io.tetradb.core.StoreException notThere) {
                if (notThere.status() != 404) {
                    throw notThere;
                }
            }
        }
        Map<String, JsonNode> params = new HashMap<>();
        params.put("@rk", TextNode.valueOf(rowKey));
        Expr rk = new Expr.Parameter("@rk");
        Expr match = new Expr.Binary(Expr.BinaryOp.OR, new Expr.Binary(Expr.BinaryOp.EQUAL, ID, rk),
                new Expr.Binary(Expr.BinaryOp.EQUAL, new Expr.PropertyAccess(ID, "$oid"), rk));
        if (objectId) {
            params.put("@oid", ObjectIdNode.ofHex(rowKey));
            match = new Expr.Binary(Expr.BinaryOp.OR, match,
                    new Expr.Binary(Expr.BinaryOp.EQUAL, ID, new Expr.Parameter("@oid")));
        }
        LogicalPlan plan = new LogicalPlan.Unwind(new LogicalPlan.Scan(), "d",
                new Expr.Identifier(LogicalPlan.ITEM), false);
        plan = new LogicalPlan.Filter(plan, match);
        plan = new LogicalPlan.Project(plan, new Projection.Star(), "d");
        ContainerQuery.Page page = container.queryPage(plan, params, pk, null, null, 1, 1L << 20);
        return page.results().isEmpty() ? null : page.results().get(0).path("id").asText(null);
    }
}
