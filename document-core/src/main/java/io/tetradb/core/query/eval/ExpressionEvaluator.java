package io.tetradb.core.query.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.query.functions.FunctionContext;
import io.tetradb.core.query.functions.FunctionRegistry;
import io.tetradb.core.query.sql.Expr;
import io.tetradb.core.value.ValueOrder;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Evaluates Cosmos SQL expressions ({@link Expr}) over JSON values with Cosmos semantics; {@link MissingNode} is
 * <i>undefined</i>. The rules, with their sources (Azure Cosmos DB for NoSQL query reference,
 * https://learn.microsoft.com/azure/cosmos-db/nosql/query/...):
 * <ul>
 * <li>{@code = !=}: undefined when either side is undefined or the two are of different JSON types; otherwise deep
 * equality, numbers by value (equality-comparison-operators: the type-by-type table). {@code != < <= > >=}: undefined
 * across types and between two arrays or two objects ("for comparison operators such as >, >=, !=, <, and <=,
 * comparison across types or between two objects or arrays produces undefined"; {@link
 * ValueOrder#compareForQuery}).</li>
 * <li>{@code AND OR NOT}: three-valued; a non-boolean operand counts as undefined (logical-operators: the truth
 * tables; {@code false AND undefined} is false, {@code true OR undefined} is true).</li>
 * <li>Arithmetic {@code + - * / %} and unary {@code - +}: numbers only, else undefined. A result that is not finite
 * (division by zero) is a number within the expression, as functions see it (is-finite-number:
 * {@code IS_FINITE_NUMBER(8.9 / 0.0)} is false), and undefined once it leaves the expression (a projected value, a
 * property of an object literal, an element of an array literal), since JSON has no such number. The identifiers
 * {@code NaN} and {@code Infinity} are those numbers (tostring: {@code TOSTRING(NaN)} is "NaN").
 * {@code ||} concatenates two strings, else undefined.</li>
 * <li>Bitwise {@code & | ^ ~ << >> >>>}: as JavaScript, on the operands converted to signed 32-bit integers
 * (bitwise-operators: they behave as JavaScript's; {@code 100 >> 2 = 25}, {@code 100 & 1000 = 96}).</li>
 * <li>{@code c ? a : b}: a when c is {@code true}, b when {@code false}, undefined otherwise
 * (ternary-coalesce-operators: the condition is a boolean expression; TetraDB's reading for non-booleans, unlike
 * IIF, which takes b for any non-true condition). {@code a ?? b}: a
 * unless a is undefined (ternary-coalesce-operators).</li>
 * <li>{@code IN}: the OR of {@code target = v} over the list; {@code BETWEEN}: {@code low <= target AND target <=
 * high}, so a mixed-type range is undefined and the item skipped (keywords: "the comparison between the two different
 * types results in undefined, so the item is skipped"). {@code NOT IN / NOT BETWEEN / NOT LIKE} negate that.</li>
 * <li>{@code LIKE}: strings only; {@code %} any run, {@code _} one character, {@code [a-f]} / {@code [^abc]} sets,
 * {@code ESCAPE} makes the next character literal (like: the wildcard table and the ESCAPE example).</li>
 * <li>{@code x.name} / {@code x["name"]}: the property, undefined when absent or x is not an object; {@code x[i]}: the
 * array element, undefined out of range (scalar-expressions).</li>
 * <li>Object literals leave out properties whose value is undefined (keywords, DISTINCT: a missing field projects
 * {@code {}}); array literals leave out undefined elements (TetraDB's choice, consistent with objects; not found
 * stated in the docs).</li>
 * <li>Function calls go through the {@link FunctionRegistry} (unknown name or argument count: 400); UDFs are not
 * called through the {@link FunctionContext}'s {@link io.tetradb.core.query.functions.UdfResolver} (the
 * container's JavaScript UDFs). Aggregates (COUNT SUM MIN MAX AVG) are only valid in the projection of a query;
 * {@link QueryExecutor} evaluates them over the current group.</li>
 * <li>Subqueries are correlated: they see the bindings of the row they are evaluated in. {@code EXISTS}: whether the
 * subquery yields any value; {@code ARRAY}: its values as an array; scalar: its first value, or undefined.</li>
 * </ul>
 */
public final class ExpressionEvaluator {
    static final JsonNode UNDEFINED = MissingNode.getInstance();
    static final Set<String> AGGREGATES = Set.of("COUNT", "SUM", "MIN", "MAX", "AVG");
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final Map<String, JsonNode> params;
    private final FunctionContext functionContext;
    private final FunctionRegistry registry;
    private final QueryExecutor executor;

    public ExpressionEvaluator(Map<String, JsonNode> params, FunctionContext functionContext,
                               FunctionRegistry registry) {
        this(params, functionContext, registry, null);
    }

    ExpressionEvaluator(Map<String, JsonNode> params, FunctionContext functionContext, FunctionRegistry registry,
                        QueryExecutor executor) {
        this.params = params == null ? Map.of() : params;
        this.functionContext = functionContext;
        this.registry = registry == null ? FunctionRegistry.standard() : registry;
        this.executor = executor == null ? new QueryExecutor(this) : executor;
    }

    FunctionContext functionContext() {
        return functionContext;
    }

    QueryExecutor executor() {
        return executor;
    }

    /**
     * The value of {@code e} in {@code env} (never Java null; undefined is {@link MissingNode}). A number that is not
     * finite (NaN, an infinity) is undefined here: inside an expression it is a value (so
     * {@code IS_FINITE_NUMBER(8.9 / 0.0)} is false), but JSON has no such number, so none leaves an expression.
     */
    public JsonNode evaluate(Expr e, Env env) {
        return finite(value(e, env));
    }

    /** A value that may leave an expression: non-finite numbers become undefined. */
    static JsonNode finite(JsonNode v) {
        return v.isNumber() && !Double.isFinite(v.doubleValue()) ? UNDEFINED : v;
    }

    /** The value of {@code e}, non-finite numbers included (for the operands and arguments within an expression). */
    private JsonNode value(Expr e, Env env) {
        if (e instanceof Expr.Binary b) {
            return binary(b, env);
        }
        if (e instanceof Expr.PropertyAccess p) {
            JsonNode t = value(p.target(), env);
            return property(t, p.name());
        }
        if (e instanceof Expr.Identifier id) {
            JsonNode v = env.lookup(id.name());
            if (v == null && id.name().equals("NaN")) {
                return DoubleNode.valueOf(Double.NaN); // the constants of the ToString and StringToNumber pages
            }
            if (v == null && id.name().equals("Infinity")) {
                return DoubleNode.valueOf(Double.POSITIVE_INFINITY);
            }
            if (v == null) {
                throw new StoreException(Status.BAD_REQUEST, "Identifier '" + id.name() + "' could not be resolved.");
            }
            return v;
        }
        if (e instanceof Expr.StringLiteral s) {
            return TextNode.valueOf(s.value());
        }
        if (e instanceof Expr.NumberLiteral n) {
            return n.exact() != null ? LongNode.valueOf(n.exact()) : number(n.value());
        }
        if (e instanceof Expr.BooleanLiteral b) {
            return BooleanNode.valueOf(b.value());
        }
        if (e instanceof Expr.NullLiteral) {
            return NullNode.getInstance();
        }
        if (e instanceof Expr.UndefinedLiteral) {
            return UNDEFINED;
        }
        if (e instanceof Expr.Parameter p) {
            return parameter(p.name());
        }
        if (e instanceof Expr.IndexAccess ia) {
            JsonNode t = value(ia.target(), env);
            JsonNode i = value(ia.index(), env);
            return index(t, i);
        }
        if (e instanceof Expr.Unary u) {
            return unary(u.op(), value(u.operand(), env));
        }
        if (e instanceof Expr.Conditional c) {
            JsonNode cond = value(c.condition(), env);
            if (!cond.isBoolean()) {
                return UNDEFINED;
            }
            return value(cond.booleanValue() ? c.whenTrue() : c.whenFalse(), env);
        }
        if (e instanceof Expr.In in) {
            return in(in, env);
        }
        if (e instanceof Expr.Between bt) {
            JsonNode t = value(bt.target(), env);
            JsonNode r = and(compare(Expr.BinaryOp.GREATER_OR_EQUAL, t, value(bt.low(), env)),
                    compare(Expr.BinaryOp.LESS_OR_EQUAL, t, value(bt.high(), env)));
            return bt.negated() ? not(r) : r;
        }
        if (e instanceof Expr.Like l) {
            JsonNode r = like(value(l.target(), env), value(l.pattern(), env), l.escape());
            return l.negated() ? not(r) : r;
        }
        if (e instanceof Expr.ObjectLiteral o) {
            ObjectNode out = NODES.objectNode();
            for (Expr.ObjectProperty p : o.properties()) {
                JsonNode v = finite(value(p.value(), env));
                if (!v.isMissingNode()) {
                    out.set(p.name(), v);
                }
            }
            return out;
        }
        if (e instanceof Expr.ArrayLiteral a) {
            ArrayNode out = NODES.arrayNode();
            for (Expr x : a.elements()) {
                JsonNode v = finite(value(x, env));
                if (!v.isMissingNode()) {
                    out.add(v);
                }
            }
            return out;
        }
        if (e instanceof Expr.FunctionCall f) {
            return call(f, env);
        }
        if (e instanceof Expr.Subquery s) {
            return subquery(s, env);
        }
        throw new StoreException(Status.BAD_REQUEST, "Unsupported expression: " + e);
    }

    /** Whether {@code e} evaluates to the boolean {@code true} (the WHERE rule). */
    public boolean isTrue(Expr e, Env env) {
        JsonNode v = evaluate(e, env);
        return v.isBoolean() && v.booleanValue();
    }

    // ------------------------------------------------------------------------------------------------- references

    private JsonNode parameter(String name) {
        JsonNode v = params.get(name);
        if (v == null) {
            v = params.get("@" + name);
        }
        if (v == null) {
            throw new StoreException(Status.BAD_REQUEST, "Parameter '@" + name + "' is not defined.");
        }
        return v;
    }

    static JsonNode property(JsonNode target, String name) {
        if (target != null && target.isObject()) {
            JsonNode v = target.get(name);
            return v == null ? UNDEFINED : sqlView(v);
        }
        return UNDEFINED;
    }

    /**
     * What SQL sees of a value read from an item: a typed value of a binary item (DateTime, ObjectId, UUID, ...) as
     * its JSON view, as the index holds it and the Cosmos face shows it; anything else as it is.
     */
    static JsonNode sqlView(JsonNode v) {
        if (v instanceof io.tetradb.core.value.TypedNode typed) {
            return typed.jsonView();
        }
        if (v.isContainerNode() && !v.isEmpty()) {
            return io.tetradb.core.value.TypedValues.jsonView(v); // itself unless it holds typed values
        }
        return v;
    }

    static JsonNode index(JsonNode target, JsonNode i) {
        if (i.isTextual()) {
            return property(target, i.textValue());
        }
        if (i.isNumber() && target.isArray()) {
            double d = i.doubleValue();
            if (d != Math.rint(d) || d < 0 || d >= target.size()) {
                return UNDEFINED;
            }
            return sqlView(target.get((int) d));
        }
        return UNDEFINED;
    }

    // -------------------------------------------------------------------------------------------------- operators

    private JsonNode binary(Expr.Binary b, Env env) {
        // AND / OR / ?? short-circuit where the result is already known
        switch (b.op()) {
            case AND: {
                JsonNode l = value(b.left(), env);
                if (l.isBoolean() && !l.booleanValue()) {
                    return BooleanNode.FALSE;
                }
                return and(l, value(b.right(), env));
            }
            case OR: {
                JsonNode l = value(b.left(), env);
                if (l.isBoolean() && l.booleanValue()) {
                    return BooleanNode.TRUE;
                }
                return or(l, value(b.right(), env));
            }
            case COALESCE: {
                JsonNode l = value(b.left(), env);
                return l.isMissingNode() ? value(b.right(), env) : l;
            }
            default: {
                JsonNode l = value(b.left(), env);
                JsonNode r = value(b.right(), env);
                // a typed parameter (a face's exact DateTime, Guid, Binary...) meets the stored typed value, not its
                // JSON view: faces with typed filters compare by type, as their services do
                if (r instanceof io.tetradb.core.value.TypedNode && b.left() instanceof Expr.PropertyAccess pl) {
                    l = rawProperty(pl, env);
                } else if (l instanceof io.tetradb.core.value.TypedNode
                        && b.right() instanceof Expr.PropertyAccess pr) {
                    r = rawProperty(pr, env);
                }
                return apply(b.op(), l, r);
            }
        }
    }

    /** TetraDB's function {@code TETRA_IS_TYPED(path)}: true when the item holds a typed value at {@code path}. */
    public static final String IS_TYPED_VALUE = "TETRA_IS_TYPED";

    /** A property as the item holds it, a typed value included (for a comparison with a typed parameter). */
    private JsonNode rawProperty(Expr.PropertyAccess p, Env env) {
        JsonNode t = value(p.target(), env);
        if (t != null && t.isObject()) {
            JsonNode v = t.get(p.name());
            return v == null ? UNDEFINED : v;
        }
        return UNDEFINED;
    }

    /** A binary operator on two values (not AND/OR/?? short-circuiting, which {@link #evaluate} does). */
    static JsonNode apply(Expr.BinaryOp op, JsonNode l, JsonNode r) {
        switch (op) {
            case AND:
                return and(l, r);
            case OR:
                return or(l, r);
            case COALESCE:
                return l.isMissingNode() ? r : l;
            case EQUAL:
                return equal(l, r);
            case NOT_EQUAL:
                // "!=" is a comparison operator: undefined between two arrays or two objects as well
                if ((l.isArray() && r.isArray()) || (l.isObject() && r.isObject())) {
                    return UNDEFINED;
                }
                return not(equal(l, r));
            case LESS:
            case LESS_OR_EQUAL:
            case GREATER:
            case GREATER_OR_EQUAL:
                return compare(op, l, r);
            case STRING_CONCAT:
                return l.isTextual() && r.isTextual() ? TextNode.valueOf(l.textValue() + r.textValue()) : UNDEFINED;
            case ADD:
            case SUBTRACT:
            case MULTIPLY:
            case DIVIDE:
            case MODULO:
                return arithmetic(op, l, r);
            default:
                return bitwise(op, l, r);
        }
    }

    static JsonNode equal(JsonNode l, JsonNode r) {
        int rl = ValueOrder.typeRank(l);
        if (rl == ValueOrder.RANK_UNDEFINED || rl != ValueOrder.typeRank(r)) {
            return UNDEFINED;
        }
        return BooleanNode.valueOf(ValueOrder.compareValues(l, r) == 0);
    }

    static JsonNode compare(Expr.BinaryOp op, JsonNode l, JsonNode r) {
        Integer c = ValueOrder.compareForQuery(l, r);
        if (c == null) {
            return UNDEFINED;
        }
        switch (op) {
            case LESS:
                return BooleanNode.valueOf(c < 0);
            case LESS_OR_EQUAL:
                return BooleanNode.valueOf(c <= 0);
            case GREATER:
                return BooleanNode.valueOf(c > 0);
            default:
                return BooleanNode.valueOf(c >= 0);
        }
    }

    static JsonNode and(JsonNode l, JsonNode r) {
        if (isFalse(l) || isFalse(r)) {
            return BooleanNode.FALSE;
        }
        if (l.isBoolean() && r.isBoolean()) {
            return BooleanNode.TRUE;
        }
        return UNDEFINED;
    }

    static JsonNode or(JsonNode l, JsonNode r) {
        if (isTrueValue(l) || isTrueValue(r)) {
            return BooleanNode.TRUE;
        }
        if (l.isBoolean() && r.isBoolean()) {
            return BooleanNode.FALSE;
        }
        return UNDEFINED;
    }

    static JsonNode not(JsonNode v) {
        return v.isBoolean() ? BooleanNode.valueOf(!v.booleanValue()) : UNDEFINED;
    }

    private static boolean isFalse(JsonNode v) {
        return v.isBoolean() && !v.booleanValue();
    }

    private static boolean isTrueValue(JsonNode v) {
        return v.isBoolean() && v.booleanValue();
    }

    private static JsonNode arithmetic(Expr.BinaryOp op, JsonNode l, JsonNode r) {
        if (!l.isNumber() || !r.isNumber()) {
            return UNDEFINED;
        }
        if (l.isIntegralNumber() && r.isIntegralNumber() && l.canConvertToLong() && r.canConvertToLong()) {
            long a = l.longValue();
            long b = r.longValue();
            try {
                switch (op) {
                    case ADD:
                        return exactOrDouble(Math.addExact(a, b));
                    case SUBTRACT:
                        return exactOrDouble(Math.subtractExact(a, b));
                    case MULTIPLY:
                        return exactOrDouble(Math.multiplyExact(a, b));
                    case MODULO:
                        if (b == 0) {
                            break; // as doubles: NaN
                        }
                        return LongNode.valueOf(a % b);
                    default:
                        break; // division: as doubles
                }
            } catch (ArithmeticException overflow) {
                // fall through to doubles
            }
        }
        double a = l.doubleValue();
        double b = r.doubleValue();
        double x;
        switch (op) {
            case ADD:
                x = a + b;
                break;
            case SUBTRACT:
                x = a - b;
                break;
            case MULTIPLY:
                x = a * b;
                break;
            case DIVIDE:
                x = a / b;
                break;
            default:
                x = a % b;
                break;
        }
        return numeric(x);
    }

    private static JsonNode exactOrDouble(long v) {
        return Math.abs(v) <= (1L << 53) ? LongNode.valueOf(v) : DoubleNode.valueOf((double) v);
    }

    private static JsonNode bitwise(Expr.BinaryOp op, JsonNode l, JsonNode r) {
        if (!l.isNumber() || !r.isNumber()) {
            return UNDEFINED;
        }
        int a = toInt32(l.doubleValue());
        int b = toInt32(r.doubleValue());
        switch (op) {
            case BITWISE_AND:
                return LongNode.valueOf(a & b);
            case BITWISE_OR:
                return LongNode.valueOf(a | b);
            case BITWISE_XOR:
                return LongNode.valueOf(a ^ b);
            case LEFT_SHIFT:
                return LongNode.valueOf(a << (b & 31));
            case RIGHT_SHIFT:
                return LongNode.valueOf(a >> (b & 31));
            case ZERO_FILL_RIGHT_SHIFT:
                return LongNode.valueOf((a & 0xFFFFFFFFL) >>> (b & 31));
            default:
                throw new StoreException(Status.BAD_REQUEST, "Unsupported operator " + op.symbol());
        }
    }

    /** JavaScript's ToInt32. */
    static int toInt32(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return 0;
        }
        double t = d < 0 ? Math.ceil(d) : Math.floor(d);
        double m = t % 4294967296.0;
        return (int) (long) m;
    }

    private static JsonNode unary(Expr.UnaryOp op, JsonNode v) {
        switch (op) {
            case NOT:
                return not(v);
            case NEGATE:
                if (!v.isNumber()) {
                    return UNDEFINED;
                }
                if (v.isIntegralNumber() && v.canConvertToLong() && v.longValue() != Long.MIN_VALUE) {
                    return exactOrDouble(-v.longValue());
                }
                return numeric(-v.doubleValue());
            case PLUS:
                return v.isNumber() ? v : UNDEFINED;
            default:
                return v.isNumber() ? LongNode.valueOf(~toInt32(v.doubleValue())) : UNDEFINED;
        }
    }

    private JsonNode in(Expr.In in, Env env) {
        JsonNode t = value(in.target(), env);
        JsonNode r = BooleanNode.FALSE;
        for (Expr x : in.values()) {
            r = or(r, equal(t, value(x, env)));
            if (isTrueValue(r)) {
                break;
            }
        }
        return in.negated() ? not(r) : r;
    }

    static JsonNode like(JsonNode target, JsonNode pattern, String escape) {
        if (!target.isTextual() || !pattern.isTextual()) {
            return UNDEFINED;
        }
        return BooleanNode.valueOf(likePattern(pattern.textValue(), escape).matcher(target.textValue()).matches());
    }

    /** The regular expression of a LIKE pattern. */
    static Pattern likePattern(String p, String escape) {
        if (escape != null && escape.codePointCount(0, escape.length()) != 1) {
            throw new StoreException(Status.BAD_REQUEST, "The ESCAPE clause takes exactly one character.");
        }
        int esc = escape == null ? -1 : escape.codePointAt(0);
        StringBuilder re = new StringBuilder();
        int i = 0;
        while (i < p.length()) {
            int c = p.codePointAt(i);
            i += Character.charCount(c);
            if (c == esc) {
                if (i < p.length()) {
                    int n = p.codePointAt(i);
                    i += Character.charCount(n);
                    re.append(Pattern.quote(new String(Character.toChars(n))));
                } else {
                    re.append(Pattern.quote(new String(Character.toChars(c))));
                }
            } else if (c == '%') {
                re.append(".*");
            } else if (c == '_') {
                re.append('.');
            } else if (c == '[') {
                int start = i < p.length() && p.charAt(i) == '^' ? i + 1 : i;
                int close = p.indexOf(']', start);
                if (close < 0) {
                    re.append(Pattern.quote("["));
                    continue;
                }
                String body = p.substring(i, close);
                i = close + 1;
                boolean negate = body.startsWith("^");
                if (negate) {
                    body = body.substring(1);
                }
                StringBuilder set = new StringBuilder(negate ? "[^" : "[");
                for (int k = 0; k < body.length(); k++) {
                    char ch = body.charAt(k);
                    if (ch == '-' && k > 0 && k < body.length() - 1) {
                        set.append('-');
                    } else {
                        set.append(String.format("\\x{%x}", (int) ch));
                    }
                }
                if (body.isEmpty()) {
                    re.append(Pattern.quote("[" + (negate ? "^" : "") + "]"));
                } else {
                    re.append(set).append(']');
                }
            } else {
                re.append(Pattern.quote(new String(Character.toChars(c))));
            }
        }
        return Pattern.compile(re.toString(), Pattern.DOTALL);
    }

    // ---------------------------------------------------------------------------------------- calls and subqueries

    private JsonNode call(Expr.FunctionCall f, Env env) {
        if (f.udf()) {
            FunctionContext c = env.functionContext() != null ? env.functionContext() : functionContext;
            if (c == null || c.udfs() == null) {
                throw new StoreException(Status.BAD_REQUEST, "udf." + f.name()
                        + " cannot be called here: this query runs outside a container with user-defined functions.");
            }
            List<JsonNode> udfArgs = new ArrayList<>(f.args().size());
            for (Expr a : f.args()) {
                udfArgs.add(finite(value(a, env)));
            }
            return c.udfs().call(f.name(), udfArgs);
        }
        String name = f.normalizedName();
        if (AGGREGATES.contains(name)) {
            return aggregate(name, f, env);
        }
        if (name.equals(IS_TYPED_VALUE) && f.args().size() == 1 && f.args().get(0) instanceof Expr.PropertyAccess p) {
            // whether the item holds a typed value there (a DateTime, Guid, ObjectId...), which SQL otherwise sees
            // only as its JSON view: for faces whose filters are type-strict (a Tables string never equals a date)
            return BooleanNode.valueOf(rawProperty(p, env) instanceof io.tetradb.core.value.TypedNode);
        }
        var fn = registry.resolve(f.name(), f.args().size());
        List<JsonNode> args = new ArrayList<>(f.args().size());
        for (Expr a : f.args()) {
            args.add(value(a, env));
        }
        FunctionContext ctx = env.functionContext() != null ? env.functionContext() : functionContext;
        return fn.apply(args, ctx);
    }

    private JsonNode aggregate(String name, Expr.FunctionCall f, Env env) {
        JsonNode folded = env.aggregate(f);
        if (folded != null) {
            return folded;
        }
        List<Env> rows = env.group();
        if (rows == null) {
            throw new StoreException(Status.BAD_REQUEST, "The aggregate function " + name
                    + " is only allowed in the SELECT clause of a query.");
        }
        if (f.args().size() != 1) {
            throw new StoreException(Status.BAD_REQUEST, "The function '" + name + "' takes 1 argument(s), but "
                    + f.args().size() + " were given.");
        }
        Expr arg = f.args().get(0);
        if (containsAggregate(arg)) {
            throw new StoreException(Status.BAD_REQUEST, "Aggregate functions cannot be nested.");
        }
        List<JsonNode> values = new ArrayList<>(rows.size());
        for (Env row : rows) {
            JsonNode v = evaluate(arg, row);
            if (!v.isMissingNode()) {
                values.add(v);
            }
        }
        return Aggregates.compute(name, values);
    }

    /** Whether a select list calls an aggregate function outside any subquery (then its query aggregates). */
    public static boolean hasAggregateCall(io.tetradb.core.query.sql.Projection p) {
        if (p instanceof io.tetradb.core.query.sql.Projection.Value v) {
            return hasAggregateCall(v.expr());
        }
        if (p instanceof io.tetradb.core.query.sql.Projection.Items items) {
            return items.items().stream().anyMatch(i -> hasAggregateCall(i.expr()));
        }
        return false;
    }

    /** Whether {@code e} calls an aggregate function outside any subquery (then its query aggregates). */
    public static boolean hasAggregateCall(Expr e) {
        return containsAggregate(e);
    }

    /** Whether {@code e} calls an aggregate function outside any subquery. */
    static boolean containsAggregate(Expr e) {
        if (e instanceof Expr.FunctionCall f) {
            if (!f.udf() && AGGREGATES.contains(f.normalizedName())) {
                return true;
            }
            return f.args().stream().anyMatch(ExpressionEvaluator::containsAggregate);
        }
        if (e instanceof Expr.Binary b) {
            // walk the left spine iteratively: long AND/OR chains are deep on the left
            Expr x = b;
            while (x instanceof Expr.Binary xb) {
                if (containsAggregate(xb.right())) {
                    return true;
                }
                x = xb.left();
            }
            return containsAggregate(x);
        }
        if (e instanceof Expr.Unary u) {
            return containsAggregate(u.operand());
        }
        if (e instanceof Expr.PropertyAccess p) {
            return containsAggregate(p.target());
        }
        if (e instanceof Expr.IndexAccess i) {
            return containsAggregate(i.target()) || containsAggregate(i.index());
        }
        if (e instanceof Expr.Conditional c) {
            return containsAggregate(c.condition()) || containsAggregate(c.whenTrue())
                    || containsAggregate(c.whenFalse());
        }
        if (e instanceof Expr.In in) {
            return containsAggregate(in.target())
                    || in.values().stream().anyMatch(ExpressionEvaluator::containsAggregate);
        }
        if (e instanceof Expr.Between bt) {
            return containsAggregate(bt.target()) || containsAggregate(bt.low()) || containsAggregate(bt.high());
        }
        if (e instanceof Expr.Like l) {
            return containsAggregate(l.target()) || containsAggregate(l.pattern());
        }
        if (e instanceof Expr.ObjectLiteral o) {
            return o.properties().stream().anyMatch(p -> containsAggregate(p.value()));
        }
        if (e instanceof Expr.ArrayLiteral a) {
            return a.elements().stream().anyMatch(ExpressionEvaluator::containsAggregate);
        }
        return false;
    }

    private JsonNode subquery(Expr.Subquery s, Env env) {
        switch (s.kind()) {
            case EXISTS:
                return BooleanNode.valueOf(!executor.run(s.query(), null, env, 1).isEmpty());
            case ARRAY: {
                ArrayNode out = NODES.arrayNode();
                out.addAll(executor.run(s.query(), null, env, -1));
                return out;
            }
            default: {
                List<JsonNode> r = executor.run(s.query(), null, env, 1);
                return r.isEmpty() ? UNDEFINED : r.get(0);
            }
        }
    }

    // ------------------------------------------------------------------------------------------------------ values

    /**
     * A number as Cosmos prints it: an integral value a double holds exactly becomes an integer node (5, not 5.0),
     * anything else a double; NaN and infinities are undefined (JSON has no such numbers).
     */
    static JsonNode number(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return UNDEFINED;
        }
        return io.tetradb.core.value.Numbers.of(d);
    }

    /**
     * An operator's numeric result: as {@link #number}, but NaN and infinities stay numbers (see {@link #evaluate}).
     */
    static JsonNode numeric(double d) {
        return Double.isFinite(d) ? io.tetradb.core.value.Numbers.of(d) : DoubleNode.valueOf(d);
    }

    static String upper(String s) {
        return s.toUpperCase(Locale.ROOT);
    }
}
