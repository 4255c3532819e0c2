package io.tetradb.core.query.functions;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;

import static io.tetradb.core.query.functions.Args.UNDEFINED;
import static io.tetradb.core.query.functions.Args.isNumber;
import static io.tetradb.core.query.functions.Args.number;

/**
 * Mathematical functions (Cosmos docs → "Mathematical functions"). Arguments are numbers (doubles, as in Cosmos);
 * any non-number argument makes the result undefined. Results that are not finite (SQRT(-1), LOG(0)) are returned as
 * the IEEE double (NaN, -Infinity): the query engine decides how to serialize them.
 */
public final class MathFunctions {
    private MathFunctions() {
    }

    public static void registerAll(FunctionRegistry r) {
        unary(r, "ABS", Math::abs);
        unary(r, "ACOS", Math::acos);
        unary(r, "ASIN", Math::asin);
        unary(r, "ATAN", Math::atan);
        // ATN2(y, x): the arc tangent of y / x in the quadrant of (x, y); the docs' example ATN2(35.175643, 129.44)
        // is 0.265344532064832 = atan(35.175643 / 129.44)
        binary(r, "ATN2", Math::atan2);
        unary(r, "CEILING", Math::ceil);
        unary(r, "COS", Math::cos);
        unary(r, "COT", d -> 1 / Math.tan(d));
        unary(r, "DEGREES", Math::toDegrees);
        unary(r, "EXP", Math::exp);
        unary(r, "FLOOR", Math::floor);
        r.register("LOG", 1, 2, (a, c) -> {
            if (!allNumbers(a)) {
                return UNDEFINED;
            }
            double n = a.get(0).doubleValue();
            return number(a.size() == 1 ? Math.log(n) : Math.log(n) / Math.log(a.get(1).doubleValue()));
        });
        unary(r, "LOG10", Math::log10);
        r.register("PI", 0, 0, (a, c) -> number(Math.PI));
        binary(r, "POWER", Math::pow);
        unary(r, "RADIANS", Math::toRadians);
        r.register("RAND", 0, 0, (a, c) -> number(c.nextRandom()));
        // rounds half away from zero: ROUND(2.5) = 3, ROUND(-2.5) = -3
        // (from 2^52 on every double is already an integer, and adding 0.5 could round up)
        unary(r, "ROUND", d -> Double.isNaN(d) || Math.abs(d) >= 4503599627370496d ? d
                : Math.copySign(Math.floor(Math.abs(d) + 0.5), d));
        unary(r, "SIGN", Math::signum);
        unary(r, "SIN", Math::sin);
        unary(r, "SQRT", Math::sqrt);
        unary(r, "SQUARE", d -> d * d);
        unary(r, "TAN", Math::tan);
        unary(r, "TRUNC", d -> d < 0 ? Math.ceil(d) : Math.floor(d));
        r.register("NumberBin", 1, 2, (a, c) -> {
            if (!allNumbers(a)) {
                return UNDEFINED;
            }
            double v = a.get(0).doubleValue();
            double size = a.size() > 1 ? a.get(1).doubleValue() : 1;
            if (size == 0 || Double.isNaN(size) || Double.isInfinite(size)) {
                return UNDEFINED;
            }
            return number(bin(v, size));
        });
    }

    /**
     * {@code floor(v / size) * size}, computed in decimal when the bin size is a decimal fraction so that
     * NumberBin(37.752, 0.1) is 37.7, not 37.7000000000000003.
     */
    static double bin(double v, double size) {
        double bins = Math.floor(v / size);
        double result = bins * size;
        if (size != Math.rint(size)) {
            java.math.BigDecimal exact = java.math.BigDecimal.valueOf(bins).multiply(java.math.BigDecimal.valueOf(size));
            result = exact.doubleValue();
        }
        return result == 0 ? 0 : result;
    }

    private static boolean allNumbers(List<JsonNode> a) {
        for (JsonNode v : a) {
            if (!isNumber(v)) {
                return false;
            }
        }
        return true;
    }

    private static void unary(FunctionRegistry r, String name, DoubleUnaryOperator f) {
        r.register(name, 1, 1, (a, c) -> isNumber(a.get(0)) ? number(f.applyAsDouble(a.get(0).doubleValue()))
                : UNDEFINED);
    }

    private static void binary(FunctionRegistry r, String name, DoubleBinaryOperator f) {
        r.register(name, 2, 2, (a, c) -> allNumbers(a)
                ? number(f.applyAsDouble(a.get(0).doubleValue(), a.get(1).doubleValue())) : UNDEFINED);
    }
}
