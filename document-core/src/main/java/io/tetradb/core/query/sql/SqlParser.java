package io.tetradb.core.query.sql;

import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.query.sql.SqlLexer.Kind;
import io.tetradb.core.query.sql.SqlLexer.Token;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;

/**
 * Recursive-descent parser for the Cosmos DB NoSQL query language.
 *
 * <p>Expression precedence, loosest first (binary levels follow the Cosmos SDK's ANTLR grammar, shifts added between
 * additive and relational as in JavaScript):
 * <ol>
 * <li>{@code ? :} (right-associative)</li>
 * <li>{@code ??}</li>
 * <li>{@code OR}</li>
 * <li>{@code AND}</li>
 * <li>prefix {@code NOT}</li>
 * <li>{@code [NOT] IN (...)}, {@code [NOT] LIKE p [ESCAPE 'c']}, {@code [NOT] BETWEEN a AND b} (not chainable)</li>
 * <li>{@code ||}</li>
 * <li>{@code |}</li>
 * <li>{@code ^}</li>
 * <li>{@code &}</li>
 * <li>{@code = != <>}</li>
 * <li>{@code < <= > >=}</li>
 * <li>{@code << >> >>>}</li>
 * <li>{@code + -}</li>
 * <li>{@code * / %}</li>
 * <li>prefix {@code - + ~ NOT}</li>
 * <li>postfix {@code .name}, {@code [expr]}</li>
 * </ol>
 * All binary operators are left-associative.
 */
public final class SqlParser {
    /** The largest query text accepted, in UTF-8 bytes (Cosmos: 512 KB). */
    public static final int MAX_QUERY_BYTES = 512 * 1024;
    /** Nesting bound, so that a deeply nested text is a syntax error, not a stack overflow. */
    static final int MAX_DEPTH = 200;

    /**
     * Bound on the depth of the expression tree (a long {@code a OR b OR ...} chain is as deep as it is long), so that
     * whoever walks the tree recursively (unparse, equals, the planner) cannot overflow the stack.
     */
    static final int MAX_TREE_DEPTH = 2000;
    /** Bound on {@code .name} / {@code [i]} steps after one operand (documents nest at most 128 deep anyway). */
    static final int MAX_PATH_STEPS = 256;

    private final String text;
    private final List<Token> tokens;
    private int pos;
    private int depth;
    private final IdentityHashMap<Expr, Integer> exprDepths = new IdentityHashMap<>();
    private final IdentityHashMap<SqlQuery, Integer> queryDepths = new IdentityHashMap<>();

    private SqlParser(String text, List<Token> tokens) {
        this.text = text;
        this.tokens = tokens;
    }

    /**
     * Parses one query.
     *
     * @throws SqlSyntaxException (400) when the text does not parse
     * @throws StoreException with status 413 when the text is over {@link #MAX_QUERY_BYTES} UTF-8 bytes
     */
    public static SqlQuery parse(String text) {
        if (text == null) {
            throw new SqlSyntaxException(1, 1, 0, "<end of input>", "the query text is missing");
        }
        // cheap bound first: every char is at least one UTF-8 byte, at most three
        if (text.length() > MAX_QUERY_BYTES || (text.length() * 3L > MAX_QUERY_BYTES
                && text.getBytes(StandardCharsets.UTF_8).length > MAX_QUERY_BYTES)) {
            throw new StoreException(Status.REQUEST_ENTITY_TOO_LARGE,
                    "The query text exceeds the maximum of " + MAX_QUERY_BYTES + " bytes");
        }
        SqlParser p = new SqlParser(text, SqlLexer.tokenize(text));
        SqlQuery q = p.query();
        if (p.peek().kind() != Kind.EOF) {
            throw p.error(p.peek(), p.expectedAfter(q));
        }
        return q;
    }

    // ---- token helpers --------------------------------------------------------------------------------------------

    private Token peek() {
        return tokens.get(pos);
    }

    private Token peek(int ahead) {
        return tokens.get(Math.min(pos + ahead, tokens.size() - 1));
    }

    private Token advance() {
        Token t = tokens.get(pos);
        if (t.kind() != Kind.EOF) {
            pos++;
        }
        return t;
    }

