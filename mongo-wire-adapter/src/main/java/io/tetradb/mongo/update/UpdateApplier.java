package io.tetradb.mongo.update;

import io.tetradb.mongo.bson.BsonText;
import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.query.BsonOrder;
import io.tetradb.mongo.query.FilterMatcher;
import io.tetradb.mongo.query.SortSpec;
import org.bson.BsonArray;
import org.bson.BsonDateTime;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonTimestamp;
import org.bson.BsonValue;
import org.bson.types.Decimal128;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Applies a MongoDB update document to a copy of a document: a replacement (no operators) or the field and array
 * update operators. Paths are dotted; numeric segments index arrays. Errors carry MongoDB's codes (ImmutableField
 * for {@code _id}, ConflictingUpdateOperators, TypeMismatch, PathNotViable, ...).
 */
public final class UpdateApplier implements DocumentUpdate {
    private final BsonDocument update;
    private final boolean replacement;
    private final PositionalPaths positional;

    public UpdateApplier(BsonDocument update) {
        this(update, null, new BsonDocument());
    }

    /**
     * @param arrayFilters the statement's {@code arrayFilters} (for {@code $[id]}), or null
     * @param query        the statement's filter (the positional {@code $} names the first array element it matched)
     */
    public UpdateApplier(BsonDocument update, org.bson.BsonArray arrayFilters, BsonDocument query) {
        this.update = update;
        this.positional = new PositionalPaths(arrayFilters, query);
        this.replacement = update.isEmpty() || !update.getFirstKey().startsWith("$");
        if (replacement) {
            for (String k : update.keySet()) {
                if (k.startsWith("$")) {
                    throw new MongoError(ErrorCode.DOLLAR_PREFIXED_FIELD_NAME, "The dollar ($) prefixed field '" + k
                            + "' in '" + k + "' is not allowed in the context of an update's replacement document. "
                            + "Consider using an aggregation pipeline with $replaceWith.");
                }
            }
            if (arrayFilters != null && !arrayFilters.isEmpty()) {
                throw new MongoError(ErrorCode.FAILED_TO_PARSE, "arrayFilters may not be specified for "
                        + "replacement-style updates");
            }
        } else {
            UpdateParsing.check(update);
            checkConflicts();
            positional.checkIdentifiersUsed(update);
        }
    }

    @Override
    public boolean isReplacement() {
        return replacement;
    }

    /** The updated document; {@code inserting} makes {@code $setOnInsert} apply (an upsert's insert). */
    @Override
    public BsonDocument apply(BsonDocument original, boolean inserting) {
        if (replacement) {
            BsonDocument out = new BsonDocument();
            BsonValue id = original.get("_id");
            BsonValue newId = update.get("_id");
            if (id != null && newId != null && !BsonOrder.equal(id, newId)) {
                throw immutableId();
            }
            if (id != null) {
                out.put("_id", id);
            }
            update.forEach((k, v) -> {
                if (!k.equals("_id") || id == null) {
                    out.put(k, v);
                }
            });
            return out;
        }
        BsonDocument doc = original.clone();
        for (Map.Entry<String, BsonValue> e : update.entrySet()) {
            String op = e.getKey();
            for (Map.Entry<String, BsonValue> f : e.getValue().asDocument().entrySet()) {
                String path = f.getKey();
                BsonValue arg = f.getValue();
                if (PositionalPaths.isPositional(path)) {
                    if (inserting && PositionalPaths.hasPlainPositional(path)) {
                        // an upsert's insert matched no array element for $ to name (MongoDB's answer)
                        throw new MongoError(ErrorCode.BAD_VALUE, "The positional operator did not find the match "
                                + "needed from the query.");
                    }
                    if (op.equals("$setOnInsert") && !inserting) {
                        continue;
                    }
                    // $[] and $[id] apply to the arrays of the document as it is (an upsert's: seeded from the query)
                    for (String concrete : positional.expand(original, path)) {
                        applyOne(doc, op, concrete, arg, inserting);
                    }
                    continue;
                }
                applyOne(doc, op, path, arg, inserting);
            }
        }
        // _id is immutable: an update, and an upsert whose query gave the _id, must leave it as it was
        BsonValue id = original.get("_id");
        if (id != null && !BsonOrder.equal(id, doc.get("_id", BsonNull.VALUE))) {
            throw immutableId();
        }
        return doc;
    }

    private static BsonValue idOf(BsonDocument doc) {
        return doc.get("_id", BsonNull.VALUE);
    }

    private static MongoError immutableId() {
        return new MongoError(ErrorCode.IMMUTABLE_FIELD,
                "Performing an update on the path '_id' would modify the immutable field '_id'");
    }

