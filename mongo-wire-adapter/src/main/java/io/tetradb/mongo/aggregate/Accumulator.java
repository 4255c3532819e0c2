package io.tetradb.mongo.aggregate;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.query.BsonOrder;
import io.tetradb.mongo.update.Arithmetic;
import org.bson.BsonArray;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonNull;
import org.bson.BsonValue;

import java.util.List;

/** One {@code $group} accumulator's running state: $sum $avg $min $max $first $last $push $addToSet $count
 * $mergeObjects $stdDevPop $stdDevSamp. */
abstract class Accumulator {
    static final java.util.Set<String> NAMES = java.util.Set.of("$sum", "$count", "$avg", "$min", "$max", "$first",
            "$last", "$push", "$addToSet", "$mergeObjects", "$stdDevPop", "$stdDevSamp", "$firstN", "$lastN",
            "$maxN", "$minN", "$top", "$bottom", "$topN", "$bottomN", "$median", "$percentile");

    abstract void add(BsonValue v);

    /** Adds the evaluated argument {@code v} of the input document {@code doc} (the sort-based ones read it). */
    void add(BsonValue v, org.bson.BsonDocument doc) {
        add(v);
    }

    abstract BsonValue result();

    static Accumulator of(String op, BsonValue argument) {
        return switch (op) {
            case "$sum" -> new Accumulator() {
                BsonValue sum = new BsonInt32(0);

                @Override
                void add(BsonValue v) {
                    if (v != null && BsonOrder.isNumber(v)) {
                        sum = Arithmetic.combine(sum, v, true);
                    }
                }

                @Override
                BsonValue result() {
                    return sum;
                }
            };
            case "$count" -> new Accumulator() {
                int n;

                @Override
                void add(BsonValue v) {
                    n++;
                }

                @Override
                BsonValue result() {
                    return new BsonInt32(n);
                }
            };
            case "$avg" -> new Accumulator() {
                double sum;
                long n;

                @Override
                void add(BsonValue v) {
                    if (v != null && BsonOrder.isNumber(v)) {
                        sum += BsonOrder.toDouble(v);
                        n++;
                    }
                }

                @Override
                BsonValue result() {
                    return n == 0 ? BsonNull.VALUE : new BsonDouble(sum / n);
                }
            };
            case "$min", "$max" -> new Accumulator() {
                BsonValue best;

                @Override
                void add(BsonValue v) {
                    if (v == null || v.isNull()) {
                        return;
                    }
                    int c = best == null ? 0 : BsonOrder.INSTANCE.compare(v, best);
                    if (best == null || (op.equals("$min") ? c < 0 : c > 0)) {
                        best = v;
                    }
                }

                @Override
                BsonValue result() {
                    return best == null ? BsonNull.VALUE : best;
                }
            };
            case "$first", "$last" -> new Accumulator() {
                BsonValue value;
                boolean seen;

                @Override
                void add(BsonValue v) {
                    if (!seen || op.equals("$last")) {
                        value = v;
                        seen = true;
                    }
                }

                @Override
                BsonValue result() {
                    return value == null ? BsonNull.VALUE : value;
                }
            };
            case "$push", "$addToSet" -> new Accumulator() {
                final BsonArray values = new BsonArray();

                @Override
                void add(BsonValue v) {
                    if (v == null) {
                        return;
                    }
                    if (op.equals("$push") || values.stream().noneMatch(x -> BsonOrder.equal(x, v))) {
                        values.add(v);
                    }
                }

                @Override
                BsonValue result() {
                    return values;
                }
            };
            case "$mergeObjects" -> new Accumulator() {
                final org.bson.BsonDocument merged = new org.bson.BsonDocument();

                @Override
                void add(BsonValue v) {
                    ObjectOperators.merge(merged, v);
                }

                @Override
                BsonValue result() {
                    return merged;
                }
            };
            case "$stdDevPop", "$stdDevSamp" -> new Accumulator() {
                // Welford's running mean and sum of squared deviations
                long n;
                double mean;
                double m2;

                @Override
                void add(BsonValue v) {
                    if (v != null && BsonOrder.isNumber(v)) {
                        double x = BsonOrder.toDouble(v);
                        n++;
                        double delta = x - mean;
                        mean += delta / n;
                        m2 += delta * (x - mean);
                    }
                }

                @Override
                BsonValue result() {
                    long d = op.equals("$stdDevPop") ? n : n - 1;
                    return n == 0 || d <= 0 ? BsonNull.VALUE : new BsonDouble(Math.sqrt(m2 / d));
                }
            };
            case "$firstN", "$lastN", "$maxN", "$minN", "$top", "$bottom", "$topN", "$bottomN" ->
                    new NAccumulator(op, argument);
            case "$median", "$percentile" -> new Percentiles(op, argument);
            default -> throw new MongoError(ErrorCode.UNKNOWN_GROUP_OPERATOR, "unknown group operator '" + op + "'");
        };
    }