    private boolean acceptKeyword(String k) {
        if (peek().isKeyword(k)) {
            pos++;
            return true;
        }
        return false;
    }

    private boolean acceptOp(String o) {
        if (peek().isOp(o)) {
            pos++;
            return true;
        }
        return false;
    }

    private void expectKeyword(String k, String expected) {
        if (!acceptKeyword(k)) {
            throw error(peek(), "expected " + expected);
        }
    }

    private void expectOp(String o, String expected) {
        if (!acceptOp(o)) {
            throw error(peek(), "expected " + expected);
        }
    }

    private SqlSyntaxException error(Token t, String detail) {
        return SqlSyntaxException.at(text, t.offset(), t.display(), detail);
    }

    private String identifier(String what) {
        Token t = peek();
        if (t.kind() == Kind.IDENT) {
            pos++;
            return t.text();
        }
        if (t.kind() == Kind.KEYWORD) {
            throw error(t, "expected " + what + ", but '" + t.raw()
                    + "' is a reserved keyword (write it as a quoted property, e.g. c[\"" + t.raw() + "\"])");
        }
        throw error(t, "expected " + what);
    }

    private void enter() {
        if (++depth > MAX_DEPTH) {
            throw error(peek(), "the query is nested too deeply (more than " + MAX_DEPTH + " levels)");
        }
    }

    private void leave() {
        depth--;
    }

    // ---- query ------------------------------------------------------------------------------------------------------

    private SqlQuery query() {
        enter();
        if (!peek().isKeyword("SELECT")) {
            throw error(peek(), "expected SELECT");
        }
        pos++;
        SelectClause select = selectClause();
        FromClause from = null;
        if (acceptKeyword("FROM")) {
            from = fromClause();
        }
        Expr where = null;
        if (acceptKeyword("WHERE")) {
            where = expression();
        }
        List<Expr> groupBy = List.of();
        if (acceptKeyword("GROUP")) {
            expectKeyword("BY", "BY after GROUP");
            groupBy = expressionList();
        }
        List<OrderByItem> orderBy = List.of();
        if (acceptKeyword("ORDER")) {
            expectKeyword("BY", "BY after ORDER");
            if (peek().isKeyword("RANK")) {
                throw error(peek(), "ORDER BY RANK (full-text and vector score ordering) is not supported");
            }
            orderBy = new ArrayList<>();
            do {
                Expr e = expression();
                boolean desc = false;
                if (acceptKeyword("DESC")) {
                    desc = true;
                } else {
                    acceptKeyword("ASC");
                }
                orderBy.add(new OrderByItem(e, desc));
            } while (acceptOp(","));
        }
        OffsetLimit offsetLimit = null;
        if (acceptKeyword("OFFSET")) {
            Expr offset = count("OFFSET");
            expectKeyword("LIMIT", "LIMIT after OFFSET n");
            Expr limit = count("LIMIT");
            offsetLimit = new OffsetLimit(offset, limit);
        } else if (peek().isKeyword("LIMIT")) {
            throw error(peek(), "LIMIT needs OFFSET before it (OFFSET n LIMIT m)");
        }
        leave();
        SqlQuery q = new SqlQuery(select, from, where, groupBy, orderBy, offsetLimit);
        queryDepths.put(q, queryDepth(q));
        return q;
    }

    /** What may follow a complete query, for the error on a stray token. */
    private String expectedAfter(SqlQuery q) {
        List<String> next = new ArrayList<>();
        if (q.offsetLimit() == null) {
            if (q.orderBy().isEmpty()) {
                if (q.groupBy().isEmpty()) {
                    if (q.where() == null) {
                        if (q.from() == null) {
                            next.add("FROM");
                        }
                        next.add("WHERE");
                    }
                    next.add("GROUP BY");
                }
                next.add("ORDER BY");
            }
            next.add("OFFSET");
        }
        next.add("end of input");
        return "expected " + joinOr(next);
    }

    private static String joinOr(List<String> items) {
        if (items.size() == 1) {
            return items.get(0);
        }
        return String.join(", ", items.subList(0, items.size() - 1)) + " or " + items.get(items.size() - 1);
    }

