package io.tetradb.mongo.query;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonRegularExpression;
import org.bson.BsonType;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * A MongoDB query filter compiled to a predicate with MongoDB's exact semantics: implicit array traversal, null
 * matching missing fields, type bracketing of comparisons, {@code $not/$nor}, {@code $elemMatch}, {@code $all}, ...
 * The index seeks the core runs for a filter ({@link FilterTranslator}) only find candidates; this decides.
 */
public final class FilterMatcher implements Predicate<BsonDocument> {
    /** How values compare: binary strings, or a collation's. */
    private final BsonOrder order;
    private Predicate<BsonDocument> root;

    private FilterMatcher(BsonOrder order) {
        this.order = order;
    }

    public static FilterMatcher compile(BsonDocument filter) {
        return compile(filter, BsonOrder.INSTANCE);
    }

    /** The filter with strings compared by {@code order} (a collation's). */
    public static FilterMatcher compile(BsonDocument filter, BsonOrder order) {
        FilterMatcher m = new FilterMatcher(order);
        m.root = m.document(filter, 0);
        return m;
    }

    @Override
    public boolean test(BsonDocument doc) {
        return root.test(doc);
    }

    /** How this filter compares values (binary, or a collation's). */
    public BsonOrder order() {
        return order;
    }

    /**
     * The position {@code $} stands for in an update path or a projection ({@code arr.$}): the first element of the
     * array at {@code arrayPath} for which the filter's conditions on that path (at the top level or inside
     * {@code $and}s, as the Java driver's {@code Filters.and()} nests them) hold when the array holds that element
     * alone. -1 when no element matches or the filter has no condition on the path.
     */
    public static int positionalIndex(BsonDocument filter, String arrayPath, BsonArray array) {
        BsonArray conditions = new BsonArray();
        conditionsOn(filter, arrayPath, conditions);
        if (conditions.isEmpty()) {
            return -1;
        }
        FilterMatcher m = compile(new BsonDocument("$and", conditions));
        String[] segs = arrayPath.split("\\.");
        for (int k = 0; k < array.size(); k++) {
            BsonValue probe = new BsonArray(List.of(array.get(k)));
            for (int i = segs.length - 1; i >= 0; i--) {
                probe = new BsonDocument(segs[i], probe);
            }
            if (m.test(probe.asDocument())) {
                return k;
            }
        }
        return -1;
    }

    private static void conditionsOn(BsonDocument filter, String arrayPath, BsonArray into) {
        for (Map.Entry<String, BsonValue> e : filter.entrySet()) {
            String key = e.getKey();
            if (key.equals("$and") && e.getValue().isArray()) {
                for (BsonValue sub : e.getValue().asArray()) {
                    if (sub.isDocument()) {
                        conditionsOn(sub.asDocument(), arrayPath, into);
                    }
                }
            } else if (key.equals(arrayPath) || key.startsWith(arrayPath + ".")) {
                into.add(new BsonDocument(key, e.getValue()));
            }
        }
    }

    /** A per-value test, and what it says for a missing value. */
    private interface ValueTest {
        boolean test(BsonValue v);

        default boolean missing() {
            return false;
        }
    }