    private void checkConflicts() {
        List<String> seen = new ArrayList<>();
        for (Map.Entry<String, BsonValue> e : update.entrySet()) {
            if (!e.getValue().isDocument()) {
                continue;
            }
            for (String p : e.getValue().asDocument().keySet()) {
                List<String> paths = new ArrayList<>(List.of(p));
                if (e.getKey().equals("$rename")) {
                    BsonValue to = e.getValue().asDocument().get(p);
                    if (to.isString()) {
                        paths.add(to.asString().getValue());
                    }
                }
                for (String path : paths) {
                    for (String s : seen) {
                        if (s.equals(path) || s.startsWith(path + ".") || path.startsWith(s + ".")) {
                            throw new MongoError(ErrorCode.CONFLICTING_UPDATE_OPERATORS, "Updating the path '" + path
                                    + "' would create a conflict at '" + s + "'");
                        }
                    }
                    seen.add(path);
                }
            }
        }
    }

    private static void applyOne(BsonDocument doc, String op, String path, BsonValue arg, boolean inserting) {
        switch (op) {
            case "$bit" -> bit(doc, path, arg.asDocument());
            case "$set" -> set(doc, path, arg);
            case "$setOnInsert" -> {
                if (inserting) {
                    set(doc, path, arg);
                }
            }
            case "$unset" -> unset(doc, path);
            case "$inc", "$mul" -> {
                if (!BsonOrder.isNumber(arg)) {
                    throw new MongoError(ErrorCode.TYPE_MISMATCH, "Cannot " + (op.equals("$inc") ? "increment" : "multiply")
                            + " with non-numeric argument: {" + path + ": " + BsonText.of(arg) + "}");
                }
                BsonValue cur = get(doc, path);
                if (cur != null && !BsonOrder.isNumber(cur)) {
                    throw new MongoError(ErrorCode.TYPE_MISMATCH, "Cannot apply " + op
                            + " to a value of non-numeric type. {_id: " + BsonText.of(idOf(doc)) + "} has the field '"
                            + path + "' of non-numeric type " + UpdateParsing.typeName(cur));
                }
                BsonValue base = cur != null ? cur : op.equals("$inc") ? new BsonInt32(0) : zeroLike(arg);
                set(doc, path, op.equals("$inc") ? arithmetic(base, arg, true) : cur == null ? base
                        : arithmetic(base, arg, false));
            }
            case "$min", "$max" -> {
                BsonValue cur = get(doc, path);
                int c = cur == null ? 0 : BsonOrder.INSTANCE.compare(arg, cur);
                if (cur == null || (op.equals("$min") ? c < 0 : c > 0)) {
                    set(doc, path, arg);
                }
            }
            case "$rename" -> {
                if (!arg.isString()) {
                    throw MongoError.badValue("The 'to' field for $rename must be a string: " + path + ": " + arg);
                }
                BsonValue cur = get(doc, path);
                if (cur != null) {
                    unset(doc, path);
                    set(doc, arg.asString().getValue(), cur);
                }
            }
            case "$currentDate" -> {
                boolean timestamp = arg.isDocument() && "timestamp".equals(arg.asDocument()
                        .getString("$type", new org.bson.BsonString("date")).getValue());
                long now = System.currentTimeMillis();
                set(doc, path, timestamp ? new BsonTimestamp((int) (now / 1000), 1) : new BsonDateTime(now));
            }
            case "$push" -> push(doc, path, arg);
            case "$addToSet" -> {
                BsonArray array = arrayAt(doc, path, op);
                List<BsonValue> values = arg.isDocument() && arg.asDocument().containsKey("$each")
                        ? arg.asDocument().getArray("$each").getValues() : List.of(arg);
                for (BsonValue v : values) {
                    if (array.stream().noneMatch(x -> BsonOrder.equal(x, v))) {
                        array.add(v);
                    }
                }
            }
            case "$pop" -> {
                BsonValue cur = get(doc, path);
                if (cur == null) {
                    return;
                }
                if (!cur.isArray()) {
                    throw new MongoError(ErrorCode.TYPE_MISMATCH, "Path '" + path + "' contains an element of "
                            + "non-array type '" + UpdateParsing.typeName(cur) + "'");
                }
                BsonArray a = cur.asArray();
                if (!a.isEmpty()) {
                    a.remove(BsonOrder.toDouble(arg) < 0 ? 0 : a.size() - 1);
                }
            }
            case "$pull" -> {
                BsonValue cur = get(doc, path);
                if (cur == null) {
                    return;
                }
                if (!cur.isArray()) {
                    throw MongoError.badValue("Cannot apply $pull to a non-array value");
                }
                Predicate<BsonValue> matches = pullMatcher(arg);
                cur.asArray().removeIf(matches);
            }
            case "$pullAll" -> {
                BsonValue cur = get(doc, path);
                if (!arg.isArray()) {
                    throw MongoError.badValue("$pullAll requires an array argument");
                }
                if (cur == null) {
                    return;
                }
                if (!cur.isArray()) {
                    throw MongoError.badValue("Cannot apply $pullAll to a non-array value");
                }
                cur.asArray().removeIf(x -> arg.asArray().stream().anyMatch(v -> BsonOrder.equal(x, v)));
            }
            default -> throw new MongoError(ErrorCode.FAILED_TO_PARSE, "Unknown modifier: " + op
                    + ". Expected a valid update modifier or pipeline-style update specified as an array");
        }
    }