    /** TOP / OFFSET / LIMIT argument: a non-negative integer literal or a parameter. */
    private Expr count(String clause) {
        Token t = peek();
        if (t.kind() == Kind.PARAM) {
            pos++;
            return new Expr.Parameter(t.text());
        }
        if (t.kind() == Kind.NUMBER) {
            pos++;
            Expr.NumberLiteral n = new Expr.NumberLiteral(t.number());
            if (!n.isInteger() || n.value() < 0) {
                throw error(t, clause + " must be a non-negative integer");
            }
            return n;
        }
        throw error(t, "expected a non-negative integer or a @parameter after " + clause);
    }

    private SelectClause selectClause() {
        boolean distinct = acceptKeyword("DISTINCT");
        Expr top = null;
        if (acceptKeyword("TOP")) {
            top = count("TOP");
        }
        Projection projection;
        if (acceptOp("*")) {
            projection = new Projection.Star();
        } else if (acceptKeyword("VALUE")) {
            if (peek().isOp("*")) {
                throw error(peek(), "SELECT VALUE * is not valid; use SELECT * or SELECT VALUE <alias>");
            }
            projection = new Projection.Value(expression());
        } else {
            if (atClauseEnd()) {
                throw error(peek(), "expected *, VALUE or a select list");
            }
            List<Projection.SelectItem> items = new ArrayList<>();
            do {
                if (peek().isOp("*")) {
                    throw error(peek(), "* must be the only item of the select list");
                }
                Expr e = expression();
                String alias = null;
                if (acceptKeyword("AS")) {
                    alias = identifier("an alias after AS");
                } else if (peek().kind() == Kind.IDENT && (peek(1).isOp(",") || endsSelectList(peek(1)))) {
                    // the grammar's [AS] is optional (SELECT c.id name FROM c); an identifier followed by more
                    // input is left for the error (SELECT c.id FORM c reports FORM)
                    alias = advance().text();
                }
                items.add(new Projection.SelectItem(e, alias));
            } while (acceptOp(","));
            projection = new Projection.Items(items);
        }
        return new SelectClause(distinct, top, projection);
    }

    private boolean atClauseEnd() {
        return endsSelectList(peek());
    }

    private static boolean endsSelectList(Token t) {
        return t.kind() == Kind.EOF || t.isKeyword("FROM") || t.isKeyword("WHERE") || t.isKeyword("GROUP")
                || t.isKeyword("ORDER") || t.isKeyword("OFFSET") || t.isOp(")");
    }

    // ---- FROM -------------------------------------------------------------------------------------------------------

    private FromClause fromClause() {
        FromSource first = fromSource();
        List<JoinClause> joins = new ArrayList<>();
        while (acceptKeyword("JOIN")) {
            joins.add(new JoinClause(fromSource()));
        }
        return new FromClause(first, joins);
    }

    private FromSource fromSource() {
        // alias IN collection
        if (peek().kind() == Kind.IDENT && peek(1).isKeyword("IN")) {
            String alias = advance().text();
            pos++; // IN
            return new FromSource(collection(), alias, true);
        }
        FromCollection coll = collection();
        String alias = null;
        if (acceptKeyword("AS")) {
            alias = identifier("an alias after AS");
        } else if (peek().kind() == Kind.IDENT) {
            alias = advance().text();
        }
        return new FromSource(coll, alias, false);
    }

    private FromCollection collection() {
        if (peek().isOp("(")) {
            pos++;
            if (!peek().isKeyword("SELECT")) {
                throw error(peek(), "expected a subquery (SELECT ...) as source");
            }
            SqlQuery q = query();
            expectOp(")", "')' closing the subquery");
            return new FromCollection.Subquery(q);
        }
        String root = identifier("a container name, ROOT or an alias");
        List<PathSegment> segments = new ArrayList<>();
        while (true) {
            if (acceptOp(".")) {
                segments.add(new PathSegment.Property(identifier("a property name after '.'"), false));
            } else if (peek().isOp("[")) {
                pos++;
                Token t = peek();
                if (t.kind() == Kind.STRING) {
                    pos++;
                    segments.add(new PathSegment.Property(t.text(), true));
                } else if (t.kind() == Kind.NUMBER && new Expr.NumberLiteral(t.number()).isInteger()
                        && t.number() >= 0) {
                    pos++;
                    segments.add(new PathSegment.Index((long) t.number()));
                } else {
                    throw error(t, "expected a quoted property name or an array index in a FROM path");
                }
                expectOp("]", "']'");
            } else {
                break;
            }
        }
        return new FromCollection.Path(root, segments);
    }

