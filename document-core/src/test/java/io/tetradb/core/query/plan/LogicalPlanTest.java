package io.tetradb.core.query.plan;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.core.query.sql.Expr;
import io.tetradb.core.query.sql.OrderByItem;
import io.tetradb.core.query.sql.Projection;
import io.tetradb.core.query.sql.SqlParser;
import io.tetradb.core.query.sql.SqlToPlan;
import io.tetradb.core.store.ContainerQuery;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The plan IR without SQL: a face that builds plans itself (as the Mongo, OData and Gremlin faces will) gets the
 * same planner, index use and results as the SQL front end.
 */
class LogicalPlanTest {
    static final ObjectMapper M = new ObjectMapper();

    @Test
    void aPlanBuiltByHandRunsLikeTheSameQueryInSql(@TempDir Path dir) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer("c", "/pk");
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            for (int i = 0; i < 200; i++) {
                c.createItem(M.createObjectNode().put("id", "i" + i).put("pk", "p" + i % 4).put("n", i % 50));
            }
            // item → d; d.n >= 45; ORDER BY d.n DESC; SELECT VALUE d.id; first 5
            Expr d = new Expr.Identifier("d");
            Expr n = new Expr.PropertyAccess(d, "n");
            LogicalPlan plan = new LogicalPlan.Scan();
            plan = new LogicalPlan.Unwind(plan, "d", new Expr.Identifier(LogicalPlan.ITEM), false);
            plan = new LogicalPlan.Filter(plan, new Expr.Binary(Expr.BinaryOp.GREATER_OR_EQUAL, n,
                    new Expr.NumberLiteral(45)));
            plan = new LogicalPlan.Sort(plan, List.of(new OrderByItem(n, true)));
            plan = new LogicalPlan.Project(plan, new Projection.Value(new Expr.PropertyAccess(d, "id")), "d");
            plan = new LogicalPlan.Slice(plan, null, new Expr.NumberLiteral(5));

            ContainerStore store = client.coreStore().container("db", "c");
            ContainerQuery.Page byHand = store.queryPage(plan, Map.of(), null, null, null, 100, Long.MAX_VALUE);
            LogicalPlan fromSql = SqlToPlan.compile(SqlParser.parse(
                    "SELECT TOP 5 VALUE d.id FROM d WHERE d.n >= 45 ORDER BY d.n DESC"));
            ContainerQuery.Page sql = store.queryPage(fromSql, Map.of(), null, null, null, 100, Long.MAX_VALUE);

            assertEquals(fromSql, plan, "SQL compiles to the same plan");
            assertEquals(sql.results(), byHand.results());
            assertEquals(5, byHand.results().size());
            List<Integer> ns = byHand.results().stream().map(id -> Integer.parseInt(id.asText().substring(1)) % 50)
                    .toList();
            assertEquals(List.of(49, 49, 49, 49, 48), ns, "four items have n = 49");
            assertTrue(byHand.access().startsWith("index-ordered read on /n"), byHand.access());
            assertEquals(5, byHand.documentsLoaded());
        }
    }
}
