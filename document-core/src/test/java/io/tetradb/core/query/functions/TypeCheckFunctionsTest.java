package io.tetradb.core.query.functions;

import org.junit.jupiter.api.Test;

import static io.tetradb.core.query.functions.Fn.check;

/**
 * Type-checking functions. Examples from https://learn.microsoft.com/azure/cosmos-db/nosql/query/{is-array,is-bool,
 * is-defined,is-null,is-number,is-object,is-primitive,is-string,is-finite-number,is-integer}.
 */
class TypeCheckFunctionsTest {
    private static final String[] VALUES = {"true", "1", "\"value\"", "null", "{\"a\":1}", "[1,2]", "undefined"};

    private static void row(String function, boolean... expected) {
        for (int i = 0; i < VALUES.length; i++) {
            check(String.valueOf(expected[i]), function, VALUES[i]);
        }
    }

    @Test
    void eachTypeAgainstEachValue() {
        //                    bool   number string null   object array  undefined
        row("IS_ARRAY", false, false, false, false, false, true, false);
        row("IS_BOOL", true, false, false, false, false, false, false);
        row("IS_DEFINED", true, true, true, true, true, true, false);
        row("IS_NULL", false, false, false, true, false, false, false);
        row("IS_NUMBER", false, true, false, false, false, false, false);
        row("IS_OBJECT", false, false, false, false, true, false, false);
        row("IS_PRIMITIVE", true, true, true, true, false, false, false);
        row("IS_STRING", false, false, true, false, false, false, false);
        row("IS_FINITE_NUMBER", false, true, false, false, false, false, false);
        row("IS_INTEGER", false, true, false, false, false, false, false);
    }

    @Test
    void isInteger() {
        check("false", "IS_INTEGER", "3454.123");
        check("true", "IS_INTEGER", "5523432");
        check("true", "IS_INTEGER", "-9223372036854775808");
        check("true", "IS_INTEGER", "9223372036854775807");
        check("false", "IS_INTEGER", "18446744073709551615");
    }

    @Test
    void isFiniteNumber() {
        check("true", "IS_FINITE_NUMBER", "1234.567");
        Fn.assertResult("false", Fn.REGISTRY.invoke("IS_FINITE_NUMBER", java.util.List.of(Fn.call("SQRT", "-1.0")), Fn.CTX));
        check("true", "IS_FINITE_NUMBER", "3.14");
        check("true", "IS_FINITE_NUMBER", "-1.79769e+308");
        check("false", "IS_FINITE_NUMBER", "\"3.14\"");
        Fn.assertResult("false", Fn.REGISTRY.invoke("IS_FINITE_NUMBER", java.util.List.of(
                com.fasterxml.jackson.databind.node.DoubleNode.valueOf(Double.POSITIVE_INFINITY)), Fn.CTX));
    }
}
