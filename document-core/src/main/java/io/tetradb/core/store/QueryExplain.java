package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.query.plan.IndexSeek;
import io.tetradb.core.query.plan.IndexSeekPlanner;
import io.tetradb.core.query.plan.LogicalPlan;
import io.tetradb.core.query.plan.Pipeline;
import io.tetradb.core.query.sql.Expr;
import io.tetradb.core.query.sql.SqlUnparser;
import io.tetradb.core.index.CompiledIndexingPolicy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A query's explain (TetraDB extension, {@code CosmosQueryRequestOptions.setExplain(true)}): the logical plan, the
 * partitions the page touched, the access path, and for each conjunct of the filter the index that could serve it
 * and whether it was the one used (the others are checked on the items found). Built only when asked for.
 */
final class QueryExplain {
    private QueryExplain() {
    }

    static ObjectNode of(LogicalPlan plan, Pipeline p, Map<String, List<String>> aliases, Map<String, JsonNode> params,
                         CompiledIndexingPolicy policy, AccessPath access, List<PartitionKeyValue> partitions,
                         String scope) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("plan", plan.toString());
        ObjectNode routing = out.putObject("partitions").put("scope", scope);
        if (partitions != null) {
            ArrayNode keys = routing.putArray("logicalPartitions");
            partitions.forEach(pk -> keys.add(pk.toString()));
        }
        out.put("accessPath", access.id());
        ArrayNode predicates = out.putArray("predicates");
        List<Expr> conjuncts = new ArrayList<>();
        if (p.filter() != null) {
            IndexSeekPlanner.flattenConjuncts(p.filter(), conjuncts);
        }
        for (Expr conjunct : conjuncts) {
            ObjectNode entry = predicates.addObject().put("predicate", SqlUnparser.unparse(conjunct));
            List<IndexSeek> seeks = IndexSeekPlanner.candidates(conjunct, aliases, policy, params);
            if (seeks.isEmpty()) {
                entry.putNull("index");
                entry.put("use", "filter (no index serves it)");
                continue;
            }
            IndexSeek seek = seeks.get(0);
            entry.put("index", seek.path());
            // a seek of both bounds of a range names both predicates
            boolean used = access.seek() != null && (access.seek().predicate().equals(seek.predicate())
                    || access.seek().predicate().contains(seek.predicate() + " AND ")
                    || access.seek().predicate().endsWith(" AND " + seek.predicate()));
            boolean byKey = access.ids() != null && (" AND " + access.ids().why() + " AND ")
                    .contains(" AND " + conjunct + " AND ");
            entry.put("use", used ? "index seek" : byKey ? "primary key " + (access.ids().prefix()
                    || access.ids().range() != null ? "range" : "lookup")
                    : "filter on the items found (another access path was cheaper)");
        }
        if (!p.sort().isEmpty()) {
            out.put("orderBy", access.ordered() || access.composite() != null
                    ? "served by the access path's order" : "sorted in memory");
        }
        return out;
    }
}