    private Predicate<BsonDocument> document(BsonDocument filter, int depth) {
        if (depth > 100) {
            throw MongoError.badValue("filter is nested too deeply");
        }
        List<Predicate<BsonDocument>> parts = new ArrayList<>();
        for (Map.Entry<String, BsonValue> e : filter.entrySet()) {
            String key = e.getKey();
            BsonValue v = e.getValue();
            switch (key) {
                case "$and", "$or", "$nor" -> {
                    if (!v.isArray() || v.asArray().isEmpty()) {
                        throw MongoError.badValue(key + " argument must be a non-empty array");
                    }
                    List<Predicate<BsonDocument>> subs = new ArrayList<>();
                    for (BsonValue s : v.asArray()) {
                        if (!s.isDocument()) {
                            throw MongoError.badValue(key + " argument's entries must be objects");
                        }
                        subs.add(document(s.asDocument(), depth + 1));
                    }
                    parts.add(switch (key) {
                        case "$and" -> d -> subs.stream().allMatch(p -> p.test(d));
                        case "$or" -> d -> subs.stream().anyMatch(p -> p.test(d));
                        default -> d -> subs.stream().noneMatch(p -> p.test(d));
                    });
                }
                case "$comment" -> {
                }
                case "$expr" -> {
                    BsonValue expr = v;
                    parts.add(d -> io.tetradb.mongo.aggregate.Expressions.isTrue(expr, d));
                }
                case "$jsonSchema" -> {
                    io.tetradb.mongo.validation.JsonSchema schema = io.tetradb.mongo.validation.JsonSchema.compile(v);
                    parts.add(d -> schema.valid(d));
                }
                case "$sampleRate" -> {
                    if (!BsonOrder.isNumber(v) || BsonOrder.toDouble(v) < 0 || BsonOrder.toDouble(v) > 1) {
                        throw MongoError.badValue("numeric argument to $sampleRate must be in [0, 1]");
                    }
                    double rate = BsonOrder.toDouble(v);
                    parts.add(d -> java.util.concurrent.ThreadLocalRandom.current().nextDouble() < rate);
                }
                case "$where", "$text" ->
                        throw new MongoError(ErrorCode.NOT_IMPLEMENTED, key + " is not supported yet");
                default -> {
                    if (key.startsWith("$")) {
                        throw MongoError.badValue("unknown top level operator: " + key);
                    }
                    parts.add(field(new FieldPath(key), v, depth));
                }
            }
        }
        return d -> {
            for (Predicate<BsonDocument> p : parts) {
                if (!p.test(d)) {
                    return false;
                }
            }
            return true;
        };
    }

    static boolean isOperatorDocument(BsonValue v) {
        return v.isDocument() && !v.asDocument().isEmpty() && v.asDocument().getFirstKey().startsWith("$")
                && !isDbRef(v.asDocument());
    }

    /** {@code {$ref, $id, …}}: a DBRef, which a filter compares as a value (MongoDB's parser does the same). */
    private static boolean isDbRef(BsonDocument d) {
        if (!d.getFirstKey().equals("$ref") || d.size() < 2) {
            return false;
        }
        java.util.Iterator<String> names = d.keySet().iterator();
        names.next();
        return names.next().equals("$id");
    }

    private Predicate<BsonDocument> field(FieldPath path, BsonValue v, int depth) {
        if (isOperatorDocument(v)) {
            Predicate<List<BsonValue>> ops = operators(path.dotted(), v.asDocument(), depth);
            return d -> ops.test(path.values(d));
        }
        ValueTest eq = v.isRegularExpression() ? regex(v.asRegularExpression()) : equality(v);
        return d -> any(path.values(d), eq);
    }

