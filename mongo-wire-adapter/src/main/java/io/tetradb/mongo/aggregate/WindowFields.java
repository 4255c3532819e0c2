package io.tetradb.mongo.aggregate;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.query.BsonOrder;
import io.tetradb.mongo.query.FieldPath;
import io.tetradb.mongo.query.SortSpec;
import io.tetradb.mongo.update.UpdateApplier;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonNull;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code $setWindowFields}: the documents are grouped by {@code partitionBy} and ordered by {@code sortBy} (the
 * output comes in that order), and each {@code output} field is a window function over a window of the partition
 * around the document: {@code documents: [lo, hi]} (positions relative to the document) or {@code range: [lo, hi]}
 * (values of the single sortBy field relative to the document's, with {@code unit} for dates), bounds
 * {@code "unbounded"}/{@code "current"}; the whole partition when no window is given. Functions: the
 * {@code $group} accumulators ({@code $sum $avg $min $max $count $push $addToSet $first $last $stdDevPop
 * $stdDevSamp $mergeObjects}), {@code $rank $denseRank $documentNumber $shift $expMovingAvg $derivative
 * $integral}.
 */
final class WindowFields {
    private static final Set<String> RANKS = Set.of("$rank", "$denseRank", "$documentNumber");
    private static final Set<String> OTHERS = Set.of("$shift", "$expMovingAvg", "$derivative", "$integral",
            "$locf", "$linearFill", "$covariancePop", "$covarianceSamp");

    private final BsonOrder order;
    private final BsonDocument sortBy;
    private final SortSpec sort;

    private WindowFields(BsonDocument spec, BsonOrder order) {
        this.order = order;
        this.sortBy = spec.containsKey("sortBy") ? spec.getDocument("sortBy") : null;
        this.sort = sortBy == null ? null : new SortSpec(sortBy, order);
    }

    static List<BsonDocument> apply(BsonDocument spec, List<BsonDocument> rows, BsonOrder order) {
        for (String k : spec.keySet()) {
            if (!Set.of("partitionBy", "sortBy", "output").contains(k)) {
                throw new MongoError(ErrorCode.FAILED_TO_PARSE, "BSON field '$setWindowFields." + k
                        + "' is an unknown field.");
            }
        }
        if (!spec.containsKey("output") || !spec.get("output").isDocument()) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, "BSON field '$setWindowFields.output' is missing but a "
                    + "required field");
        }
        if (spec.containsKey("sortBy") && !spec.get("sortBy").isDocument()) {
            throw new MongoError(ErrorCode.TYPE_MISMATCH, "$setWindowFields' sortBy must be an object");
        }
        return new WindowFields(spec, order).run(spec, rows);
    }

    private List<BsonDocument> run(BsonDocument spec, List<BsonDocument> rows) {
        BsonValue partitionBy = spec.get("partitionBy");
        Map<BsonValue, List<BsonDocument>> partitions = new TreeMap<>(order);
        for (BsonDocument r : rows) {
            BsonValue key = partitionBy == null ? BsonNull.VALUE : Expressions.eval(partitionBy, r);
            partitions.computeIfAbsent(key == null ? BsonNull.VALUE : key, k -> new ArrayList<>()).add(r);
        }
        List<BsonDocument> out = new ArrayList<>();
        for (List<BsonDocument> partition : partitions.values()) {
            if (sort != null) {
                partition.sort(sort);
            }
            List<BsonDocument> copies = new ArrayList<>();
            partition.forEach(d -> copies.add(d.clone()));
            for (Map.Entry<String, BsonValue> e : spec.getDocument("output").entrySet()) {
                List<BsonValue> values = function(e.getKey(), e.getValue(), partition);
                for (int i = 0; i < copies.size(); i++) {
                    UpdateApplier.set(copies.get(i), e.getKey(), values.get(i) == null ? BsonNull.VALUE
                            : values.get(i));
                }
            }
            out.addAll(copies);
        }
        return out;
    }

    /** One output field's values, one per document of the (sorted) partition. */
    private List<BsonValue> function(String field, BsonValue specV, List<BsonDocument> rows) {
        if (!specV.isDocument()) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, "$setWindowFields: output field '" + field
                    + "' must be an object");
        }
        BsonDocument spec = specV.asDocument();
        String fn = null;
        for (String k : spec.keySet()) {
            if (!k.equals("window")) {
                if (fn != null) {
                    throw new MongoError(ErrorCode.FAILED_TO_PARSE, "$setWindowFields: output field '" + field
                            + "' may only name one window function, found " + fn + " and " + k);
                }
                fn = k;
            }
        }
        if (fn == null || !(Accumulator.NAMES.contains(fn) || RANKS.contains(fn) || OTHERS.contains(fn))) {
            throw new MongoError(ErrorCode.WINDOW_UNKNOWN_FUNCTION, "Unrecognized window function, "
                    + (fn == null ? "none given" : fn));
        }
        BsonValue arg = spec.get(fn);
        BsonDocument window = spec.containsKey("window") ? spec.getDocument("window") : null;
        int n = rows.size();
        List<BsonValue> out = new ArrayList<>(n);
        if (RANKS.contains(fn) || fn.equals("$shift")) {
            if (window != null) {
                throw new MongoError(ErrorCode.FAILED_TO_PARSE, "'window' field is not allowed in " + fn);
            }
            if (sortBy == null || RANKS.contains(fn) && sortBy.size() != 1) {
                throw new MongoError(ErrorCode.WINDOW_RANK_SORT, fn + " must be specified with a top level sortBy "
                        + "expression with exactly one element");
            }
            return fn.equals("$shift") ? shift(arg, rows) : rank(fn, rows);
        }
        if (fn.equals("$expMovingAvg")) {
            return expMovingAvg(arg, rows);
        }
        if (fn.equals("$locf") || fn.equals("$linearFill")) {
            if (window != null) {
                throw new MongoError(ErrorCode.FAILED_TO_PARSE, "'window' field is not allowed in " + fn);
            }
            return fn.equals("$locf") ? locf(arg, rows) : linearFill(arg, rows);
        }
        for (int i = 0; i < n; i++) {
            int[] range = window(window, rows, i);
            if (fn.equals("$derivative") || fn.equals("$integral")) {
                out.add(calculus(fn, arg, rows, range[0], range[1]));
                continue;
            }
            if (fn.startsWith("$covariance")) {
                out.add(covariance(fn, arg, rows, range[0], range[1]));
                continue;
            }
            Accumulator acc = Accumulator.of(fn, arg);
            for (int j = range[0]; j <= range[1]; j++) {
                acc.add(fn.equals("$count") ? null : Expressions.eval(arg, rows.get(j)), rows.get(j));
            }
            out.add(acc.result());
        }
        return out;
    }

    /** The first and last positions of document {@code i}'s window (last < first: empty). */
    private int[] window(BsonDocument window, List<BsonDocument> rows, int i) {
        int n = rows.size();
        if (window == null) {
            return new int[] {0, n - 1};
        }
        if (window.containsKey("documents")) {
            BsonValue[] b = bounds(window.get("documents"));
            int lo = b[0].isString() ? (b[0].asString().getValue().equals("unbounded") ? 0 : i)
                    : (int) Math.max(0, Math.min(n, i + (long) BsonOrder.toDouble(b[0])));
            int hi = b[1].isString() ? (b[1].asString().getValue().equals("unbounded") ? n - 1 : i)
                    : (int) Math.max(-1, Math.min(n - 1, i + (long) BsonOrder.toDouble(b[1])));
            return new int[] {lo, hi};
        }
        if (window.containsKey("range")) {
            if (sortBy == null || sortBy.size() != 1) {
                throw new MongoError(ErrorCode.WINDOW_BOUNDS, "Range-based window requires sortBy a single field");
            }
            BsonValue[] b = bounds(window.get("range"));
            String unit = window.containsKey("unit") ? window.getString("unit").getValue() : null;
            double here = key(rows.get(i), unit != null);
            int lo = n;
            int hi = -1;
            for (int j = 0; j < n; j++) {
                double v = key(rows.get(j), unit != null);
                boolean aboveLo = b[0].isString() ? (b[0].asString().getValue().equals("unbounded") || v >= here)
                        : v >= bound(here, b[0], unit);
                boolean belowHi = b[1].isString() ? (b[1].asString().getValue().equals("unbounded") || v <= here)
                        : v <= bound(here, b[1], unit);
                if (aboveLo && belowHi) {
                    lo = Math.min(lo, j);
                    hi = Math.max(hi, j);
                }
            }
            return new int[] {lo, hi};
        }
        throw new MongoError(ErrorCode.WINDOW_BOUNDS, "'window' field must have 'documents' or 'range'");
    }

    private static BsonValue[] bounds(BsonValue v) {
        if (!v.isArray() || v.asArray().size() != 2) {
            throw new MongoError(ErrorCode.WINDOW_BOUNDS, "Window bounds must be a 2-element array: " + v);
        }
        BsonValue[] b = {v.asArray().get(0), v.asArray().get(1)};
        for (BsonValue x : b) {
            if (!(BsonOrder.isNumber(x) || x.isString() && (x.asString().getValue().equals("unbounded")
                    || x.asString().getValue().equals("current")))) {
                throw new MongoError(ErrorCode.WINDOW_BOUNDS, "Window bounds must be 'unbounded', 'current', or a "
                        + "number: " + x);
            }
        }
        if (BsonOrder.isNumber(b[0]) && BsonOrder.isNumber(b[1]) && BsonOrder.toDouble(b[0]) > BsonOrder.toDouble(b[1])
                || b[0].isString() && b[0].asString().getValue().equals("current") && BsonOrder.isNumber(b[1])
                && BsonOrder.toDouble(b[1]) < 0) {
            throw new MongoError(ErrorCode.WINDOW_BOUNDS, "Lower bound must not exceed upper bound: " + v);
        }
        return b;
    }

    /** {@code here} moved by a range bound: calendar units (month, quarter, year) move the UTC date. */
    private static double bound(double here, BsonValue amount, String unit) {
        if (unit == null || !Set.of("month", "quarter", "year").contains(unit)) {
            return here + offset(amount, unit);
        }
        double a = BsonOrder.toDouble(amount);
        if (a != Math.rint(a)) {
            throw new MongoError(ErrorCode.WINDOW_BOUNDS, "With a '" + unit + "' unit the range bounds must be "
                    + "integers: " + amount);
        }
        java.time.ZonedDateTime t = java.time.Instant.ofEpochMilli((long) here).atZone(java.time.ZoneOffset.UTC);
        long months = (long) a * (unit.equals("year") ? 12 : unit.equals("quarter") ? 3 : 1);
        return t.plusMonths(months).toInstant().toEpochMilli();
    }

    /** A range bound in the sort key's terms (milliseconds for dates). */
    private static double offset(BsonValue amount, String unit) {
        double a = BsonOrder.toDouble(amount);
        if (unit == null) {
            return a;
        }
        return a * switch (unit) {
            case "week" -> 604_800_000d;
            case "day" -> 86_400_000d;
            case "hour" -> 3_600_000d;
            case "minute" -> 60_000d;
            case "second" -> 1000d;
            case "millisecond" -> 1d;
            default -> throw new MongoError(ErrorCode.FAILED_TO_PARSE, "unknown time unit value: " + unit);
        };
    }

    /** The single sortBy field's value as a number (a date's milliseconds when {@code dates}). */
    private double key(BsonDocument doc, boolean dates) {
        BsonValue v = new FieldPath(sortBy.getFirstKey()).direct(doc);
        if (dates ? v == null || !v.isDateTime() : v == null || !BsonOrder.isNumber(v)) {
            throw new MongoError(ErrorCode.WINDOW_BOUNDS, "Invalid range: Expected the sortBy field to be a "
                    + (dates ? "date" : "number") + ", but it was " + (v == null ? "missing" : Expressions.typeName(v)));
        }
        return dates ? v.asDateTime().getValue() : BsonOrder.toDouble(v);
    }

    private List<BsonValue> rank(String fn, List<BsonDocument> rows) {
        List<BsonValue> out = new ArrayList<>();
        int rank = 0;
        int dense = 0;
        for (int i = 0; i < rows.size(); i++) {
            boolean tie = i > 0 && sort.compare(rows.get(i - 1), rows.get(i)) == 0;
            if (!tie) {
                rank = i + 1;
                dense++;
            }
            out.add(new BsonInt32(switch (fn) {
                case "$rank" -> rank;
                case "$denseRank" -> dense;
                default -> i + 1;
            }));
        }
        return out;
    }

    private List<BsonValue> shift(BsonValue arg, List<BsonDocument> rows) {
        if (!arg.isDocument() || !arg.asDocument().containsKey("output") || !arg.asDocument().containsKey("by")
                || !BsonOrder.isNumber(arg.asDocument().get("by"))) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, "$shift requires 'output' and an integer 'by'");
        }
        BsonDocument s = arg.asDocument();
        int by = (int) BsonOrder.toDouble(s.get("by"));
        BsonValue dflt = s.containsKey("default") ? Expressions.eval(s.get("default"), new BsonDocument())
                : BsonNull.VALUE;
        List<BsonValue> out = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            int j = i + by;
            out.add(j >= 0 && j < rows.size() ? Expressions.eval(s.get("output"), rows.get(j)) : dflt);
        }
        return out;
    }

    private List<BsonValue> expMovingAvg(BsonValue arg, List<BsonDocument> rows) {
        if (!arg.isDocument() || !arg.asDocument().containsKey("input")
                || arg.asDocument().containsKey("N") == arg.asDocument().containsKey("alpha")) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, "$expMovingAvg requires 'input' and exactly one of "
                    + "'N' and 'alpha'");
        }
        BsonDocument s = arg.asDocument();
        double alpha = s.containsKey("N") ? 2.0 / (BsonOrder.toDouble(s.get("N")) + 1)
                : BsonOrder.toDouble(s.get("alpha"));
        List<BsonValue> out = new ArrayList<>();
        Double avg = null;
        for (BsonDocument r : rows) {
            BsonValue v = Expressions.eval(s.get("input"), r);
            if (v != null && BsonOrder.isNumber(v)) {
                double x = BsonOrder.toDouble(v);
                avg = avg == null ? x : alpha * x + (1 - alpha) * avg;
            }
            out.add(avg == null ? BsonNull.VALUE : new BsonDouble(avg));
        }
        return out;
    }

    /** {@code $derivative} (rise over run between the window's ends) or {@code $integral} (trapezoids). */
    private BsonValue calculus(String fn, BsonValue arg, List<BsonDocument> rows, int lo, int hi) {
        if (!arg.isDocument() || !arg.asDocument().containsKey("input")) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, fn + " requires an 'input' expression");
        }
        if (sortBy == null || sortBy.size() != 1) {
            throw new MongoError(ErrorCode.WINDOW_RANK_SORT, fn + " requires a sortBy of exactly one field");
        }
        String unit = arg.asDocument().containsKey("unit") ? arg.asDocument().getString("unit").getValue() : null;
        double perUnit = unit == null ? 1 : offset(new BsonInt32(1), unit);
        if (hi <= lo) {
            return fn.equals("$integral") && hi == lo ? new BsonDouble(0) : BsonNull.VALUE;
        }
        double total = 0;
        for (int j = lo; j < (fn.equals("$derivative") ? lo + 1 : hi); j++) {
            int k = fn.equals("$derivative") ? hi : j + 1;
            double x0 = key(rows.get(j), unit != null) / perUnit;
            double x1 = key(rows.get(k), unit != null) / perUnit;
            BsonValue y0 = Expressions.eval(arg.asDocument().get("input"), rows.get(j));
            BsonValue y1 = Expressions.eval(arg.asDocument().get("input"), rows.get(k));
            if (y0 == null || y1 == null || !BsonOrder.isNumber(y0) || !BsonOrder.isNumber(y1)) {
                return BsonNull.VALUE;
            }
            if (fn.equals("$derivative")) {
                return x1 == x0 ? BsonNull.VALUE
                        : new BsonDouble((BsonOrder.toDouble(y1) - BsonOrder.toDouble(y0)) / (x1 - x0));
            }
            total += (BsonOrder.toDouble(y0) + BsonOrder.toDouble(y1)) / 2 * (x1 - x0);
        }
        return new BsonDouble(total);
    }

    /** {@code $locf}: the last non-null value so far (the document's own when it has one). */
    private static List<BsonValue> locf(BsonValue arg, List<BsonDocument> rows) {
        List<BsonValue> out = new ArrayList<>();
        BsonValue last = BsonNull.VALUE;
        for (BsonDocument r : rows) {
            BsonValue v = Expressions.eval(arg, r);
            if (v != null && !v.isNull()) {
                last = v;
            }
            out.add(last);
        }
        return out;
    }

    /**
     * {@code $linearFill}: a null or missing value interpolated on the single sortBy key between the nearest
     * non-null values before and after it (null at the ends).
     */
    private List<BsonValue> linearFill(BsonValue arg, List<BsonDocument> rows) {
        if (sortBy == null || sortBy.size() != 1) {
            throw new MongoError(ErrorCode.WINDOW_RANK_SORT, "$linearFill must be specified with a top level sortBy "
                    + "expression with exactly one element");
        }
        int n = rows.size();
        List<BsonValue> values = new ArrayList<>();
        for (BsonDocument r : rows) {
            BsonValue v = Expressions.eval(arg, r);
            if (v != null && !v.isNull() && !BsonOrder.isNumber(v)) {
                throw new MongoError(ErrorCode.TYPE_MISMATCH, "$linearFill requires numeric values, found "
                        + Expressions.typeName(v));
            }
            values.add(v == null || v.isNull() ? null : v);
        }
        boolean dates = new FieldPath(sortBy.getFirstKey()).direct(rows.get(0)) instanceof org.bson.BsonDateTime;
        List<BsonValue> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (values.get(i) != null) {
                out.add(values.get(i));
                continue;
            }
            int before = i - 1;
            while (before >= 0 && values.get(before) == null) {
                before--;
            }
            int after = i + 1;
            while (after < n && values.get(after) == null) {
                after++;
            }
            if (before < 0 || after >= n) {
                out.add(BsonNull.VALUE);
                continue;
            }
            double x0 = key(rows.get(before), dates);
            double x1 = key(rows.get(after), dates);
            double y0 = BsonOrder.toDouble(values.get(before));
            double y1 = BsonOrder.toDouble(values.get(after));
            double x = key(rows.get(i), dates);
            out.add(new BsonDouble(y0 + (y1 - y0) * (x - x0) / (x1 - x0)));
        }
        return out;
    }

    /** {@code $covariancePop}/{@code $covarianceSamp} of the window's numeric {@code [x, y]} pairs. */
    private static BsonValue covariance(String fn, BsonValue arg, List<BsonDocument> rows, int lo, int hi) {
        if (!arg.isArray() || arg.asArray().size() != 2) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, fn + " requires an array of two expressions");
        }
        List<double[]> pairs = new ArrayList<>();
        for (int j = lo; j <= hi; j++) {
            BsonValue x = Expressions.eval(arg.asArray().get(0), rows.get(j));
            BsonValue y = Expressions.eval(arg.asArray().get(1), rows.get(j));
            if (x != null && y != null && BsonOrder.isNumber(x) && BsonOrder.isNumber(y)) {
                pairs.add(new double[] {BsonOrder.toDouble(x), BsonOrder.toDouble(y)});
            }
        }
        int n = pairs.size();
        int d = fn.equals("$covariancePop") ? n : n - 1;
        if (n == 0 || d <= 0) {
            return BsonNull.VALUE;
        }
        double mx = pairs.stream().mapToDouble(p -> p[0]).sum() / n;
        double my = pairs.stream().mapToDouble(p -> p[1]).sum() / n;
        double c = 0;
        for (double[] p : pairs) {
            c += (p[0] - mx) * (p[1] - my);
        }
        return new BsonDouble(c / d);
    }
}
