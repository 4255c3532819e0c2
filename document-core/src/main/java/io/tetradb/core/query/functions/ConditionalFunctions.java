package io.tetradb.core.query.functions;

/**
 * Conditional functions (Cosmos docs → "IIF"). IIF returns its second argument when the condition is the boolean
 * {@code true} and its third otherwise; unlike the ternary operator, a non-boolean condition (a number, a string,
 * undefined) is not an error and selects the third argument.
 */
public final class ConditionalFunctions {
    private ConditionalFunctions() {
    }

    public static void registerAll(FunctionRegistry r) {
        r.register("IIF", 3, 3, (a, c) -> a.get(0).isBoolean() && a.get(0).booleanValue() ? a.get(1) : a.get(2));
    }
}