    /** True if the test accepts one of the values, or an element of an array among them. */
    private static boolean any(List<BsonValue> values, ValueTest t) {
        for (BsonValue x : values) {
            if (x == null) {
                if (t.missing()) {
                    return true;
                }
            } else if (t.test(x)) {
                return true;
            } else if (x instanceof BsonArray a) {
                for (BsonValue e : a) {
                    if (t.test(e)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private ValueTest equality(BsonValue target) {
        boolean isNull = target.isNull();
        return new ValueTest() {
            @Override
            public boolean test(BsonValue x) {
                return BsonOrder.typeClass(x) == BsonOrder.typeClass(target) && order.compare(x, target) == 0
                        && (!isNull || x.isNull());
            }

            @Override
            public boolean missing() {
                return isNull;
            }
        };
    }

    private static ValueTest regex(BsonRegularExpression re) {
        Pattern p = pattern(re.getPattern(), re.getOptions());
        return x -> x.isString() && p.matcher(x.asString().getValue()).find()
                || x.isSymbol() && p.matcher(x.asSymbol().getSymbol()).find()
                || x.isRegularExpression() && x.asRegularExpression().equals(re);
    }

    static Pattern pattern(String regex, String options) {
        int flags = RegexOptions.flags(options, "imsxu", "");
        try {
            return Pattern.compile(regex, flags);
        } catch (java.util.regex.PatternSyntaxException e) {
            throw MongoError.badValue("Regular expression is invalid: " + e.getDescription());
        }
    }

    private Predicate<List<BsonValue>> operators(String path, BsonDocument ops, int depth) {
        List<Predicate<List<BsonValue>>> parts = new ArrayList<>();
        String regexOptions = ops.containsKey("$options") ? ops.getString("$options").getValue() : null;
        for (Map.Entry<String, BsonValue> e : ops.entrySet()) {
            String op = e.getKey();
            BsonValue arg = e.getValue();
            switch (op) {
                case "$eq" -> {
                    ValueTest t = equality(arg);
                    parts.add(vs -> any(vs, t));
                }
                case "$ne" -> {
                    ValueTest t = equality(arg);
                    parts.add(vs -> !any(vs, t));
                }
                case "$gt", "$gte", "$lt", "$lte" -> {
                    ValueTest t = comparison(op, arg);
                    parts.add(vs -> any(vs, t));
                }
                case "$in", "$nin" -> {
                    if (!arg.isArray()) {
                        throw MongoError.badValue(op + " needs an array");
                    }
                    List<ValueTest> tests = new ArrayList<>();
                    for (BsonValue x : arg.asArray()) {
                        if (isOperatorDocument(x)) {
                            throw MongoError.badValue("cannot nest $ under " + op);
                        }
                        tests.add(x.isRegularExpression() ? regex(x.asRegularExpression()) : equality(x));
                    }
                    ValueTest in = new ValueTest() {
                        @Override
                        public boolean test(BsonValue v) {
                            return tests.stream().anyMatch(t -> t.test(v));
                        }

                        @Override
                        public boolean missing() {
                            return tests.stream().anyMatch(ValueTest::missing);
                        }
                    };
                    parts.add(op.equals("$in") ? vs -> any(vs, in) : vs -> !any(vs, in));
                }
                case "$exists" -> {
                    boolean want = truthy(arg);
                    parts.add(vs -> vs.stream().anyMatch(x -> x != null) == want);
                }
                case "$type" -> {
                    List<BsonValue> types = arg.isArray() ? arg.asArray().getValues() : List.of(arg);
                    if (types.isEmpty()) { // MongoDB refuses it when it parses the filter
                        throw new MongoError(ErrorCode.FAILED_TO_PARSE, path + " must match at least one type");
                    }
                    List<Predicate<BsonValue>> tests = types.stream().map(FilterMatcher::typeTest).toList();
                    parts.add(vs -> {
                        for (BsonValue x : vs) {
                            if (x == null) {
                                continue;
                            }
                            if (tests.stream().anyMatch(t -> t.test(x))) {
                                return true;
                            }
                            if (x.isArray()) {
                                for (BsonValue el : x.asArray()) {
                                    if (tests.stream().anyMatch(t -> t.test(el))) {
                                        return true;
                                    }
                                }
                            }
                        }
                        return false;
                    });
                }
                case "$size" -> {
                    if (!BsonOrder.isNumber(arg)) {
                        throw MongoError.badValue("$size needs a number");
                    }
                    double n = BsonOrder.toDouble(arg);
                    parts.add(vs -> vs.stream().anyMatch(x -> x != null && x.isArray() && x.asArray().size() == n));
                }
                case "$all" -> {
                    if (!arg.isArray()) {
                        throw MongoError.badValue("$all needs an array");
                    }
                    List<Predicate<List<BsonValue>>> each = new ArrayList<>();
                    for (BsonValue x : arg.asArray()) {
                        if (x.isDocument() && x.asDocument().containsKey("$elemMatch")) {
                            each.add(operators(path, x.asDocument(), depth + 1));
                        } else {
                            ValueTest t = x.isRegularExpression() ? regex(x.asRegularExpression()) : equality(x);
                            each.add(vs -> any(vs, t));
                        }
                    }
                    parts.add(vs -> !each.isEmpty() && each.stream().allMatch(p -> p.test(vs)));
                }
                case "$elemMatch" -> {
                    if (!arg.isDocument()) {
                        throw MongoError.badValue("$elemMatch needs an object");
                    }
                    Predicate<BsonValue> element = elementMatcher(arg.asDocument(), depth + 1);
                    parts.add(vs -> vs.stream().anyMatch(x -> x != null && x.isArray()
                            && x.asArray().stream().anyMatch(element)));
                }
                case "$regex" -> {
                    BsonRegularExpression re = arg.isRegularExpression() ? arg.asRegularExpression()
                            : new BsonRegularExpression(arg.asString().getValue(), "");
                    if (regexOptions != null) {
                        re = new BsonRegularExpression(re.getPattern(), regexOptions);
                    }
                    ValueTest t = regex(re);
                    parts.add(vs -> any(vs, t));
                }
                case "$options" -> {
                    if (!ops.containsKey("$regex")) {
                        throw MongoError.badValue("$options needs a $regex");
                    }
                }
                case "$not" -> {
                    Predicate<List<BsonValue>> inner;
                    if (arg.isRegularExpression()) {
                        ValueTest t = regex(arg.asRegularExpression());
                        inner = vs -> any(vs, t);
                    } else if (isOperatorDocument(arg)) {
                        inner = operators(path, arg.asDocument(), depth + 1);
                    } else {
                        throw MongoError.badValue("$not needs a regex or a document of operators");
                    }
                    parts.add(vs -> !inner.test(vs));
                }
                case "$mod" -> {
                    if (!arg.isArray() || arg.asArray().size() != 2 || !BsonOrder.isNumber(arg.asArray().get(0))
                            || !BsonOrder.isNumber(arg.asArray().get(1))) {
                        throw MongoError.badValue("malformed mod, needs [divisor, remainder]");
                    }
                    long divisor = (long) BsonOrder.toDouble(arg.asArray().get(0));
                    long remainder = (long) BsonOrder.toDouble(arg.asArray().get(1));
                    if (divisor == 0) {
                        throw MongoError.badValue("divisor cannot be 0");
                    }
                    parts.add(vs -> any(vs, x -> BsonOrder.isNumber(x) && Double.isFinite(BsonOrder.toDouble(x))
                            && ((long) BsonOrder.toDouble(x)) % divisor == remainder));
                }
                case "$bitsAllSet", "$bitsAnySet", "$bitsAllClear", "$bitsAnyClear" -> {
                    long mask = bitMask(op, arg);
                    parts.add(vs -> any(vs, x -> bits(op, x, mask)));
                }
                case "$comment" -> {
                }
                default -> throw MongoError.badValue("unknown operator: " + op);
            }
        }
        return vs -> {
            for (Predicate<List<BsonValue>> p : parts) {
                if (!p.test(vs)) {
                    return false;
                }
            }
            return true;
        };
    }

    /** The mask of a bitwise operator: a number, or an array of bit positions. */
    private static long bitMask(String op, BsonValue arg) {
        if (BsonOrder.isNumber(arg)) {
            double d = BsonOrder.toDouble(arg);
            if (d < 0 || d != Math.rint(d)) {
                throw MongoError.badValue(op + " takes a non-negative integer mask or an array of positions");
            }
            return (long) d;
        }
        if (arg.isArray()) {
            long mask = 0;
            for (BsonValue p : arg.asArray()) {
                int bit = BsonOrder.isNumber(p) ? (int) BsonOrder.toDouble(p) : -1;
                if (bit < 0 || bit > 63) {
                    throw MongoError.badValue(op + " bit positions must be integers from 0 to 63");
                }
                mask |= 1L << bit;
            }
            return mask;
        }
        throw MongoError.badValue(op + " takes a number or an array of bit positions");
    }

    private static boolean bits(String op, BsonValue x, long mask) {
        if (!BsonOrder.isNumber(x) || x.isDecimal128()) {
            return false;
        }
        double d = BsonOrder.toDouble(x);
        if (d != Math.rint(d) || Math.abs(d) > 9.2e18) {
            return false;
        }
        long v = x.isDouble() ? (long) d : x.asNumber().longValue();
        return switch (op) {
            case "$bitsAllSet" -> (v & mask) == mask;
            case "$bitsAnySet" -> (v & mask) != 0;
            case "$bitsAllClear" -> (v & mask) == 0;
            default -> (v & mask) != mask;
        };
    }

    /** The top-level operators that make an {@code $elemMatch} spec a filter on element documents. */
    private static final java.util.Set<String> LOGICAL = java.util.Set.of("$and", "$or", "$nor", "$expr", "$where",
            "$text", "$comment", "$jsonSchema");

    private Predicate<BsonValue> elementMatcher(BsonDocument spec, int depth) {
        if (isOperatorDocument(spec) && !LOGICAL.contains(spec.getFirstKey())) {
            Predicate<List<BsonValue>> ops = operators("", spec, depth);
            return el -> ops.test(java.util.Collections.singletonList(el));
        }
        Predicate<BsonDocument> doc = document(spec, depth);
        return el -> el.isDocument() && doc.test(el.asDocument());
    }

    private ValueTest comparison(String op, BsonValue arg) {
        if (arg.isRegularExpression()) {
            throw MongoError.badValue("Can't have RegEx as arg to " + op);
        }
        int argClass = BsonOrder.typeClass(arg);
        boolean inclusive = op.endsWith("e");
        boolean greater = op.startsWith("$gt");
        return new ValueTest() {
            @Override
            public boolean test(BsonValue x) {
                boolean bracket = BsonOrder.typeClass(x) == argClass || arg.getBsonType() == BsonType.MIN_KEY || arg.getBsonType() == BsonType.MAX_KEY;
                if (!bracket) {
                    return false;
                }
                int c = order.compare(x, arg);
                return greater ? (inclusive ? c >= 0 : c > 0) : (inclusive ? c <= 0 : c < 0);
            }

            /**
             * A missing field compares as MongoDB brackets it: like null for {@code $gte/$lte: null}, above MinKey
             * and below MaxKey.
             */
            @Override
            public boolean missing() {
                return inclusive && arg.isNull() || greater && arg.getBsonType() == BsonType.MIN_KEY
                        || !greater && arg.getBsonType() == BsonType.MAX_KEY;
            }
        };
    }

    private static boolean truthy(BsonValue v) {
        if (v.isBoolean()) {
            return v.asBoolean().getValue();
        }
        if (BsonOrder.isNumber(v)) {
            return BsonOrder.toDouble(v) != 0;
        }
        return !v.isNull();
    }

    private static Predicate<BsonValue> typeTest(BsonValue t) {
        if (BsonOrder.isNumber(t)) {
            double d = BsonOrder.toDouble(t);
            int code = (int) d;
            if (d != code || !(code == -1 || code == 127 || code >= 1 && code <= 19)) {
                throw MongoError.badValue("Invalid numerical type code: " + (d == code ? String.valueOf(code)
                        : String.valueOf(d)));
            }
            if (code == -1) {
                return x -> x.getBsonType() == BsonType.MIN_KEY; // the driver's MinKey is 0xFF, MongoDB's -1
            }
            return x -> x.getBsonType().getValue() == code;
        }
        if (!t.isString()) {
            throw MongoError.badValue("type must be represented as a number or a string");
        }
        String name = t.asString().getValue();
        if (name.equals("number")) {
            return BsonOrder::isNumber;
        }
        BsonType type = io.tetradb.mongo.bson.BsonTypeNames.type(name);
        if (type == null) {
            throw MongoError.badValue("Unknown type name alias: " + name);
        }
        return x -> x.getBsonType() == type;
    }
}
