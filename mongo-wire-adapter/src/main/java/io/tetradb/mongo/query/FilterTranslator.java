package io.tetradb.mongo.query;

import io.tetradb.core.query.functions.SeekHintFunctions;
import io.tetradb.core.query.sql.Expr;
import io.tetradb.mongo.bson.DocumentMapper;
import io.tetradb.mongo.bson.IdCodec;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Translates a MongoDB filter into conditions of the core's plan IR that let the planner seek an index. Every
 * condition is true for every document the filter matches (a superset), so the face's {@link FilterMatcher} decides
 * on what the seek returns:
 * <ul>
 *   <li>{@code _id} equality / {@code $in} → {@code c.id = enc(v)}: a point lookup in the collection's partition;
 *       an anchored literal {@code _id} regex {@code /^p/} → {@code STARTSWITH(c.id, enc(p))}: an id key range.
 *       Both are exact in Cosmos SQL too (the core id is always a string).</li>
 *   <li>other fields: equality, {@code $in}, ranges and anchored prefixes on scalar values become
 *       {@code SEEK_HINT(c.path op v)}: evaluated it is always true (so arrays and type differences cannot lose a
 *       match), planned it is an index seek on the path with the index's multikey meaning, which is MongoDB's.</li>
 *   <li>anything else ({@code $or}, {@code $ne}, {@code $exists}, nulls, documents, ...) adds no condition.</li>
 * </ul>
 */
public final class FilterTranslator {
    public static final String ALIAS = "c";

    private FilterTranslator() {
    }

    /** The conditions for {@code filter} joined by AND, or null when none helps. */
    public static Expr translate(BsonDocument filter) {
        return translate(filter, null);
    }

    /**
     * As {@link #translate(BsonDocument)}; with the shard key field of a sharded collection, an equality on it is also
     * a plain {@code c.key = v}: shard key values are scalars (the core refuses others), so it is exact, and the
     * planner routes the query to that one logical partition.
     */
    public static Expr translate(BsonDocument filter, String shardField) {
        List<Expr> out = new ArrayList<>();
        conjuncts(filter, "", out, shardField != null);
        if (shardField != null) {
            BsonValue v = filter.get(shardField);
            if (v != null && v.isDocument() && v.asDocument().size() == 1 && v.asDocument().containsKey("$eq")) {
                v = v.asDocument().get("$eq");
            }
            Expr literal = v == null || v.isObjectId() ? null : literal(v);
            if (literal != null) {
                out.add(new Expr.Binary(Expr.BinaryOp.EQUAL, new Expr.PropertyAccess(new Expr.Identifier(ALIAS),
                        DocumentMapper.storedName(shardField)), literal));
            }
        }
        Expr all = null;
        for (Expr e : out) {
            all = all == null ? e : new Expr.Binary(Expr.BinaryOp.AND, all, e);
        }
        return all;
    }

    /**
     * The filter without its string equalities, {@code $in}s and ranges: under a collation they match strings the
     * binary index order would not find, so they may not narrow the seek (regexes stay: they ignore collations).
     */
    public static BsonDocument withoutStringComparisons(BsonDocument filter) {
        BsonDocument out = new BsonDocument();
        for (Map.Entry<String, BsonValue> e : filter.entrySet()) {
            String key = e.getKey();
            BsonValue v = e.getValue();
            if (key.equals("$and") && v.isArray()) {
                org.bson.BsonArray parts = new org.bson.BsonArray();
                for (BsonValue part : v.asArray()) {
                    parts.add(part.isDocument() ? withoutStringComparisons(part.asDocument()) : part);
                }
                out.put(key, parts);
            } else if (key.startsWith("$")) {
                out.put(key, v);
            } else if (FilterMatcher.isOperatorDocument(v)) {
                BsonDocument ops = new BsonDocument();
                for (Map.Entry<String, BsonValue> op : v.asDocument().entrySet()) {
                    if (!comparesStrings(op.getValue())) {
                        ops.put(op.getKey(), op.getValue());
                    }
                }
                if (!ops.isEmpty()) {
                    out.put(key, ops);
                }
            } else if (!comparesStrings(v)) {
                out.put(key, v);
            }
        }
        return out;
    }

    private static boolean comparesStrings(BsonValue v) {
        if (v.isString()) {
            return true;
        }
        if (v.isArray()) {
            return v.asArray().stream().anyMatch(BsonValue::isString);
        }
        return v.isDocument() && !FilterMatcher.isOperatorDocument(v); // documents may hold strings
    }