    // ---- expressions ------------------------------------------------------------------------------------------------

    private List<Expr> expressionList() {
        List<Expr> list = new ArrayList<>();
        do {
            list.add(expression());
        } while (acceptOp(","));
        return list;
    }

    Expr expression() {
        enter();
        Expr cond = coalesce();
        if (acceptOp("?")) {
            Expr a = expression();
            expectOp(":", "':' of the conditional operator");
            Expr b = expression();
            cond = node(new Expr.Conditional(cond, a, b));
        }
        leave();
        return cond;
    }

    private Expr coalesce() {
        Expr left = or();
        while (acceptOp("??")) {
            left = node(new Expr.Binary(Expr.BinaryOp.COALESCE, left, or()));
        }
        return left;
    }

    private Expr or() {
        Expr left = and();
        while (acceptKeyword("OR")) {
            left = node(new Expr.Binary(Expr.BinaryOp.OR, left, and()));
        }
        return left;
    }

    private Expr and() {
        Expr left = not();
        while (acceptKeyword("AND")) {
            left = node(new Expr.Binary(Expr.BinaryOp.AND, left, not()));
        }
        return left;
    }

    private Expr not() {
        if (acceptKeyword("NOT")) {
            enter();
            Expr operand = not();
            leave();
            return node(new Expr.Unary(Expr.UnaryOp.NOT, operand));
        }
        return predicate();
    }

    private Expr predicate() {
        Expr left = concat();
        boolean negated = false;
        if (peek().isKeyword("NOT")) {
            // after an operand, NOT can only start NOT IN / NOT LIKE / NOT BETWEEN
            pos++;
            negated = true;
        }
        if (acceptKeyword("IN")) {
            expectOp("(", "'(' after IN");
            if (peek().isOp(")")) {
                throw error(peek(), "expected at least one value in the IN list");
            }
            List<Expr> values = expressionList();
            expectOp(")", "',' or ')' in the IN list");
            return node(new Expr.In(left, values, negated));
        }
        if (acceptKeyword("LIKE")) {
            Expr pattern = concat();
            String escape = null;
            if (acceptKeyword("ESCAPE")) {
                Token t = peek();
                if (t.kind() != Kind.STRING) {
                    throw error(t, "expected a string literal after ESCAPE");
                }
                pos++;
                escape = t.text();
            }
            return node(new Expr.Like(left, pattern, escape, negated));
        }
        if (acceptKeyword("BETWEEN")) {
            Expr low = concat();
            expectKeyword("AND", "AND in BETWEEN ... AND ...");
            Expr high = concat();
            return node(new Expr.Between(left, low, high, negated));
        }
        if (negated) {
            throw error(peek(), "expected IN, LIKE or BETWEEN after NOT");
        }
        return left;
    }

    private Expr concat() {
        Expr left = bitOr();
        while (acceptOp("||")) {
            left = node(new Expr.Binary(Expr.BinaryOp.STRING_CONCAT, left, bitOr()));
        }
        return left;
    }

    private Expr bitOr() {
        Expr left = bitXor();
        while (acceptOp("|")) {
            left = node(new Expr.Binary(Expr.BinaryOp.BITWISE_OR, left, bitXor()));
        }
        return left;
    }

    private Expr bitXor() {
        Expr left = bitAnd();
        while (acceptOp("^")) {
            left = node(new Expr.Binary(Expr.BinaryOp.BITWISE_XOR, left, bitAnd()));
        }
        return left;
    }

