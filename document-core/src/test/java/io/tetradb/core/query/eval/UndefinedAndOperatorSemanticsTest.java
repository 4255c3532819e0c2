package io.tetradb.core.query.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.StoreException;
import io.tetradb.core.query.functions.FunctionRegistry;
import io.tetradb.core.query.sql.SqlParser;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.tetradb.core.query.eval.EvalTestSupport.CTX;
import static io.tetradb.core.query.eval.EvalTestSupport.assertResults;
import static io.tetradb.core.query.eval.EvalTestSupport.items;
import static io.tetradb.core.query.eval.EvalTestSupport.json;
import static io.tetradb.core.query.eval.EvalTestSupport.query;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Undefined, mixed types and the operator rules of ExpressionEvaluator (sources in its class comment). */
class UndefinedAndOperatorSemanticsTest {
    static final List<ObjectNode> MIXED = items("""
            [{"id":"n1","a":1},{"id":"n2","a":2.5},{"id":"s","a":"x"},{"id":"z","a":null},{"id":"m"},
             {"id":"arr","a":[1]},{"id":"obj","a":{"b":1}},{"id":"t","a":true}]""");

    /** Evaluates one expression with no FROM (the bindings are empty). */
    static JsonNode eval(String expr) {
        List<JsonNode> r = query("SELECT VALUE " + expr, List.of());
        return r.isEmpty() ? MissingNode.getInstance() : r.get(0);
    }

    static String show(JsonNode v) {
        return v.isMissingNode() ? "undefined" : v.toString();
    }