    /**
     * The n-element accumulators: {@code $firstN $lastN} ({@code {input, n}}, nulls kept), {@code $maxN $minN}
     * (nulls and missing skipped), {@code $top $bottom $topN $bottomN} ({@code {sortBy, output[, n]}}: the outputs
     * of the first or last documents in sortBy order).
     */
    private static final class NAccumulator extends Accumulator {
        private final String op;
        private final io.tetradb.mongo.query.SortSpec sort;
        private final java.util.List<java.util.Map.Entry<org.bson.BsonDocument, BsonValue>> kept =
                new java.util.ArrayList<>();
        private long n = -1;

        NAccumulator(String op, BsonValue spec) {
            this.op = op;
            boolean sorted = op.startsWith("$top") || op.startsWith("$bottom");
            boolean single = op.equals("$top") || op.equals("$bottom");
            java.util.List<String> fields = sorted ? (single ? java.util.List.of("sortBy", "output")
                    : java.util.List.of("n", "sortBy", "output")) : java.util.List.of("input", "n");
            if (!spec.isDocument() || !spec.asDocument().keySet().equals(new java.util.HashSet<>(fields))) {
                throw new MongoError(ErrorCode.FAILED_TO_PARSE, op + " needs exactly the fields " + fields);
            }
            if (sorted && !spec.asDocument().get("sortBy").isDocument()) {
                throw new MongoError(ErrorCode.FAILED_TO_PARSE, op + "'s sortBy must be an object");
            }
            this.sort = sorted ? new io.tetradb.mongo.query.SortSpec(spec.asDocument().getDocument("sortBy")) : null;
            if (single) {
                n = 1;
            }
        }

        @Override
        void add(BsonValue v) {
            add(v, new org.bson.BsonDocument());
        }

        @Override
        void add(BsonValue v, org.bson.BsonDocument doc) {
            org.bson.BsonDocument args = v.asDocument();
            if (n < 0) {
                BsonValue nV = args.get("n");
                if (nV == null || !BsonOrder.isNumber(nV) || BsonOrder.toDouble(nV) < 1
                        || BsonOrder.toDouble(nV) != Math.rint(BsonOrder.toDouble(nV))) {
                    throw new MongoError(ErrorCode.N_ACCUMULATOR_N, "Value for 'n' must be a positive integral "
                            + "value, found " + (nV == null ? "missing" : MathOperators.show(nV)));
                }
                n = (long) BsonOrder.toDouble(nV);
            }
            BsonValue value = args.get(sort != null ? "output" : "input", BsonNull.VALUE);
            if ((op.equals("$maxN") || op.equals("$minN")) && value.isNull()) {
                return;
            }
            kept.add(java.util.Map.entry(doc, value));
            if (op.equals("$firstN") && kept.size() > n) {
                kept.remove(kept.size() - 1);
            } else if (op.equals("$lastN") && kept.size() > n) {
                kept.remove(0);
            } else if (kept.size() > 4 * n + 64) {
                trim(); // bounded memory: keep the best n now and then
            }
        }

        private void trim() {
            java.util.Comparator<java.util.Map.Entry<org.bson.BsonDocument, BsonValue>> c = switch (op) {
                case "$maxN" -> (x, y) -> BsonOrder.INSTANCE.compare(y.getValue(), x.getValue());
                case "$minN" -> (x, y) -> BsonOrder.INSTANCE.compare(x.getValue(), y.getValue());
                case "$top", "$topN" -> (x, y) -> sort.compare(x.getKey(), y.getKey());
                case "$bottom", "$bottomN" -> (x, y) -> sort.compare(y.getKey(), x.getKey());
                default -> null;
            };
            if (c != null) {
                kept.sort(c); // best first
                while (kept.size() > n) {
                    kept.remove(kept.size() - 1);
                }
            }
        }