    private static void conjuncts(BsonDocument filter, String prefix, List<Expr> out, boolean rawIds) {
        for (Map.Entry<String, BsonValue> e : filter.entrySet()) {
            String key = e.getKey();
            BsonValue v = e.getValue();
            if (key.equals("$and") && v.isArray()) {
                for (BsonValue s : v.asArray()) {
                    if (s.isDocument()) {
                        conjuncts(s.asDocument(), prefix, out, rawIds);
                    }
                }
            } else if (!key.startsWith("$")) {
                field(prefix + key, v, out, rawIds);
            }
        }
    }

    private static void field(String dotted, BsonValue v, List<Expr> out, boolean rawIds) {
        if (FilterMatcher.isOperatorDocument(v)) {
            BsonDocument ops = v.asDocument();
            for (Map.Entry<String, BsonValue> op : ops.entrySet()) {
                BsonValue arg = op.getValue();
                switch (op.getKey()) {
                    case "$eq" -> equality(dotted, arg, out, rawIds);
                    case "$in" -> in(dotted, arg, out, rawIds);
                    case "$gt" -> range(dotted, Expr.BinaryOp.GREATER, arg, out);
                    case "$gte" -> range(dotted, Expr.BinaryOp.GREATER_OR_EQUAL, arg, out);
                    case "$lt" -> range(dotted, Expr.BinaryOp.LESS, arg, out);
                    case "$lte" -> range(dotted, Expr.BinaryOp.LESS_OR_EQUAL, arg, out);
                    case "$regex" -> {
                        String options = ops.containsKey("$options") && ops.get("$options").isString()
                                ? ops.getString("$options").getValue() : "";
                        if (arg.isRegularExpression()) {
                            options = options.isEmpty() ? arg.asRegularExpression().getOptions() : options;
                            regex(dotted, arg.asRegularExpression().getPattern(), options, out);
                        } else if (arg.isString()) {
                            regex(dotted, arg.asString().getValue(), options, out);
                        }
                    }
                    case "$all" -> {
                        if (arg.isArray() && !arg.asArray().isEmpty() && !arg.asArray().get(0).isDocument()) {
                            equality(dotted, arg.asArray().get(0), out, rawIds);
                        }
                    }
                    case "$elemMatch" -> {
                        if (arg.isDocument() && !FilterMatcher.isOperatorDocument(arg)) {
                            conjuncts(arg.asDocument(), dotted + ".", out, rawIds);
                        }
                    }
                    default -> {
                    }
                }
            }
        } else if (v.isRegularExpression()) {
            regex(dotted, v.asRegularExpression().getPattern(), v.asRegularExpression().getOptions(), out);
        } else {
            equality(dotted, v, out, rawIds);
        }
    }

    private static void equality(String dotted, BsonValue v, List<Expr> out, boolean rawIds) {
        if (dotted.equals("_id")) {
            if (!v.isArray() && !v.isRegularExpression() && !v.isDocument()) {
                List<Expr> ids = new ArrayList<>(2);
                addIds(v, ids, rawIds);
                out.add(ids.size() == 1 ? new Expr.Binary(Expr.BinaryOp.EQUAL, coreId(), ids.get(0))
                        : new Expr.In(coreId(), ids, false));
            }
            return;
        }
        Expr path = path(dotted, v);
        if (v.isDateTime()) {
            Expr within = DateSeeks.equality(path, v.asDateTime().getValue());
            if (within != null) {
                out.add(hint(within));
            }
            return;
        }
        Expr literal = literal(v);
        if (path != null && literal != null) {
            out.add(hint(new Expr.Binary(Expr.BinaryOp.EQUAL, path, literal)));
        }
    }

    /**
     * The core ids a Mongo {@code _id} may be stored under: its {@link IdCodec} encoding, and in a container this face
     * did not create as a collection (another face's, or sharded: {@code rawIds}) a string {@code _id} as the item id
     * itself too — how such an item shows its id (a table entity's RowKey, a vertex's id; see bson/ForeignItems).
     */
    private static void addIds(BsonValue v, List<Expr> ids, boolean rawIds) {
        String encoded = IdCodec.encode(v);
        ids.add(new Expr.StringLiteral(encoded));
        if (rawIds && v.isString() && !v.asString().getValue().equals(encoded) && !v.asString().getValue().isEmpty()) {
            ids.add(new Expr.StringLiteral(v.asString().getValue()));
        }
    }

    private static void in(String dotted, BsonValue arg, List<Expr> out, boolean rawIds) {
        if (!arg.isArray() || arg.asArray().isEmpty()) {
            return;
        }
        List<Expr> values = new ArrayList<>();
        Expr path = null;
        for (BsonValue v : arg.asArray()) {
            if (dotted.equals("_id")) {
                if (v.isArray() || v.isRegularExpression() || v.isDocument()) {
                    return;
                }
                addIds(v, values, rawIds);
                continue;
            }
            Expr p = path(dotted, v);
            Expr literal = literal(v);
            if (p == null || literal == null || path != null && !path.equals(p)) {
                return; // values of several shapes: no one seek covers them
            }
            path = p;
            values.add(literal);
        }
        if (dotted.equals("_id")) {
            out.add(new Expr.In(coreId(), values, false));
        } else {
            out.add(hint(new Expr.In(path, values, false)));
        }
    }

