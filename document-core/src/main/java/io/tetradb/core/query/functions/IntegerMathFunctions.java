package io.tetradb.core.query.functions;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.function.LongBinaryOperator;

import static io.tetradb.core.query.functions.Args.UNDEFINED;
import static io.tetradb.core.query.functions.Args.integer;
import static io.tetradb.core.query.functions.Args.isInt64;

/**
 * Integer math functions (Cosmos docs → "IntAdd" ... "IntBitXor"): signed 64-bit two's-complement arithmetic that
 * wraps on overflow. An argument that is not an integer (a fraction, a number outside int64, a non-number) makes the
 * result undefined, and so does division or modulo by zero.
 */
public final class IntegerMathFunctions {
    private IntegerMathFunctions() {
    }

    public static void registerAll(FunctionRegistry r) {
        binary(r, "IntAdd", Long::sum);
        binary(r, "IntSub", (x, y) -> x - y);
        binary(r, "IntMul", (x, y) -> x * y);
        r.register("IntDiv", 2, 2, (a, c) -> ints(a.get(0), a.get(1)) && a.get(1).longValue() != 0
                ? integer(a.get(0).longValue() / a.get(1).longValue()) : UNDEFINED);
        r.register("IntMod", 2, 2, (a, c) -> ints(a.get(0), a.get(1)) && a.get(1).longValue() != 0
                ? integer(a.get(0).longValue() % a.get(1).longValue()) : UNDEFINED);
        binary(r, "IntBitAnd", (x, y) -> x & y);
        binary(r, "IntBitOr", (x, y) -> x | y);
        binary(r, "IntBitXor", (x, y) -> x ^ y);
        r.register("IntBitNot", 1, 1, (a, c) -> isInt64(a.get(0)) ? integer(~a.get(0).longValue()) : UNDEFINED);
        // shifts by 64 or more clear every bit (left) or leave only the sign (right); a negative count is undefined
        r.register("IntBitLeftShift", 2, 2, (a, c) -> {
            if (!ints(a.get(0), a.get(1)) || a.get(1).longValue() < 0) {
                return UNDEFINED;
            }
            long n = a.get(1).longValue();
            return integer(n >= 64 ? 0 : a.get(0).longValue() << n);
        });
        r.register("IntBitRightShift", 2, 2, (a, c) -> {
            if (!ints(a.get(0), a.get(1)) || a.get(1).longValue() < 0) {
                return UNDEFINED;
            }
            long n = a.get(1).longValue();
            return integer(a.get(0).longValue() >> Math.min(n, 63));
        });
    }

    private static boolean ints(JsonNode x, JsonNode y) {
        return isInt64(x) && isInt64(y);
    }

    private static void binary(FunctionRegistry r, String name, LongBinaryOperator f) {
        r.register(name, 2, 2, (a, c) -> ints(a.get(0), a.get(1))
                ? integer(f.applyAsLong(a.get(0).longValue(), a.get(1).longValue())) : UNDEFINED);
    }
}
