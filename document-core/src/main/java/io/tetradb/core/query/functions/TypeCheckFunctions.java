package io.tetradb.core.query.functions;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.function.Predicate;

import static io.tetradb.core.query.functions.Args.bool;

/**
 * Type-checking functions (Cosmos docs → "Type checking functions"). They never return undefined: an undefined
 * argument is simply not of the type (and IS_DEFINED is false for it).
 */
public final class TypeCheckFunctions {
    private TypeCheckFunctions() {
    }

    public static void registerAll(FunctionRegistry r) {
        check(r, "IS_ARRAY", JsonNode::isArray);
        check(r, "IS_BOOL", JsonNode::isBoolean);
        check(r, "IS_DEFINED", v -> !v.isMissingNode());
        check(r, "IS_NULL", JsonNode::isNull);
        check(r, "IS_NUMBER", JsonNode::isNumber);
        check(r, "IS_OBJECT", JsonNode::isObject);
        check(r, "IS_PRIMITIVE", v -> v.isTextual() || v.isNumber() || v.isBoolean() || v.isNull());
        check(r, "IS_STRING", JsonNode::isTextual);
        check(r, "IS_FINITE_NUMBER", v -> v.isNumber() && Double.isFinite(v.doubleValue()));
        check(r, "IS_INTEGER", Args::isInt64);
    }

    private static void check(FunctionRegistry r, String name, Predicate<JsonNode> test) {
        r.register(name, 1, 1, (a, c) -> bool(a.get(0) != null && test.test(a.get(0))));
    }
}