    private static void range(String dotted, Expr.BinaryOp op, BsonValue v, List<Expr> out) {
        if (v.isDateTime()) {
            Expr bound = DateSeeks.bound(path(dotted, v), op, v.asDateTime().getValue());
            if (bound != null) {
                out.add(hint(bound));
            }
            return;
        }
        // only numbers and strings: their stored form orders as MongoDB orders them
        if (!BsonOrder.isNumber(v) && !v.isString() || v.isDecimal128()) {
            return;
        }
        Expr path = path(dotted, v);
        Expr literal = literal(v);
        if (path != null && literal != null && !(v.isDouble() && Double.isNaN(v.asDouble().getValue()))) {
            // inclusive bounds: a stored decimal or huge long is indexed as its nearest double, which may equal it
            Expr.BinaryOp inclusive = op == Expr.BinaryOp.GREATER ? Expr.BinaryOp.GREATER_OR_EQUAL
                    : op == Expr.BinaryOp.LESS ? Expr.BinaryOp.LESS_OR_EQUAL : op;
            out.add(hint(new Expr.Binary(BsonOrder.isNumber(v) ? inclusive : op, path, literal)));
        }
    }

    private static void regex(String dotted, String pattern, String options, List<Expr> out) {
        String prefix = literalPrefix(pattern, options);
        if (prefix == null || prefix.isEmpty()) {
            return;
        }
        if (dotted.equals("_id")) {
            out.add(new Expr.FunctionCall("STARTSWITH", false, List.of(coreId(),
                    new Expr.StringLiteral(IdCodec.encodePrefix(prefix)))));
        } else {
            Expr path = path(dotted, null);
            if (path != null) {
                out.add(hint(new Expr.FunctionCall("STARTSWITH", false, List.of(path, new Expr.StringLiteral(prefix)))));
            }
        }
    }

    /**
     * The literal text every match starts with, for {@code ^literal...} without options that change what {@code ^}
     * or letters mean; null otherwise.
     */
    static String literalPrefix(String pattern, String options) {
        if (!pattern.startsWith("^") || pattern.indexOf('|') >= 0 || options.contains("i") || options.contains("m") || options.contains("x")) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\' && i + 1 < pattern.length() && !Character.isLetterOrDigit(pattern.charAt(i + 1))) {
                sb.append(pattern.charAt(++i));
            } else if (".[]{}()*+?^$|\\".indexOf(c) >= 0) {
                // a quantifier makes the last literal character optional
                if ((c == '*' || c == '?' || c == '{') && sb.length() > 0) {
                    sb.setLength(sb.length() - 1);
                }
                break;
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static Expr coreId() {
        return new Expr.PropertyAccess(new Expr.Identifier(ALIAS), "id");
    }

    private static Expr hint(Expr predicate) {
        return new Expr.FunctionCall(SeekHintFunctions.SEEK_HINT, false, List.of(predicate));
    }

    /**
     * The stored path of a dotted field ({@code c.a.b}). Null for positional segments (numbers) or empty names.
     */
    private static Expr path(String dotted, BsonValue v) {
        String[] segs = dotted.split("\\.", -1);
        Expr e = new Expr.Identifier(ALIAS);
        for (int i = 0; i < segs.length; i++) {
            String s = segs[i];
            if (s.isEmpty() || FieldPath.index(s) >= 0) {
                return null;
            }
            e = new Expr.PropertyAccess(e, i == 0 ? DocumentMapper.storedName(s) : s);
        }
        return e;
    }

    /**
     * The index term a BSON value is found by, or null when it has none: the core indexes a typed value by its JSON
     * view (an ObjectId by its 24 hex digits), so the seek may also find equal strings, which the matcher drops.
     */
    private static Expr literal(BsonValue v) {
        return switch (v.getBsonType()) {
            case STRING -> new Expr.StringLiteral(v.asString().getValue());
            case BOOLEAN -> new Expr.BooleanLiteral(v.asBoolean().getValue());
            case INT32, INT64 -> new Expr.NumberLiteral(v.asNumber().longValue(), v.asNumber().longValue());
            case DOUBLE -> Double.isFinite(v.asDouble().getValue()) ? new Expr.NumberLiteral(v.asDouble().getValue())
                    : null;
            case OBJECT_ID -> new Expr.StringLiteral(v.asObjectId().getValue().toHexString());
            default -> null;
        };
    }
}
