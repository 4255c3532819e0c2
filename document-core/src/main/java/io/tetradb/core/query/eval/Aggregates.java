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
        Accumulator a = new Accumulator(name);
        for (JsonNode v : values) {
            a.add(v);
        }
        return a.result();
    }

    /** One aggregate folded value by value, so a group never has to hold its rows. */
    static final class Accumulator {
        private final String name;
        private long count;
        private double sum;
        private long exact;
        private boolean allIntegral = true;
        private boolean invalid;
        private JsonNode best;

        Accumulator(String name) {
            this.name = name;
        }

        /** Adds one defined value (callers leave undefined values out). */
        void add(JsonNode v) {
            count++;
            switch (name) {
                case "COUNT" -> {
                }
                case "SUM", "AVG" -> {
                    if (!v.isNumber()) {
                        invalid = true;
                        return;
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
                default -> { // MIN, MAX
                    if (v.isArray() || v.isObject()) {
                        invalid = true;
                        return;
                    }
                    if (best == null) {
                        best = v;
                    } else {
                        int c = ValueOrder.compareValues(v, best);
                        if (name.equals("MAX") ? c > 0 : c < 0) {
                            best = v;
                        }
                    }
                }
            }
        }

        JsonNode result() {
            switch (name) {
                case "COUNT":
                    return LongNode.valueOf(count);
                case "SUM":
                    if (invalid) {
                        return ExpressionEvaluator.UNDEFINED;
                    }
                    return allIntegral && Math.abs(exact) <= (1L << 53) ? LongNode.valueOf(exact)
                            : ExpressionEvaluator.number(sum);
                case "AVG":
                    if (invalid || count == 0) {
                        return ExpressionEvaluator.UNDEFINED;
                    }
                    return ExpressionEvaluator.number((allIntegral ? (double) exact : sum) / count);
                default:
                    return invalid || best == null ? ExpressionEvaluator.UNDEFINED : best;
            }
        }
    }
}