    private Expr bitAnd() {
        Expr left = equality();
        while (acceptOp("&")) {
            left = node(new Expr.Binary(Expr.BinaryOp.BITWISE_AND, left, equality()));
        }
        return left;
    }

    private Expr equality() {
        Expr left = relational();
        while (true) {
            if (acceptOp("=")) {
                left = node(new Expr.Binary(Expr.BinaryOp.EQUAL, left, relational()));
            } else if (acceptOp("!=") || acceptOp("<>")) {
                left = node(new Expr.Binary(Expr.BinaryOp.NOT_EQUAL, left, relational()));
            } else {
                return left;
            }
        }
    }

    private Expr relational() {
        Expr left = shift();
        while (true) {
            Expr.BinaryOp op;
            if (acceptOp("<")) {
                op = Expr.BinaryOp.LESS;
            } else if (acceptOp("<=")) {
                op = Expr.BinaryOp.LESS_OR_EQUAL;
            } else if (acceptOp(">")) {
                op = Expr.BinaryOp.GREATER;
            } else if (acceptOp(">=")) {
                op = Expr.BinaryOp.GREATER_OR_EQUAL;
            } else {
                return left;
            }
            left = node(new Expr.Binary(op, left, shift()));
        }
    }

    private Expr shift() {
        Expr left = additive();
        while (true) {
            Expr.BinaryOp op;
            if (acceptOp("<<")) {
                op = Expr.BinaryOp.LEFT_SHIFT;
            } else if (acceptOp(">>")) {
                op = Expr.BinaryOp.RIGHT_SHIFT;
            } else if (acceptOp(">>>")) {
                op = Expr.BinaryOp.ZERO_FILL_RIGHT_SHIFT;
            } else {
                return left;
            }
            left = node(new Expr.Binary(op, left, additive()));
        }
    }

    private Expr additive() {
        Expr left = multiplicative();
        while (true) {
            if (acceptOp("+")) {
                left = node(new Expr.Binary(Expr.BinaryOp.ADD, left, multiplicative()));
            } else if (acceptOp("-")) {
                left = node(new Expr.Binary(Expr.BinaryOp.SUBTRACT, left, multiplicative()));
            } else {
                return left;
            }
        }
    }

    private Expr multiplicative() {
        Expr left = unary();
        while (true) {
            Expr.BinaryOp op;
            if (acceptOp("*")) {
                op = Expr.BinaryOp.MULTIPLY;
            } else if (acceptOp("/")) {
                op = Expr.BinaryOp.DIVIDE;
            } else if (acceptOp("%")) {
                op = Expr.BinaryOp.MODULO;
            } else {
                return left;
            }
            left = node(new Expr.Binary(op, left, unary()));
        }
    }

    private Expr unary() {
        Expr.UnaryOp op = null;
        if (acceptOp("-")) {
            op = Expr.UnaryOp.NEGATE;
        } else if (acceptOp("+")) {
            op = Expr.UnaryOp.PLUS;
        } else if (acceptOp("~")) {
            op = Expr.UnaryOp.BITWISE_NOT;
        } else if (acceptKeyword("NOT")) {
            op = Expr.UnaryOp.NOT;
        }
        if (op == null) {
            return postfix();
        }
        enter();
        Expr operand = unary();
        leave();
        return node(new Expr.Unary(op, operand));
    }

    private Expr postfix() {
        Expr e = primary();
        for (int steps = 0; ; steps++) {
            if (steps > MAX_PATH_STEPS) {
                throw error(peek(), "the property path is too long (more than " + MAX_PATH_STEPS + " steps)");
            }
            if (acceptOp(".")) {
                e = node(new Expr.PropertyAccess(e, identifier("a property name after '.'")));
            } else if (acceptOp("[")) {
                Expr index = expression();
                expectOp("]", "']'");
                e = node(new Expr.IndexAccess(e, index));
            } else {
                return e;
            }
        }
    }