    /** {@code $bit: {path: {and|or|xor: int}}} on an int or long (missing: 0, as MongoDB). */
    private static void bit(BsonDocument doc, String path, BsonDocument ops) {
        BsonValue cur = get(doc, path);
        if (cur != null && !cur.isInt32() && !cur.isInt64()) {
            throw new MongoError(ErrorCode.BAD_VALUE, "Cannot apply $bit to a value of non-integral type."
                    + "{_id: " + BsonText.of(idOf(doc)) + "} has the field " + path + " of non-integer type "
                    + UpdateParsing.typeName(cur));
        }
        boolean isLong = cur != null && cur.isInt64();
        long v = cur == null ? 0 : cur.asNumber().longValue();
        for (Map.Entry<String, BsonValue> e : ops.entrySet()) {
            long x = e.getValue().asNumber().longValue();
            isLong |= e.getValue().isInt64();
            v = switch (e.getKey()) {
                case "and" -> v & x;
                case "or" -> v | x;
                default -> v ^ x;
            };
        }
        set(doc, path, isLong ? new BsonInt64(v) : new BsonInt32((int) v));
    }

    private static Predicate<BsonValue> pullMatcher(BsonValue arg) {
        if (arg.isDocument()) {
            BsonDocument cond = arg.asDocument();
            if (!cond.isEmpty() && cond.getFirstKey().startsWith("$")) {
                FilterMatcher m = FilterMatcher.compile(new BsonDocument("v", cond));
                return x -> m.test(new BsonDocument("v", x));
            }
            FilterMatcher m = FilterMatcher.compile(cond);
            return x -> x.isDocument() && m.test(x.asDocument());
        }
        return x -> BsonOrder.equal(x, arg);
    }

    private static void push(BsonDocument doc, String path, BsonValue arg) {
        BsonArray array = arrayAt(doc, path, "$push");
        if (!(arg.isDocument() && arg.asDocument().containsKey("$each"))) {
            array.add(arg);
            return;
        }
        BsonDocument spec = arg.asDocument();
        if (!spec.get("$each").isArray()) {
            throw MongoError.badValue("The argument to $each in $push must be an array");
        }
        List<BsonValue> each = spec.getArray("$each").getValues();
        int position = array.size();
        if (spec.containsKey("$position")) {
            int p = (int) BsonOrder.toDouble(spec.get("$position"));
            position = p < 0 ? Math.max(0, array.size() + p) : Math.min(p, array.size());
        }
        array.addAll(position, each);
        if (spec.containsKey("$sort")) {
            BsonValue s = spec.get("$sort");
            if (s.isDocument()) {
                SortSpec sort = new SortSpec(s.asDocument());
                array.sort((a, b) -> sort.compare(a.isDocument() ? a.asDocument() : new BsonDocument(),
                        b.isDocument() ? b.asDocument() : new BsonDocument()));
            } else {
                boolean desc = BsonOrder.toDouble(s) < 0;
                array.sort((a, b) -> desc ? BsonOrder.INSTANCE.compare(b, a) : BsonOrder.INSTANCE.compare(a, b));
            }
        }
        if (spec.containsKey("$slice")) {
            int n = (int) BsonOrder.toDouble(spec.get("$slice"));
            List<BsonValue> kept = n >= 0 ? new ArrayList<>(array.subList(0, Math.min(n, array.size())))
                    : new ArrayList<>(array.subList(Math.max(0, array.size() + n), array.size()));
            array.clear();
            array.addAll(kept);
        }
    }

    private static BsonArray arrayAt(BsonDocument doc, String path, String op) {
        BsonValue cur = get(doc, path);
        if (cur == null) {
            BsonArray a = new BsonArray();
            set(doc, path, a);
            return a;
        }
        if (!cur.isArray()) {
            throw MongoError.badValue("The field '" + path + "' must be an array but is of type "
                    + UpdateParsing.typeName(cur) + " in document {_id: " + BsonText.of(idOf(doc)) + "}");
        }
        return cur.asArray();
    }

