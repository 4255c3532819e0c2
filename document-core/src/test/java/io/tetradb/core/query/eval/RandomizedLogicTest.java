package io.tetradb.core.query.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.tetradb.core.query.eval.EvalTestSupport.M;
import static io.tetradb.core.query.eval.EvalTestSupport.query;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Random items of mixed types and random predicates: the three-valued logic must hold its laws (De Morgan, double
 * negation, the excluded middle failing exactly on undefined) and WHERE must keep exactly the rows whose predicate
 * projects to {@code true}.
 */
class RandomizedLogicTest {
    private static final String[] VALUES = {"1", "2.5", "-3", "'x'", "'b'", "true", "false", "null", "[1]", "{}"};
    private static final String[] OPS = {"=", "!=", "<", "<=", ">", ">="};

    static List<ObjectNode> randomItems(Random rnd, int n) {
        List<ObjectNode> out = new ArrayList<>();
        String[] json = {"1", "2.5", "-3", "\"x\"", "\"b\"", "true", "false", "null", "[1]", "{}"};
        for (int i = 0; i < n; i++) {
            ObjectNode o = M.createObjectNode();
            o.put("id", "i" + i);
            for (String f : new String[] {"a", "b"}) {
                if (rnd.nextInt(5) > 0) {
                    o.set(f, EvalTestSupport.json(json[rnd.nextInt(json.length)]));
                }
            }
            out.add(o);
        }
        return out;
    }

    static String atom(Random rnd) {
        String field = rnd.nextBoolean() ? "c.a" : "c.b";
        switch (rnd.nextInt(4)) {
            case 0:
                return "IS_DEFINED(" + field + ")";
            case 1:
                return field + " IN (" + VALUES[rnd.nextInt(VALUES.length)] + ", " + VALUES[rnd.nextInt(VALUES.length)]
                        + ")";
            default:
                return field + " " + OPS[rnd.nextInt(OPS.length)] + " " + VALUES[rnd.nextInt(VALUES.length)];
        }
    }

    static String predicate(Random rnd, int depth) {
        if (depth == 0 || rnd.nextInt(3) == 0) {
            return atom(rnd);
        }
        switch (rnd.nextInt(3)) {
            case 0:
                return "(" + predicate(rnd, depth - 1) + " AND " + predicate(rnd, depth - 1) + ")";
            case 1:
                return "(" + predicate(rnd, depth - 1) + " OR " + predicate(rnd, depth - 1) + ")";
            default:
                return "NOT (" + predicate(rnd, depth - 1) + ")";
        }
    }

    @Test
    void threeValuedLawsHold() {
        Random rnd = new Random(42);
        List<ObjectNode> items = randomItems(rnd, 40);
        for (int round = 0; round < 150; round++) {
            String p = predicate(rnd, 3);
            String q = predicate(rnd, 2);
            List<JsonNode> values = query("SELECT VALUE {\"v\": " + p + "} FROM c", items);
            List<JsonNode> kept = query("SELECT VALUE c.id FROM c WHERE " + p, items);
            List<String> expectKept = new ArrayList<>();
            int trues = 0;
            int falses = 0;
            for (int i = 0; i < items.size(); i++) {
                JsonNode v = values.get(i).path("v");
                if (v.isBoolean() && v.booleanValue()) {
                    expectKept.add(items.get(i).get("id").textValue());
                    trues++;
                } else if (v.isBoolean()) {
                    falses++;
                }
            }
            assertEquals(expectKept.toString(), texts(kept).toString(), p);
            // NOT p keeps exactly the false ones; p OR NOT p keeps exactly the defined ones
            assertEquals(falses, query("SELECT VALUE c.id FROM c WHERE NOT (" + p + ")", items).size(), p);
            assertEquals(trues + falses, query("SELECT VALUE c.id FROM c WHERE (" + p + ") OR NOT (" + p + ")",
                    items).size(), p);
            // De Morgan and double negation, row by row
            assertEquals(values(items, "NOT ((" + p + ") AND (" + q + "))"),
                    values(items, "(NOT (" + p + ")) OR (NOT (" + q + "))"), p + " / " + q);
            assertEquals(values(items, p), values(items, "NOT (NOT (" + p + "))"), p);
        }
    }

    private static List<String> values(List<ObjectNode> items, String p) {
        List<String> out = new ArrayList<>();
        for (JsonNode v : query("SELECT VALUE {\"v\": " + p + "} FROM c", items)) {
            out.add(v.has("v") ? v.get("v").toString() : "undefined");
        }
        return out;
    }

    private static List<String> texts(List<JsonNode> nodes) {
        List<String> out = new ArrayList<>();
        nodes.forEach(n -> out.add(n.textValue()));
        return out;
    }
}