    /** A number token as a literal, keeping the exact value of a decimal integer that a long holds. */
    private static Expr.NumberLiteral numberLiteral(Token t) {
        String text = t.text();
        if (!text.isEmpty() && text.length() <= 19 && text.chars().allMatch(Character::isDigit)) {
            try {
                return new Expr.NumberLiteral(t.number(), Long.parseLong(text));
            } catch (NumberFormatException beyondLong) {
                // a double, as any other number
            }
        }
        return new Expr.NumberLiteral(t.number());
    }

    private Expr primary() {
        Token t = peek();
        switch (t.kind()) {
            case NUMBER -> {
                pos++;
                return numberLiteral(t);
            }
            case STRING -> {
                pos++;
                return new Expr.StringLiteral(t.text());
            }
            case PARAM -> {
                pos++;
                return new Expr.Parameter(t.text());
            }
            case IDENT -> {
                pos++;
                if (peek().isOp("(")) {
                    return call(t.text(), false);
                }
                return new Expr.Identifier(t.text());
            }
            case KEYWORD -> {
                return keywordPrimary(t);
            }
            case OP -> {
                return operatorPrimary(t);
            }
            default -> throw error(t, "expected an expression");
        }
    }

    private Expr keywordPrimary(Token t) {
        switch (t.text()) {
            case "TRUE" -> {
                pos++;
                return new Expr.BooleanLiteral(true);
            }
            case "FALSE" -> {
                pos++;
                return new Expr.BooleanLiteral(false);
            }
            case "NULL" -> {
                pos++;
                return new Expr.NullLiteral();
            }
            case "UNDEFINED" -> {
                pos++;
                return new Expr.UndefinedLiteral();
            }
            case "EXISTS", "ARRAY" -> {
                pos++;
                expectOp("(", "'(' after " + t.text());
                if (!peek().isKeyword("SELECT")) {
                    throw error(peek(), "expected a subquery (SELECT ...) in " + t.text() + "(...)");
                }
                SqlQuery q = query();
                expectOp(")", "')' closing the subquery");
                return node(new Expr.Subquery(t.text().equals("EXISTS") ? Expr.SubqueryKind.EXISTS
                        : Expr.SubqueryKind.ARRAY, q));
            }
            case "LEFT", "RIGHT" -> {
                pos++;
                if (!peek().isOp("(")) {
                    throw error(peek(), "expected '(' after " + t.text());
                }
                return call(t.raw(), false);
            }
            case "UDF" -> {
                pos++;
                expectOp(".", "'.' after udf");
                Token name = peek();
                String n = identifier("a user-defined function name after 'udf.'");
                if (!peek().isOp("(")) {
                    throw error(peek(), "expected '(' after udf." + name.raw());
                }
                return call(n, true);
            }
            default -> throw error(t, "expected an expression, but '" + t.raw() + "' is a reserved keyword");
        }
    }

    private Expr operatorPrimary(Token t) {
        switch (t.text()) {
            case "(" -> {
                pos++;
                enter();
                Expr e;
                if (peek().isKeyword("SELECT")) {
                    e = node(new Expr.Subquery(Expr.SubqueryKind.SCALAR, query()));
                    expectOp(")", "')' closing the subquery");
                } else {
                    e = expression();
                    expectOp(")", "')'");
                }
                leave();
                return e;
            }
            case "[" -> {
                pos++;
                enter();
                List<Expr> elements = List.of();
                if (!peek().isOp("]")) {
                    elements = expressionList();
                }
                expectOp("]", "',' or ']' in the array");
                leave();
                return node(new Expr.ArrayLiteral(elements));
            }
            case "{" -> {
                pos++;
                enter();
                List<Expr.ObjectProperty> props = new ArrayList<>();
                if (!peek().isOp("}")) {
                    do {
                        Token name = peek();
                        String n;
                        if (name.kind() == Kind.STRING || name.kind() == Kind.IDENT) {
                            pos++;
                            n = name.text();
                        } else {
                            throw error(name, "expected a property name (a string or an identifier)");
                        }
                        expectOp(":", "':' after the property name");
                        props.add(new Expr.ObjectProperty(n, expression()));
                    } while (acceptOp(","));
                }
                expectOp("}", "',' or '}' in the object");
                leave();
                return node(new Expr.ObjectLiteral(props));
            }
            default -> throw error(t, "expected an expression");
        }
    }

