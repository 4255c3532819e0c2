package io.tetradb.core.query.functions;

import org.junit.jupiter.api.Test;

import static io.tetradb.core.query.functions.Fn.check;

/**
 * Integer math functions. Examples from https://learn.microsoft.com/azure/cosmos-db/nosql/query/{intadd,intsub,
 * intmul,intdiv,intmod,intbitand,intbitor,intbitxor,intbitnot,intbitleftshift,intbitrightshift} (documented results;
 * entries missing from a documented result, such as IntAdd(20, 0.10), are undefined).
 */
class IntegerMathFunctionsTest {

    @Test
    void documentedExamples() {
        check("30", "IntAdd", "20", "10");
        check("20", "IntAdd", "20", "0");
        check("undefined", "IntAdd", "20", "0.10");
        check("5", "IntSub", "14", "9");
        check("-5", "IntSub", "9", "14");
        check("undefined", "IntSub", "14", "0.1");
        check("10", "IntMul", "5", "2");
        check("-10", "IntMul", "5", "-2");
        check("0", "IntMul", "5", "0");
        check("undefined", "IntMul", "5", "0.5");
        check("5", "IntDiv", "10", "2");
        check("-5", "IntDiv", "10", "-2");
        check("5", "IntDiv", "-10", "-2");
        check("1", "IntDiv", "10", "10");
        check("undefined", "IntDiv", "10", "0");
        check("undefined", "IntDiv", "10", "0.1");
        check("2", "IntMod", "12", "5");
        check("2", "IntMod", "12", "-5");
        check("-2", "IntMod", "-12", "-5");
        check("0", "IntMod", "15", "5");
        check("undefined", "IntMod", "12", "0");
        check("undefined", "IntMod", "12", "0.2");
        check("3", "IntBitAnd", "7", "3");
        check("undefined", "IntBitAnd", "7", "0.1");
        check("7", "IntBitOr", "5", "3");
        check("6", "IntBitXor", "5", "3");
        check("-11", "IntBitNot", "10");
        check("undefined", "IntBitNot", "0.1");
        check("64", "IntBitLeftShift", "16", "2");
        check("undefined", "IntBitLeftShift", "16", "0.4");
        check("1", "IntBitRightShift", "16", "4");
        check("undefined", "IntBitRightShift", "16", "0.4");
    }

    @Test
    void sixtyFourBitSemantics() {
        check("-9223372036854775808", "IntAdd", "9223372036854775807", "1");
        check("9223372036854775807", "IntSub", "-9223372036854775808", "1");
        check("-2", "IntBitRightShift", "-4", "1");
        check("4294967296", "IntBitLeftShift", "1", "32");
        check("0", "IntBitLeftShift", "1", "64");
        check("-1", "IntBitRightShift", "-1", "100");
        check("undefined", "IntBitLeftShift", "1", "-1");
        check("6", "IntAdd", "5.0", "1");
    }

    @Test
    void nonIntegersAreUndefined() {
        for (String f : new String[]{"IntAdd", "IntSub", "IntMul", "IntDiv", "IntMod", "IntBitAnd", "IntBitOr",
                "IntBitXor", "IntBitLeftShift", "IntBitRightShift"}) {
            check("undefined", f, "\"1\"", "1");
            check("undefined", f, "1", "undefined");
            check("undefined", f, "1.5", "1");
            check("undefined", f, "18446744073709551615", "1");
            check("undefined", f, "null", "1");
        }
        check("undefined", "IntBitNot", "true");
    }
}
