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

/** One {@code $group} accumulator's running state: $sum $avg $min $max $first $last $push $addToSet $count
 * $mergeObjects $stdDevPop $stdDevSamp. */
abstract class Accumulator {
    static final java.util.Set<String> NAMES = java.util.Set.of("$sum", "$count", "$avg", "$min", "$max", "$first",
            "$last", "$push", "$addToSet", "$mergeObjects", "$stdDevPop", "$stdDevSamp");

    abstract void add(BsonValue v);

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
            default -> throw new MongoError(ErrorCode.UNKNOWN_GROUP_OPERATOR, "unknown group operator '" + op + "'");
        };
    }
}
