package io.tetradb.mongo.aggregate;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.query.BsonOrder;
import io.tetradb.mongo.query.FieldPath;
import io.tetradb.mongo.query.SortSpec;
import io.tetradb.mongo.update.UpdateApplier;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The gap-filling stages. {@code $fill}: null or missing {@code output} fields get a {@code value} (an expression of
 * the document) or a {@code method} — {@code locf} (the last value before) or {@code linear} (interpolated on the
 * single {@code sortBy} field) — per partition, as MongoDB runs it through {@code $setWindowFields}.
 * {@code $densify}: documents holding only the field (and the partition fields) are added where the sequence
 * {@code lo, lo + step, …} of the field's values has no document, over {@code bounds} "full" (the field's range
 * over all documents), "partition" (each partition's) or {@code [lo, hi)}; numbers, or dates with a {@code unit}.
 */
final class GapFilling {
    private static final long MAX_GENERATED = 500_000; // MongoDB's internalQueryMaxAllowedDensifyDocs

    private GapFilling() {
    }

    static List<BsonDocument> fill(BsonDocument spec, List<BsonDocument> rows, BsonOrder order) {
        for (String k : spec.keySet()) {
            if (!Set.of("partitionBy", "partitionByFields", "sortBy", "output").contains(k)) {
                throw new MongoError(ErrorCode.FAILED_TO_PARSE, "BSON field '$fill." + k + "' is an unknown field.");
            }
        }
        if (spec.containsKey("partitionBy") && spec.containsKey("partitionByFields")) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, "Only one of 'partitionBy' and 'partitionByFields' can be "
                    + "specified for '$fill'");
        }
        if (!spec.containsKey("output") || !spec.get("output").isDocument()) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, "BSON field '$fill.output' is missing but a required field");
        }
        BsonDocument methods = new BsonDocument();
        Map<String, BsonValue> values = new LinkedHashMap<>();
        for (Map.Entry<String, BsonValue> e : spec.getDocument("output").entrySet()) {
            BsonDocument how = e.getValue().isDocument() ? e.getValue().asDocument() : new BsonDocument();
            if (how.size() == 1 && how.containsKey("value")) {
                values.put(e.getKey(), how.get("value"));
            } else if (how.size() == 1 && how.get("method") instanceof BsonString m
                    && (m.getValue().equals("locf") || m.getValue().equals("linear"))) {
                if (m.getValue().equals("linear") && !spec.containsKey("sortBy")) {
                    throw new MongoError(ErrorCode.FAILED_TO_PARSE, "Method 'linear' requires a sortBy field");
                }
                methods.append(e.getKey(), new BsonDocument(m.getValue().equals("locf") ? "$locf" : "$linearFill",
                        new BsonString("$" + e.getKey())));
            } else {
                throw new MongoError(ErrorCode.FAILED_TO_PARSE, "Each $fill output must be {value: <expression>} or "
                        + "{method: 'locf' | 'linear'}: " + e.getKey());
            }
        }
        List<BsonDocument> out = rows;
        if (!methods.isEmpty()) {
            BsonDocument window = new BsonDocument("output", methods);
            if (spec.containsKey("sortBy")) {
                window.append("sortBy", spec.get("sortBy"));
            }
            if (spec.containsKey("partitionBy")) {
                window.append("partitionBy", spec.get("partitionBy"));
            } else if (spec.containsKey("partitionByFields")) {
                BsonDocument key = new BsonDocument();
                for (BsonValue f : spec.getArray("partitionByFields")) {
                    key.append(f.asString().getValue(), new BsonString("$" + f.asString().getValue()));
                }
                window.append("partitionBy", key);
            }
            out = WindowFields.apply(window, rows, order);
        } else if (spec.containsKey("sortBy")) {
            out = new ArrayList<>(rows);
            out.sort(new SortSpec(spec.getDocument("sortBy"), order));
        }
        if (!values.isEmpty()) {
            List<BsonDocument> filled = new ArrayList<>();
            for (BsonDocument r : out) {
                BsonDocument copy = r.clone();
                values.forEach((field, expr) -> {
                    BsonValue v = new FieldPath(field).direct(copy);
                    if (v == null || v.isNull()) {
                        BsonValue with = Expressions.eval(expr, r);
                        UpdateApplier.set(copy, field, with == null ? org.bson.BsonNull.VALUE : with);
                    }
                });
                filled.add(copy);
            }
            out = filled;
        }
        return out;
    }

    static List<BsonDocument> densify(BsonDocument spec, List<BsonDocument> rows, BsonOrder order) {
        for (String k : spec.keySet()) {
            if (!Set.of("field", "partitionByFields", "range").contains(k)) {
                throw new MongoError(ErrorCode.FAILED_TO_PARSE, "BSON field '$densify." + k + "' is an unknown field.");
            }
        }
        if (!(spec.get("field") instanceof BsonString fieldV) || !(spec.get("range") instanceof BsonDocument range)
                || !range.containsKey("step") || !range.containsKey("bounds")) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, "$densify requires 'field' (a string) and 'range' with "
                    + "'step' and 'bounds'");
        }
        String field = fieldV.getValue();
        List<String> partitionFields = new ArrayList<>();
        if (spec.containsKey("partitionByFields")) {
            spec.getArray("partitionByFields").forEach(f -> partitionFields.add(f.asString().getValue()));
        }
        BsonValue stepV = range.get("step");
        if (!BsonOrder.isNumber(stepV) || BsonOrder.toDouble(stepV) <= 0) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, "The step parameter in a range statement must be a "
                    + "strictly positive numeric value");
        }
        String unit = range.containsKey("unit") ? range.getString("unit").getValue() : null;
        BsonValue bounds = range.get("bounds");
        FieldPath path = new FieldPath(field);
        Map<BsonDocument, List<BsonDocument>> partitions = new TreeMap<>(order::compare);
        List<BsonDocument> without = new ArrayList<>();
        double globalLo = Double.POSITIVE_INFINITY;
        double globalHi = Double.NEGATIVE_INFINITY;
        for (BsonDocument r : rows) {
            BsonValue v = path.direct(r);
            if (v == null || v.isNull()) {
                without.add(r);
                continue;
            }
            double x = value(v, unit);
            globalLo = Math.min(globalLo, x);
            globalHi = Math.max(globalHi, x);
            BsonDocument key = new BsonDocument();
            for (String f : partitionFields) {
                BsonValue p = new FieldPath(f).direct(r);
                key.append(f, p == null ? org.bson.BsonNull.VALUE : p);
            }
            partitions.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
        }
        List<BsonDocument> out = new ArrayList<>();
        long generated = 0;
        for (Map.Entry<BsonDocument, List<BsonDocument>> p : partitions.entrySet()) {
            List<BsonDocument> docs = p.getValue();
            docs.sort(new SortSpec(new BsonDocument(field, new BsonInt32(1)), order));
            double lo;
            double hi;
            boolean inclusive = true;
            if (bounds.isString() && bounds.asString().getValue().equals("full")) {
                lo = globalLo;
                hi = globalHi;
            } else if (bounds.isString() && bounds.asString().getValue().equals("partition")) {
                lo = value(path.direct(docs.get(0)), unit);
                hi = value(path.direct(docs.get(docs.size() - 1)), unit);
            } else if (bounds.isArray() && bounds.asArray().size() == 2) {
                lo = value(bounds.asArray().get(0), unit);
                hi = value(bounds.asArray().get(1), unit);
                inclusive = false;
            } else {
                throw new MongoError(ErrorCode.FAILED_TO_PARSE, "Bounds must be 'full', 'partition' or an array of "
                        + "two values");
            }
            List<Double> existing = new ArrayList<>();
            docs.forEach(d -> existing.add(value(path.direct(d), unit)));
            int next = 0;
            for (long k = 0; ; k++) {
                double x = step(lo, k, stepV, unit);
                if (inclusive ? x > hi : x >= hi) {
                    break;
                }
                while (next < docs.size() && existing.get(next) < x) {
                    out.add(docs.get(next++));
                }
                if (next < docs.size() && existing.get(next) == x) {
                    continue;
                }
                if (++generated > MAX_GENERATED) {
                    throw new MongoError(ErrorCode.BAD_VALUE, "$densify would generate more than " + MAX_GENERATED
                            + " documents");
                }
                BsonDocument made = new BsonDocument();
                p.getKey().forEach((f, v) -> UpdateApplier.set(made, f, v));
                UpdateApplier.set(made, field, output(x, stepV, docs, path, unit));
                out.add(made);
            }
            while (next < docs.size()) {
                out.add(docs.get(next++));
            }
        }
        out.addAll(without);
        return out;
    }

    private static double value(BsonValue v, String unit) {
        if (unit == null ? v == null || !BsonOrder.isNumber(v) : v == null || !v.isDateTime()) {
            throw new MongoError(ErrorCode.TYPE_MISMATCH, "$densify: the field and the bounds must be "
                    + (unit == null ? "numbers (no 'unit')" : "dates (with a 'unit')") + ", found "
                    + (v == null ? "missing" : Expressions.typeName(v)));
        }
        return unit == null ? BsonOrder.toDouble(v) : v.asDateTime().getValue();
    }

    /** The k-th value of the sequence from {@code lo}. */
    private static double step(double lo, long k, BsonValue stepV, String unit) {
        double s = BsonOrder.toDouble(stepV);
        if (unit == null) {
            return lo + k * s;
        }
        long amount = k * (long) s;
        java.time.ZonedDateTime t = Instant.ofEpochMilli((long) lo).atZone(ZoneOffset.UTC);
        return switch (unit) {
            case "year" -> t.plusYears(amount).toInstant().toEpochMilli();
            case "quarter" -> t.plusMonths(3 * amount).toInstant().toEpochMilli();
            case "month" -> t.plusMonths(amount).toInstant().toEpochMilli();
            case "week" -> lo + amount * 604_800_000d;
            case "day" -> lo + amount * 86_400_000d;
            case "hour" -> lo + amount * 3_600_000d;
            case "minute" -> lo + amount * 60_000d;
            case "second" -> lo + amount * 1000d;
            case "millisecond" -> lo + amount;
            default -> throw new MongoError(ErrorCode.FAILED_TO_PARSE, "unknown time unit value: " + unit);
        };
    }

    /** A generated value in the field's type: a date, or an int/long when the step and the values are. */
    private static BsonValue output(double x, BsonValue stepV, List<BsonDocument> docs, FieldPath path, String unit) {
        if (unit != null) {
            return new BsonDateTime((long) x);
        }
        BsonValue sample = path.direct(docs.get(0));
        boolean integral = (stepV.isInt32() || stepV.isInt64()) && (sample.isInt32() || sample.isInt64());
        if (integral && x == Math.rint(x)) {
            long n = (long) x;
            return n == (int) n ? new BsonInt32((int) n) : new BsonInt64(n);
        }
        return new BsonDouble(x);
    }
}