        @Override
        BsonValue result() {
            trim();
            if (op.equals("$top") || op.equals("$bottom")) {
                return kept.isEmpty() ? BsonNull.VALUE : kept.get(0).getValue();
            }
            java.util.List<BsonValue> values = new java.util.ArrayList<>();
            kept.forEach(e -> values.add(e.getValue()));
            if (op.equals("$bottomN")) {
                java.util.Collections.reverse(values); // answered in sortBy order
            }
            return new BsonArray(values);
        }
    }

    /**
     * {@code $median} and {@code $percentile} ({@code {input, p: [..], method}}) over the numeric inputs (others
     * ignored). The answer is a data value: the ceil(p·n)-th smallest ("approximate" and "discrete"), or
     * interpolated between neighbours ("continuous"); null when there is no number.
     */
    static final class Percentiles extends Accumulator {
        private final String op;
        private final List<Double> ps = new java.util.ArrayList<>();
        private final boolean continuous;
        private final List<BsonValue> values = new java.util.ArrayList<>();

        Percentiles(String op, BsonValue spec) {
            this.op = op;
            java.util.Set<String> fields = op.equals("$median") ? java.util.Set.of("input", "method")
                    : java.util.Set.of("input", "p", "method");
            if (!spec.isDocument() || !spec.asDocument().keySet().equals(fields)) {
                throw new MongoError(ErrorCode.FAILED_TO_PARSE, op + " needs exactly the fields " + fields);
            }
            BsonValue method = spec.asDocument().get("method");
            if (!method.isString() || !List.of("approximate", "discrete", "continuous")
                    .contains(method.asString().getValue())) {
                throw new MongoError(ErrorCode.BAD_VALUE, "Currently only 'approximate', 'discrete' and "
                        + "'continuous' can be used as the percentile 'method'");
            }
            continuous = method.asString().getValue().equals("continuous");
            if (op.equals("$median")) {
                ps.add(0.5);
            } else {
                BsonValue p = spec.asDocument().get("p");
                if (!p.isArray() || p.asArray().isEmpty()) {
                    throw new MongoError(ErrorCode.BAD_VALUE, "The 'p' field must be a non-empty array of numbers "
                            + "from 0.0 to 1.0");
                }
                for (BsonValue x : p.asArray()) {
                    if (!BsonOrder.isNumber(x) || BsonOrder.toDouble(x) < 0 || BsonOrder.toDouble(x) > 1) {
                        throw new MongoError(ErrorCode.BAD_VALUE, "The 'p' field must be an array of numbers from "
                                + "0.0 to 1.0, but found: " + x);
                    }
                    ps.add(BsonOrder.toDouble(x));
                }
            }
        }

        @Override
        void add(BsonValue v) {
            BsonValue input = v != null && v.isDocument() ? v.asDocument().get("input") : v;
            addInput(input);
        }

        /** One input value (an array's numbers each, for the expression form). */
        void addInput(BsonValue input) {
            if (input == null) {
                return;
            }
            if (input.isArray()) {
                input.asArray().forEach(this::addInput);
            } else if (BsonOrder.isNumber(input)) {
                values.add(input);
            }
        }

        @Override
        BsonValue result() {
            values.sort(BsonOrder.INSTANCE);
            BsonArray out = new BsonArray();
            for (double p : ps) {
                if (values.isEmpty()) {
                    out.add(BsonNull.VALUE);
                } else if (continuous) {
                    double rank = p * (values.size() - 1);
                    int lo = (int) Math.floor(rank);
                    int hi = (int) Math.ceil(rank);
                    double a = BsonOrder.toDouble(values.get(lo));
                    double b = BsonOrder.toDouble(values.get(hi));
                    out.add(new BsonDouble(a + (b - a) * (rank - lo)));
                } else {
                    int rank = (int) Math.max(1, Math.ceil(p * values.size()));
                    out.add(new BsonDouble(BsonOrder.toDouble(values.get(rank - 1))));
                }
            }
            return op.equals("$median") ? out.get(0) : out;
        }
    }
}
