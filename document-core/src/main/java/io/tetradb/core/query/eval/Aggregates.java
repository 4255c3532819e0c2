package io.tetradb.core.query.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.LongNode;
import io.tetradb.core.value.ValueOrder;

import java.util.List;

/**
 * The Cosmos aggregate functions over the defined values of one group (undefined values are already left out, as
 * every aggregate page says: "Any undefined values are ignored"):
 * <ul>
 * <li>COUNT: how many values are defined (count).</li>
 * <li>SUM: the sum; undefined when any value is a string, boolean or null (sum: "If any arguments in SUM are string,
 * boolean, or null; the entire aggregate system function returns undefined") — and so also for arrays and objects;
 * 0 over no values.</li>
 * <li>AVG: the same rule, the mean; undefined over no values (average).</li>
 * <li>MIN / MAX: over numbers, strings, booleans and null, across types by null &lt; boolean &lt; number &lt; string
 * (min, max: "the following priority order is used"), which is {@link ValueOrder}'s order; undefined when any value is
 * an array or object, or over no values.</li>
 * </ul>
 */
final class Aggregates {
    private Aggregates() {
    }

    static JsonNode compute(String name, List<JsonNode> values) {
        switch (name) {
            case "COUNT":
                return LongNode.valueOf(values.size());
            case "SUM":
            case "AVG": {
                double sum = 0;
                long exact = 0;
                boolean allIntegral = true;
                for (JsonNode v : values) {
                    if (!v.isNumber()) {
                        return ExpressionEvaluator.UNDEFINED;
                    }
                    sum += v.doubleValue();
                    if (allIntegral && v.isIntegralNumber() && v.canConvertToLong()) {
                        try {
                            exact = Math.addExact(exact, v.longValue());
                        } catch (ArithmeticException overflow) {
                            allIntegral = false;
                        }
                    } else {
                        allIntegral = false;
                    }
                }
                if (name.equals("SUM")) {
                    return allIntegral && Math.abs(exact) <= (1L << 53) ? LongNode.valueOf(exact)
                            : ExpressionEvaluator.number(sum);
                }
                return values.isEmpty() ? ExpressionEvaluator.UNDEFINED
                        : ExpressionEvaluator.number((allIntegral ? (double) exact : sum) / values.size());
            }
            default: { // MIN, MAX
                JsonNode best = null;
                boolean max = name.equals("MAX");
                for (JsonNode v : values) {
                    if (v.isArray() || v.isObject()) {
                        return ExpressionEvaluator.UNDEFINED;
                    }
                    if (best == null) {
                        best = v;
                    } else {
                        int c = ValueOrder.compareValues(v, best);
                        if (max ? c > 0 : c < 0) {
                            best = v;
                        }
                    }
                }
                return best == null ? ExpressionEvaluator.UNDEFINED : best;
            }
        }
    }
}