    @Test
    void logicalTruthTables() { // logical-operators: OR, AND, NOT tables
        String[] vals = {"true", "false", "undefined"};
        String[][] or = {{"true", "true", "true"}, {"true", "false", "undefined"}, {"true", "undefined", "undefined"}};
        String[][] and = {{"true", "false", "undefined"}, {"false", "false", "false"},
                {"undefined", "false", "undefined"}};
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                assertEquals(or[i][j], show(eval(vals[i] + " OR " + vals[j])), vals[i] + " OR " + vals[j]);
                assertEquals(and[i][j], show(eval(vals[i] + " AND " + vals[j])), vals[i] + " AND " + vals[j]);
            }
        }
        assertEquals("false", show(eval("NOT true")));
        assertEquals("true", show(eval("NOT false")));
        assertEquals("undefined", show(eval("NOT undefined")));
        // a non-boolean operand counts as undefined
        assertEquals("undefined", show(eval("1 AND true")));
        assertEquals("true", show(eval("'x' OR true")));
    }

    @Test
    void equalityTable() { // equality-comparison-operators: only same-type comparisons are defined
        assertEquals("true", show(eval("1 = 1.0")));
        assertEquals("undefined", show(eval("1 = '1'")));
        assertEquals("undefined", show(eval("null = false")));
        assertEquals("true", show(eval("null = null")));
        assertEquals("undefined", show(eval("undefined = undefined")));
        assertEquals("true", show(eval("[1, {\"a\": 2}] = [1.0, {\"a\": 2}]")));
        assertEquals("true", show(eval("{\"a\": 1, \"b\": 2} = {\"b\": 2, \"a\": 1}")));
        assertEquals("undefined", show(eval("1 != 'x'")));
        assertEquals("true", show(eval("1 <> 2")));
        assertEquals("undefined", show(eval("[1] != [2]")));
        assertEquals("undefined", show(eval("{\"a\": 1} <> {}")));
        assertEquals("false", show(eval("'a' != 'a'")));
        assertEquals("true", show(eval("'a' < 'b'")));
        assertEquals("undefined", show(eval("1 < 'b'")));
        assertEquals("undefined", show(eval("[1] < [2]")));
        assertEquals("undefined", show(eval("{} >= {}")));
        assertEquals("true", show(eval("false < true")));
    }

    @Test
    void mixedTypeRangeComparisonSkipsTheItem() { // keywords (BETWEEN note), equality-comparison-operators
        assertResults("[\"n1\",\"n2\"]", query("SELECT VALUE c.id FROM c WHERE c.a > 0", MIXED));
        assertResults("[\"s\"]", query("SELECT VALUE c.id FROM c WHERE c.a >= 'a'", MIXED));
        // NOT of undefined is undefined: mixed types are skipped by NOT (c.a > 0) too
        assertResults("[]", query("SELECT VALUE c.id FROM c WHERE NOT (c.a > 0) AND c.id != 'z'", MIXED));
        assertResults("[\"n2\"]", query("SELECT VALUE c.id FROM c WHERE c.a != 1", MIXED));
        assertResults("[\"n1\"]", query("SELECT VALUE c.id FROM c WHERE c.a BETWEEN 0 AND 2", MIXED));
        assertResults("[\"n2\"]", query("SELECT VALUE c.id FROM c WHERE c.a NOT BETWEEN 0 AND 2", MIXED));
        assertResults("[\"n1\",\"s\"]", query("SELECT VALUE c.id FROM c WHERE c.a IN (1, 'x')", MIXED));
        assertResults("[\"arr\"]", query("SELECT VALUE c.id FROM c WHERE c.a = [1]", MIXED));
    }

    @Test
    void undefinedInFilterProjectionAndOrder() { // undefined: IS_DEFINED, projection leaves it out, ORDER BY keeps it
        assertResults("[\"m\"]", query("SELECT VALUE c.id FROM c WHERE NOT IS_DEFINED(c.a)", MIXED));
        assertResults("[\"z\"]", query("SELECT VALUE c.id FROM c WHERE IS_NULL(c.a)", MIXED));
        assertResults("[{\"id\":\"m\"}]", query("SELECT c.id, c.a FROM c WHERE c.id = 'm'", MIXED));
        assertResults("[]", query("SELECT VALUE c.a FROM c WHERE c.id = 'm'", MIXED));
        // undefined < null < boolean < number < string < array < object (ValueOrder; order-by keeps undefined)
        assertResults("[\"m\",\"z\",\"t\",\"n1\",\"n2\",\"s\",\"arr\",\"obj\"]",
                query("SELECT VALUE c.id FROM c ORDER BY c.a", MIXED));
        assertResults("[\"obj\",\"arr\",\"s\",\"n2\",\"n1\",\"t\",\"z\",\"m\"]",
                query("SELECT VALUE c.id FROM c ORDER BY c.a DESC", MIXED));
        // DISTINCT treats 1 and 1.0 as one value
        assertResults("[1,\"x\"]", query("SELECT DISTINCT VALUE c.v FROM c",
                items("[{\"v\":1},{\"v\":1.0},{\"v\":\"x\"},{}]")));
    }

    @Test
    void arithmeticAndStrings() { // arithmetic: numbers only, else undefined
        assertEquals("7", show(eval("1 + 2 * 3")));
        assertEquals("2.5", show(eval("5 / 2")));
        assertEquals("1", show(eval("7 % 3")));
        assertEquals("-4", show(eval("-(2 + 2)")));
        assertEquals("undefined", show(eval("1 + '1'")));
        assertEquals("undefined", show(eval("1 / 0")));
        assertEquals("undefined", show(eval("null + 1")));
        assertEquals("\"ab\"", show(eval("'a' || 'b'")));
        assertEquals("undefined", show(eval("'a' || 1")));
        assertEquals("-1", show(eval("~0")));
        assertEquals("4294967295", show(eval("-1 >>> 0")));
        assertEquals("-1", show(eval("-1 >> 4")));
    }

    @Test
    void ternaryCoalesceAndAccess() { // ternary-coalesce-operators, scalar-expressions
        assertEquals("1", show(eval("true ? 1 : 2")));
        assertEquals("2", show(eval("false ? 1 : 2")));
        assertEquals("undefined", show(eval("'x' ? 1 : 2")));
        assertEquals("2", show(eval("IIF('x', 1, 2)")));
        assertEquals("3", show(eval("undefined ?? 3")));
        assertEquals("null", show(eval("null ?? 3")));
        assertEquals("2", show(eval("[1, 2, 3][1]")));
        assertEquals("undefined", show(eval("[1, 2, 3][3]")));
        assertEquals("1", show(eval("{\"a-b\": 1}[\"a-b\"]")));
        assertEquals("undefined", show(eval("'abc'.length")));
        assertEquals("{\"a\":1}", show(eval("{\"a\": 1, \"b\": undefined}")));
        assertEquals("[1,2]", show(eval("[1, undefined, 2]")));
    }

    @Test
    void parametersAndFunctions() { // parameterized-queries, system functions via the registry
        List<ObjectNode> it = items("[{\"id\":\"a\",\"n\":3},{\"id\":\"b\",\"n\":5}]");
        assertResults("[\"b\"]", query("SELECT VALUE c.id FROM c WHERE c.n > @min", it, Map.of("min", json("4"))));
        assertResults("[\"A\",\"B\"]", query("SELECT VALUE upper(c.id) FROM c", it));
        StoreException unknownParam = assertThrows(StoreException.class,
                () -> query("SELECT VALUE c.id FROM c WHERE c.n > @nope", it));
        assertEquals(400, unknownParam.status());
        assertTrue(unknownParam.getMessage().contains("@nope"));
        StoreException unknownFn = assertThrows(StoreException.class,
                () -> query("SELECT VALUE NOPE(c.id) FROM c", it));
        assertEquals(400, unknownFn.status());
        StoreException udf = assertThrows(StoreException.class, () -> query("SELECT VALUE udf.f(c.id) FROM c", it));
        assertEquals(400, udf.status());
        assertTrue(udf.getMessage().contains("udf.f"));
        // the function context comes from the caller: GetCurrentDateTime is the query's fixed time
        assertResults("[\"2026-11-21T12:00:00.0000000Z\"]", query("SELECT VALUE GetCurrentDateTime()", List.of()));
        // a registry of one's own
        FunctionRegistry own = FunctionRegistry.createStandard().register("TWICE", 1, 1,
                (a, c) -> com.fasterxml.jackson.databind.node.LongNode.valueOf(a.get(0).longValue() * 2));
        assertResults("[6,10]", QueryExecutor.execute(SqlParser.parse("SELECT VALUE twice(c.n) FROM c"), it, Map.of(),
                CTX, own));
    }

    @Test
    void errorsName400() {
        List<ObjectNode> it = items("[{\"id\":\"a\",\"tags\":[\"x\"]}]");
        assertStatus400("SELECT * FROM c JOIN t IN c.tags", it, "single input set");
        assertStatus400("SELECT VALUE x.id FROM c", it, "'x'");
        assertStatus400("SELECT VALUE COUNT(1) FROM c ORDER BY c.id", it, "ORDER BY");
        assertStatus400("SELECT VALUE c.id FROM c WHERE COUNT(1) > 0", it, "COUNT");
        assertStatus400("SELECT VALUE MAX(COUNT(1)) FROM c", it, "nested");
        assertStatus400("SELECT c.id, COUNT(1) AS n FROM c", it, "GROUP BY clause");
        assertStatus400("SELECT c.tags, COUNT(1) AS n FROM c GROUP BY c.id", it, "c.tags");
        assertStatus400("SELECT VALUE c.id FROM c WHERE EXISTS(SELECT VALUE 1 FROM d)", it, "'d'");
        assertStatus400("SELECT VALUE c.id FROM c WHERE c.id LIKE 'a' ESCAPE 'xy'", it, "ESCAPE");
    }

    private static void assertStatus400(String sql, List<ObjectNode> it, String mention) {
        StoreException e = assertThrows(StoreException.class, () -> query(sql, it), sql);
        assertEquals(400, e.status(), sql);
        assertTrue(e.getMessage().contains(mention), e.getMessage());
    }

    @Test
    void fromSubqueryAndNoFrom() { // subquery as a FROM source; SELECT without FROM
        List<ObjectNode> it = items("[{\"id\":\"a\",\"n\":3},{\"id\":\"b\",\"n\":5}]");
        assertResults("[5]", query("SELECT VALUE x FROM (SELECT VALUE c.n FROM c) AS x WHERE x > 4", it));
        assertResults("[{\"$1\":1,\"$2\":\"a\"}]", query("SELECT 1, 'a'", List.of()));
        // correlated two levels down: the inner subquery sees c and t
        List<ObjectNode> tagged = items("[{\"id\":\"x\",\"tags\":[\"x\",\"y\"]},{\"id\":\"q\",\"tags\":[\"y\"]}]");
        assertResults("[\"x\"]", query("SELECT VALUE c.id FROM c WHERE EXISTS(SELECT VALUE t FROM t IN c.tags "
                + "WHERE EXISTS(SELECT VALUE 1 FROM u IN c.tags WHERE u = t AND t = c.id))", tagged));
    }
}