    private static BsonValue zeroLike(BsonValue v) {
        return switch (v.getBsonType()) {
            case INT64 -> new BsonInt64(0);
            case DOUBLE -> new BsonDouble(0);
            case DECIMAL128 -> new BsonDecimal128(Decimal128.parse("0"));
            default -> new BsonInt32(0);
        };
    }

    /** a + b or a * b with MongoDB's type promotion (int32 → int64 on overflow → double; decimal wins). */
    static BsonValue arithmetic(BsonValue a, BsonValue b, boolean add) {
        if (a.isDecimal128() || b.isDecimal128()) {
            BigDecimal x = decimal(a);
            BigDecimal y = decimal(b);
            return new BsonDecimal128(new Decimal128(add ? x.add(y) : x.multiply(y)));
        }
        if (a.isDouble() || b.isDouble()) {
            double x = BsonOrder.toDouble(a);
            double y = BsonOrder.toDouble(b);
            return new BsonDouble(add ? x + y : x * y);
        }
        long x = a.asNumber().longValue();
        long y = b.asNumber().longValue();
        try {
            long r = add ? Math.addExact(x, y) : Math.multiplyExact(x, y);
            if (a.isInt32() && b.isInt32() && r >= Integer.MIN_VALUE && r <= Integer.MAX_VALUE) {
                return new BsonInt32((int) r);
            }
            return new BsonInt64(r);
        } catch (ArithmeticException overflow) {
            return new BsonDouble(add ? (double) x + y : (double) x * y);
        }
    }

    private static BigDecimal decimal(BsonValue v) {
        return v.isDecimal128() ? v.asDecimal128().getValue().bigDecimalValue()
                : v.isDouble() ? BigDecimal.valueOf(v.asDouble().getValue()) : BigDecimal.valueOf(v.asNumber().longValue());
    }

    // ---- paths ---------------------------------------------------------------------------------------------------

    static BsonValue get(BsonDocument doc, String path) {
        BsonValue cur = doc;
        for (String seg : path.split("\\.")) {
            if (cur instanceof BsonDocument d) {
                cur = d.get(seg);
            } else if (cur instanceof BsonArray a && isIndex(seg)) {
                int i = Integer.parseInt(seg);
                cur = i < a.size() ? a.get(i) : null;
            } else {
                return null;
            }
            if (cur == null) {
                return null;
            }
        }
        return cur;
    }

    public static void set(BsonDocument doc, String path, BsonValue value) {
        String[] segs = path.split("\\.", -1);
        BsonValue cur = doc;
        for (int i = 0; i < segs.length; i++) {
            String seg = segs[i];
            if (seg.isEmpty()) {
                throw new MongoError(ErrorCode.EMPTY_FIELD_NAME, "An empty update path is not valid: '" + path + "'");
            }
            boolean last = i == segs.length - 1;
            if (cur instanceof BsonDocument d) {
                if (last) {
                    d.put(seg, value);
                    return;
                }
                BsonValue next = d.get(seg);
                if (next == null) {
                    next = new BsonDocument();
                    d.put(seg, next);
                }
                cur = next;
            } else if (cur instanceof BsonArray a && isIndex(seg)) {
                int idx = Integer.parseInt(seg);
                while (a.size() <= idx) {
                    a.add(BsonNull.VALUE);
                }
                if (last) {
                    a.set(idx, value);
                    return;
                }
                if (a.get(idx).isNull()) {
                    a.set(idx, new BsonDocument());
                }
                cur = a.get(idx);
            } else {
                throw new MongoError(ErrorCode.LOCATION_UPDATE_PATH_NOT_VIABLE, "Cannot create field '" + seg
                        + "' in element {" + segs[i - 1] + ": " + BsonText.of(cur) + "}");
            }
        }
    }

    static void unset(BsonDocument doc, String path) {
        int dot = path.lastIndexOf('.');
        BsonValue parent = dot < 0 ? doc : get(doc, path.substring(0, dot));
        String last = path.substring(dot + 1);
        if (parent instanceof BsonDocument d) {
            d.remove(last);
        } else if (parent instanceof BsonArray a && isIndex(last) && Integer.parseInt(last) < a.size()) {
            a.set(Integer.parseInt(last), BsonNull.VALUE); // MongoDB leaves null in the array
        }
    }

    private static boolean isIndex(String seg) {
        return !seg.isEmpty() && seg.length() < 10 && seg.chars().allMatch(Character::isDigit);
    }
}