    private Expr call(String name, boolean udf) {
        pos++; // (
        enter();
        List<Expr> args = List.of();
        if (!peek().isOp(")")) {
            args = expressionList();
        }
        expectOp(")", "',' or ')' in the argument list of " + name);
        leave();
        return node(new Expr.FunctionCall(name, udf, args));
    }

    // ---- tree depth -------------------------------------------------------------------------------------------------

    private int depthOf(Expr e) {
        if (e == null) {
            return 0;
        }
        Integer d = exprDepths.get(e);
        return d == null ? 1 : d;
    }

    private int maxDepth(List<Expr> list) {
        int m = 0;
        for (Expr e : list) {
            m = Math.max(m, depthOf(e));
        }
        return m;
    }

    /** Records the depth of a new compound node; a syntax error when the tree gets too deep. */
    private <T extends Expr> T node(T e) {
        int child;
        if (e instanceof Expr.Binary b) {
            child = Math.max(depthOf(b.left()), depthOf(b.right()));
        } else if (e instanceof Expr.Unary u) {
            child = depthOf(u.operand());
        } else if (e instanceof Expr.In in) {
            child = Math.max(depthOf(in.target()), maxDepth(in.values()));
        } else if (e instanceof Expr.Like l) {
            child = Math.max(depthOf(l.target()), depthOf(l.pattern()));
        } else if (e instanceof Expr.Between b) {
            child = Math.max(depthOf(b.target()), Math.max(depthOf(b.low()), depthOf(b.high())));
        } else if (e instanceof Expr.PropertyAccess pa) {
            child = depthOf(pa.target());
        } else if (e instanceof Expr.IndexAccess ia) {
            child = Math.max(depthOf(ia.target()), depthOf(ia.index()));
        } else if (e instanceof Expr.Conditional c) {
            child = Math.max(depthOf(c.condition()), Math.max(depthOf(c.whenTrue()), depthOf(c.whenFalse())));
        } else if (e instanceof Expr.Subquery sq) {
            child = queryDepths.getOrDefault(sq.query(), 1);
        } else if (e instanceof Expr.ArrayLiteral a) {
            child = maxDepth(a.elements());
        } else if (e instanceof Expr.ObjectLiteral o) {
            child = 0;
            for (Expr.ObjectProperty p : o.properties()) {
                child = Math.max(child, depthOf(p.value()));
            }
        } else if (e instanceof Expr.FunctionCall f) {
            child = maxDepth(f.args());
        } else {
            child = 0;
        }
        if (child + 1 > MAX_TREE_DEPTH) {
            throw error(tokens.get(Math.max(0, pos - 1)),
                    "the expression is nested too deeply (more than " + MAX_TREE_DEPTH + " levels)");
        }
        exprDepths.put(e, child + 1);
        return e;
    }

    private int queryDepth(SqlQuery q) {
        int m = depthOf(q.select().top());
        Projection p = q.select().projection();
        if (p instanceof Projection.Value v) {
            m = Math.max(m, depthOf(v.expr()));
        } else if (p instanceof Projection.Items items) {
            for (Projection.SelectItem it : items.items()) {
                m = Math.max(m, depthOf(it.expr()));
            }
        }
        if (q.from() != null) {
            m = Math.max(m, sourceDepth(q.from().source()));
            for (JoinClause j : q.from().joins()) {
                m = Math.max(m, sourceDepth(j.source()));
            }
        }
        m = Math.max(m, depthOf(q.where()));
        m = Math.max(m, maxDepth(q.groupBy()));
        for (OrderByItem o : q.orderBy()) {
            m = Math.max(m, depthOf(o.expr()));
        }
        if (m + 2 > MAX_TREE_DEPTH) {
            throw error(tokens.get(Math.max(0, pos - 1)),
                    "the query is nested too deeply (more than " + MAX_TREE_DEPTH + " levels)");
        }
        return m + 2;
    }

    private int sourceDepth(FromSource s) {
        return s.collection() instanceof FromCollection.Subquery sq ? queryDepths.getOrDefault(sq.query(), 1) : 1;
    }
}
