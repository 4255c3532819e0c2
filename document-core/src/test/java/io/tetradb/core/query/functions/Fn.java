package io.tetradb.core.query.functions;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Test helpers: call a function with JSON-literal arguments and compare results as Cosmos would print them. */
final class Fn {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Instant NOW = Instant.parse("2024-05-06T07:08:09.123456789Z");
    static final FunctionContext CTX = FunctionContext.at(NOW);
    static final FunctionRegistry REGISTRY = FunctionRegistry.standard();

    private Fn() {
    }

    /** Each argument is a JSON literal, or {@code undefined}. */
    static JsonNode call(String name, String... args) {
        return callIn(CTX, name, args);
    }

    static JsonNode callIn(FunctionContext ctx, String name, String... args) {
        List<JsonNode> values = new ArrayList<>();
        for (String a : args) {
            values.add(json(a));
        }
        return REGISTRY.invoke(name, values, ctx);
    }

    static JsonNode json(String literal) {
        if (literal.equals("undefined")) {
            return MissingNode.getInstance();
        }
        try {
            return JSON.readTree(literal);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(literal, e);
        }
    }

    /** Numbers compare by value (with a relative tolerance of 1e-12, for the transcendental functions). */
    private static final Comparator<JsonNode> NUMERIC = (x, y) -> {
        if (x.isNumber() && y.isNumber()) {
            double a = x.doubleValue();
            double b = y.doubleValue();
            if (Double.compare(a, b) == 0 || Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(a))) {
                return 0;
            }
            return 1;
        }
        return x.equals(y) ? 0 : 1;
    };

    static void assertResult(String expectedJson, JsonNode actual) {
        JsonNode expected = json(expectedJson);
        assertTrue(expected.equals(NUMERIC, actual), () -> "expected " + expectedJson + " but was " + actual);
    }

    static void assertUndefined(JsonNode actual) {
        assertTrue(actual.isMissingNode(), () -> "expected undefined but was " + actual);
    }

    /** Asserts {@code name(args)} is {@code expectedJson} (or undefined when that is "undefined"). */
    static void check(String expectedJson, String name, String... args) {
        JsonNode actual = call(name, args);
        if (expectedJson.equals("undefined")) {
            assertTrue(actual.isMissingNode(),
                    () -> name + String.join(",", args) + ": expected undefined but was " + actual);
        } else {
            JsonNode expected = json(expectedJson);
            assertTrue(expected.equals(NUMERIC, actual),
                    () -> name + "(" + String.join(", ", args) + "): expected " + expectedJson + " but was " + actual);
        }
    }

    static String str(String s) {
        return JSON.getNodeFactory().textNode(s).toString();
    }
}
