package io.tetradb.mongo.store;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.query.BsonOrder;
import io.tetradb.mongo.query.FieldPath;
import io.tetradb.mongo.query.FilterMatcher;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonNull;
import org.bson.BsonUndefined;
import org.bson.BsonValue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The keys one index holds for a document, by MongoDB's multikey rules: a path through an array of documents reads
 * the field in each element (an element without it gives null), an array at the end of the path gives one key per
 * element (an empty array the key {@code undefined}), a compound index takes every combination of its fields' keys,
 * and two fields may not both go through different arrays (171 CannotIndexParallelArrays). A missing field is the key
 * null, except that a sparse index skips a document missing every field of the key and a partial index skips one its
 * {@code partialFilterExpression} does not match.
 */
final class IndexKeys {
    private final BsonDocument pattern;
    private final boolean sparse;
    private final FilterMatcher partial;

    IndexKeys(BsonDocument spec) {
        this.pattern = spec.getDocument("key");
        this.sparse = spec.getBoolean("sparse", BsonBoolean.FALSE).getValue();
        BsonValue p = spec.get("partialFilterExpression");
        this.partial = p != null && p.isDocument() ? FilterMatcher.compile(p.asDocument()) : null;
    }

    BsonDocument pattern() {
        return pattern;
    }

    /** The distinct keys of {@code doc} (each {@code {field: value, …}} in the pattern's order); empty if skipped. */
    List<BsonDocument> of(BsonDocument doc) {
        if (partial != null && !partial.test(doc)) {
            return List.of();
        }
        List<List<BsonValue>> perField = new ArrayList<>();
        String arrayOwner = null;
        String arrayPath = null;
        boolean anyPresent = false;
        for (String field : pattern.keySet()) {
            List<BsonValue> values = new ArrayList<>();
            String[] expanded = {null};
            collect(doc, new FieldPath(field).segments(), 0, "", values, expanded);
            if (values.stream().anyMatch(v -> v != null)) {
                anyPresent = true;
            }
            if (expanded[0] != null) {
                if (arrayPath != null && !arrayPath.equals(expanded[0])) {
                    throw new MongoError(ErrorCode.CANNOT_INDEX_PARALLEL_ARRAYS, "cannot index parallel arrays ["
                            + lastSegment(field) + "] [" + lastSegment(arrayOwner) + "]");
                }
                arrayPath = expanded[0];
                arrayOwner = field;
            }
            List<BsonValue> distinct = new ArrayList<>();
            for (BsonValue v : values) {
                BsonValue key = v == null ? BsonNull.VALUE : v;
                if (distinct.stream().noneMatch(x -> sameKeyValue(x, key))) {
                    distinct.add(key);
                }
            }
            perField.add(distinct);
        }
        if (sparse && !anyPresent) {
            return List.of();
        }
        List<BsonDocument> keys = new ArrayList<>();
        keys.add(new BsonDocument());
        List<String> fields = new ArrayList<>(pattern.keySet());
        for (int f = 0; f < fields.size(); f++) {
            List<BsonDocument> next = new ArrayList<>();
            for (BsonDocument partialKey : keys) {
                for (BsonValue v : perField.get(f)) {
                    next.add(partialKey.clone().append(fields.get(f), v));
                }
            }
            keys = next;
        }
        return keys;
    }

    private static String lastSegment(String field) {
        return field.substring(field.lastIndexOf('.') + 1);
    }

    /** Adds the values the path reaches (null: missing there); {@code expanded} gets the array it went through. */
    private static void collect(BsonValue cur, String[] segs, int i, String prefix, List<BsonValue> out,
                                String[] expanded) {
        if (i == segs.length) {
            if (cur instanceof BsonArray a) {
                expanded[0] = prefix;
                if (a.isEmpty()) {
                    out.add(new BsonUndefined());
                }
                out.addAll(a.getValues());
            } else {
                out.add(cur);
            }
            return;
        }
        String seg = segs[i];
        String here = prefix.isEmpty() ? seg : prefix + "." + seg;
        if (cur instanceof BsonDocument d) {
            BsonValue next = d.get(seg);
            if (next == null) {
                out.add(null);
            } else {
                collect(next, segs, i + 1, here, out, expanded);
            }
        } else if (cur instanceof BsonArray a) {
            int index = seg.chars().allMatch(Character::isDigit) && !seg.isEmpty() && seg.length() < 10
                    ? Integer.parseInt(seg) : -1;
            if (index >= 0) {
                collect(index < a.size() ? a.get(index) : null, segs, i + 1, here, out, expanded);
                return;
            }
            expanded[0] = prefix;
            if (a.isEmpty()) {
                out.add(null);
            }
            for (BsonValue e : a) {
                collect(e instanceof BsonDocument ? e : null, segs, i, prefix, out, expanded);
            }
        } else {
            out.add(null);
        }
    }

    /** Equal as index keys: numbers by value (1, 1.0 and NumberLong(1) are one key), the rest exactly. */
    static boolean sameKeyValue(BsonValue a, BsonValue b) {
        return canonical(a).equals(canonical(b));
    }

    static boolean sameKey(BsonDocument a, BsonDocument b) {
        return canonical(a).equals(canonical(b));
    }

    /** A text equal for exactly the values that are one index key. */
    static String canonical(BsonValue v) {
        if (BsonOrder.isNumber(v)) {
            double d = BsonOrder.toDouble(v);
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                return "n:" + d;
            }
            BigDecimal x = v.isDecimal128() ? v.asDecimal128().getValue().bigDecimalValue()
                    : v.isDouble() ? new BigDecimal(d) : BigDecimal.valueOf(v.asNumber().longValue());
            return "n:" + (x.signum() == 0 ? "0" : x.stripTrailingZeros().toPlainString());
        }
        if (v instanceof BsonDocument d) {
            StringBuilder sb = new StringBuilder("{");
            for (Map.Entry<String, BsonValue> e : d.entrySet()) {
                sb.append(e.getKey()).append(':').append(canonical(e.getValue())).append(',');
            }
            return sb.append('}').toString();
        }
        if (v instanceof BsonArray a) {
            StringBuilder sb = new StringBuilder("[");
            for (BsonValue x : a) {
                sb.append(canonical(x)).append(',');
            }
            return sb.append(']').toString();
        }
        return v.getBsonType().name() + ":" + io.tetradb.mongo.bson.BsonText.of(v);
    }
}
