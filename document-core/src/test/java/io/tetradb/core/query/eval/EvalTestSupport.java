package io.tetradb.core.query.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.query.functions.FunctionContext;
import io.tetradb.core.query.sql.SqlParser;
import io.tetradb.core.value.ValueOrder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.fail;

/** Shared helpers: parse JSON, run a query, compare results by value (5 == 5.0, property order ignored). */
final class EvalTestSupport {
    static final ObjectMapper M = new ObjectMapper();
    static final FunctionContext CTX = FunctionContext.at(Instant.parse("2026-11-21T12:00:00Z"));

    private EvalTestSupport() {
    }

    static JsonNode json(String s) {
        try {
            return M.readTree(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Items from a JSON array text. */
    static List<ObjectNode> items(String jsonArray) {
        List<ObjectNode> out = new ArrayList<>();
        for (JsonNode n : json(jsonArray)) {
            out.add((ObjectNode) n);
        }
        return out;
    }

    static List<JsonNode> query(String sql, List<ObjectNode> items) {
        return query(sql, items, Map.of());
    }

    static List<JsonNode> query(String sql, List<ObjectNode> items, Map<String, JsonNode> params) {
        return QueryExecutor.execute(SqlParser.parse(sql), items, params, CTX);
    }

    /** Asserts the results equal the JSON array {@code expected}, in order. */
    static void assertResults(String expected, List<JsonNode> actual) {
        JsonNode exp = json(expected);
        if (!sameList(listOf(exp), actual)) {
            fail("expected " + exp + " but got " + actual);
        }
    }

    /** Asserts the results equal {@code expected} as a multiset (the docs' order is unspecified). */
    static void assertResultsAnyOrder(String expected, List<JsonNode> actual) {
        List<JsonNode> e = listOf(json(expected));
        List<JsonNode> a = new ArrayList<>(actual);
        Comparator<JsonNode> c = ValueOrder.INSTANCE;
        e.sort(c);
        a.sort(c);
        if (!sameList(e, a)) {
            fail("expected (any order) " + json(expected) + " but got " + actual);
        }
    }

    private static List<JsonNode> listOf(JsonNode array) {
        List<JsonNode> out = new ArrayList<>();
        array.forEach(out::add);
        return out;
    }

    private static boolean sameList(List<JsonNode> e, List<JsonNode> a) {
        if (e.size() != a.size()) {
            return false;
        }
        for (int i = 0; i < e.size(); i++) {
            if (ValueOrder.compareValues(e.get(i), a.get(i)) != 0) {
                return false;
            }
        }
        return true;
    }
}
