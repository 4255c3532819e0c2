package io.tetradb.core.query.sql;

import java.util.List;
import java.util.Locale;

/**
 * Turns the AST back into query text that parses back to an equal tree: {@code SqlParser.parse(unparse(q)).equals(q)}
 * for every tree the parser produces. Parentheses appear only where precedence needs them (left-associative chains
 * stay flat, so a long {@code a OR b OR ...} does not turn into deep nesting); {@link #unparseGrouped(Expr)}
 * parenthesizes every compound operand instead.
 */
public final class SqlUnparser {
    private static final SqlUnparser MINIMAL = new SqlUnparser(false);
    private static final SqlUnparser FULL = new SqlUnparser(true);

    /** Parenthesize every compound operand (shows the grouping) rather than only where precedence needs it. */
    private final boolean full;

    private SqlUnparser(boolean full) {
        this.full = full;
    }

    /** The query as text, with parentheses only where precedence needs them. */
    public static String unparse(SqlQuery q) {
        StringBuilder sb = new StringBuilder();
        MINIMAL.query(sb, q);
        return sb.toString();
    }

    /** The expression as text, with parentheses only where precedence needs them. */
    public static String unparse(Expr e) {
        StringBuilder sb = new StringBuilder();
        MINIMAL.expr(sb, e);
        return sb.toString();
    }

    /** The expression with every compound operand parenthesized: {@code 1 + 2 * 3} gives {@code 1 + (2 * 3)}. */
    public static String unparseGrouped(Expr e) {
        StringBuilder sb = new StringBuilder();
        FULL.expr(sb, e);
        return sb.toString();
    }

    static String unparse(SelectClause s) {
        StringBuilder sb = new StringBuilder();
        MINIMAL.select(sb, s);
        return sb.toString();
    }

    static String unparse(FromClause f) {
        StringBuilder sb = new StringBuilder();
        MINIMAL.from(sb, f);
        return sb.toString();
    }

    private void query(StringBuilder sb, SqlQuery q) {
        select(sb, q.select());
        if (q.from() != null) {
            sb.append(' ');
            from(sb, q.from());
        }
        if (q.where() != null) {
            sb.append(" WHERE ");
            expr(sb, q.where());
        }
        if (!q.groupBy().isEmpty()) {
            sb.append(" GROUP BY ");
            list(sb, q.groupBy());
        }
        if (!q.orderBy().isEmpty()) {
            sb.append(" ORDER BY ");
            for (int i = 0; i < q.orderBy().size(); i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                OrderByItem o = q.orderBy().get(i);
                expr(sb, o.expr());
                if (o.descending()) {
                    sb.append(" DESC");
                }
            }
        }
        if (q.offsetLimit() != null) {
            sb.append(" OFFSET ");
            expr(sb, q.offsetLimit().offset());
            sb.append(" LIMIT ");
            expr(sb, q.offsetLimit().limit());
        }
    }

    private void select(StringBuilder sb, SelectClause s) {
        sb.append("SELECT ");
        if (s.distinct()) {
            sb.append("DISTINCT ");
        }
        if (s.top() != null) {
            sb.append("TOP ");
            expr(sb, s.top());
            sb.append(' ');
        }
        Projection p = s.projection();
        if (p instanceof Projection.Star) {
            sb.append('*');
        } else if (p instanceof Projection.Value v) {
            sb.append("VALUE ");
            expr(sb, v.expr());
        } else if (p instanceof Projection.Items items) {
            for (int i = 0; i < items.items().size(); i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                Projection.SelectItem it = items.items().get(i);
                expr(sb, it.expr());
                if (it.alias() != null) {
                    sb.append(" AS ").append(it.alias());
                }
            }
        }
    }

    private void from(StringBuilder sb, FromClause f) {
        sb.append("FROM ");
        source(sb, f.source());
        for (JoinClause j : f.joins()) {
            sb.append(" JOIN ");
            source(sb, j.source());
        }
    }

    private void source(StringBuilder sb, FromSource s) {
        if (s.iterate()) {
            sb.append(s.alias()).append(" IN ");
            collection(sb, s.collection());
        } else {
            collection(sb, s.collection());
            if (s.alias() != null) {
                sb.append(' ').append(s.alias());
            }
        }
    }

    private void collection(StringBuilder sb, FromCollection c) {
        if (c instanceof FromCollection.Subquery sq) {
            sb.append('(');
            query(sb, sq.query());
            sb.append(')');
            return;
        }
        FromCollection.Path p = (FromCollection.Path) c;
        sb.append(p.root());
        for (PathSegment seg : p.segments()) {
            if (seg instanceof PathSegment.Property prop) {
                if (prop.quoted() || !isIdentifier(prop.name())) {
                    sb.append('[');
                    string(sb, prop.name());
                    sb.append(']');
                } else {
                    sb.append('.').append(prop.name());
                }
            } else if (seg instanceof PathSegment.Index idx) {
                sb.append('[').append(idx.index()).append(']');
            }
        }
    }

    private void list(StringBuilder sb, List<Expr> items) {
        for (int i = 0; i < items.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            expr(sb, items.get(i));
        }
    }

    // precedence levels, loosest first (see SqlParser)
    private static final int CONDITIONAL = 1;
    private static final int COALESCE = 2;
    private static final int OR = 3;
    private static final int AND = 4;
    private static final int NOT = 5;
    private static final int PREDICATE = 6;
    private static final int CONCAT = 7;
    private static final int UNARY = 16;
    private static final int PRIMARY = 17;

    private static int level(Expr.BinaryOp op) {
        return switch (op) {
            case COALESCE -> COALESCE;
            case OR -> OR;
            case AND -> AND;
            case STRING_CONCAT -> CONCAT;
            case BITWISE_OR -> 8;
            case BITWISE_XOR -> 9;
            case BITWISE_AND -> 10;
            case EQUAL, NOT_EQUAL -> 11;
            case LESS, LESS_OR_EQUAL, GREATER, GREATER_OR_EQUAL -> 12;
            case LEFT_SHIFT, RIGHT_SHIFT, ZERO_FILL_RIGHT_SHIFT -> 13;
            case ADD, SUBTRACT -> 14;
            case MULTIPLY, DIVIDE, MODULO -> 15;
        };
    }

    /** How tightly {@code e} binds as printed. */
    private static int level(Expr e) {
        if (e instanceof Expr.Conditional) {
            return CONDITIONAL;
        }
        if (e instanceof Expr.Binary b) {
            return level(b.op());
        }
        if (e instanceof Expr.Unary u) {
            return u.op() == Expr.UnaryOp.NOT ? NOT : UNARY;
        }
        if (e instanceof Expr.In || e instanceof Expr.Like || e instanceof Expr.Between) {
            return PREDICATE;
        }
        if (e instanceof Expr.NumberLiteral n && (n.value() < 0 || Double.isInfinite(n.value())
                || Double.isNaN(n.value()) || (n.value() == 0 && 1 / n.value() < 0))) {
            return UNARY;
        }
        return PRIMARY;
    }

    /** Prints {@code e} where the grammar wants something binding at least as tightly as {@code min}. */
    private void operand(StringBuilder sb, Expr e, int min) {
        int lvl = level(e);
        if (lvl >= min && !(full && lvl < PRIMARY)) {
            expr(sb, e);
        } else {
            sb.append('(');
            expr(sb, e);
            sb.append(')');
        }
    }

    private void expr(StringBuilder sb, Expr e) {
        if (e instanceof Expr.NullLiteral) {
            sb.append("null");
        } else if (e instanceof Expr.UndefinedLiteral) {
            sb.append("undefined");
        } else if (e instanceof Expr.BooleanLiteral b) {
            sb.append(b.value());
        } else if (e instanceof Expr.NumberLiteral n) {
            number(sb, n);
        } else if (e instanceof Expr.StringLiteral s) {
            string(sb, s.value());
        } else if (e instanceof Expr.ArrayLiteral a) {
            sb.append('[');
            list(sb, a.elements());
            sb.append(']');
        } else if (e instanceof Expr.ObjectLiteral o) {
            sb.append('{');
            for (int i = 0; i < o.properties().size(); i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                string(sb, o.properties().get(i).name(), '"');
                sb.append(": ");
                expr(sb, o.properties().get(i).value());
            }
            sb.append('}');
        } else if (e instanceof Expr.Identifier id) {
            sb.append(id.name());
        } else if (e instanceof Expr.Parameter p) {
            sb.append('@').append(p.name());
        } else if (e instanceof Expr.PropertyAccess pa) {
            if (pa.target() instanceof Expr.NumberLiteral) {
                // "1.x" would lex as a malformed number
                sb.append('(');
                expr(sb, pa.target());
                sb.append(')');
            } else {
                operand(sb, pa.target(), PRIMARY);
            }
            if (isIdentifier(pa.name())) {
                sb.append('.').append(pa.name());
            } else {
                // not expressible as .name; the bracket form parses back as an IndexAccess
                sb.append('[');
                string(sb, pa.name());
                sb.append(']');
            }
        } else if (e instanceof Expr.IndexAccess ia) {
            operand(sb, ia.target(), PRIMARY);
            sb.append('[');
            expr(sb, ia.index());
            sb.append(']');
        } else if (e instanceof Expr.Unary u) {
            sb.append(u.op().symbol());
            if (u.op() == Expr.UnaryOp.NOT) {
                sb.append(' ');
                operand(sb, u.operand(), NOT);
            } else if (u.operand() instanceof Expr.Unary || level(u.operand()) < PRIMARY) {
                // parenthesized also to keep "- -1" from becoming the comment "--1"
                sb.append('(');
                expr(sb, u.operand());
                sb.append(')');
            } else {
                operand(sb, u.operand(), UNARY);
            }
        } else if (e instanceof Expr.Binary b) {
            int lvl = level(b.op());
            // walk the left spine of a same-precedence chain iteratively: a long a OR b OR ... stays flat
            java.util.ArrayDeque<Expr.Binary> spine = new java.util.ArrayDeque<>();
            Expr cur = b;
            while (cur instanceof Expr.Binary x && level(x.op()) == lvl && (spine.isEmpty() || !full)) {
                spine.push(x);
                cur = x.left();
            }
            operand(sb, cur, lvl);
            while (!spine.isEmpty()) {
                Expr.Binary x = spine.pop();
                sb.append(' ').append(x.op().symbol()).append(' ');
                operand(sb, x.right(), lvl + 1);
            }
        } else if (e instanceof Expr.Conditional c) {
            operand(sb, c.condition(), COALESCE);
            sb.append(" ? ");
            operand(sb, c.whenTrue(), CONDITIONAL);
            sb.append(" : ");
            operand(sb, c.whenFalse(), CONDITIONAL);
        } else if (e instanceof Expr.In in) {
            operand(sb, in.target(), CONCAT);
            sb.append(in.negated() ? " NOT IN (" : " IN (");
            list(sb, in.values());
            sb.append(')');
        } else if (e instanceof Expr.Between bt) {
            operand(sb, bt.target(), CONCAT);
            sb.append(bt.negated() ? " NOT BETWEEN " : " BETWEEN ");
            operand(sb, bt.low(), CONCAT);
            sb.append(" AND ");
            operand(sb, bt.high(), CONCAT);
        } else if (e instanceof Expr.Like l) {
            operand(sb, l.target(), CONCAT);
            sb.append(l.negated() ? " NOT LIKE " : " LIKE ");
            operand(sb, l.pattern(), CONCAT);
            if (l.escape() != null) {
                sb.append(" ESCAPE ");
                string(sb, l.escape());
            }
        } else if (e instanceof Expr.FunctionCall f) {
            if (f.udf()) {
                sb.append("udf.");
            }
            sb.append(f.name()).append('(');
            list(sb, f.args());
            sb.append(')');
        } else if (e instanceof Expr.Subquery s) {
            switch (s.kind()) {
                case EXISTS -> sb.append("EXISTS");
                case ARRAY -> sb.append("ARRAY");
                default -> {
                }
            }
            sb.append('(');
            query(sb, s.query());
            sb.append(')');
        } else {
            throw new IllegalArgumentException("unknown expression " + e.getClass());
        }
    }

    private static void number(StringBuilder sb, Expr.NumberLiteral n) {
        double v = n.value();
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            // no literal for these; an expression that evaluates to them
            sb.append(Double.isNaN(v) ? "(0 / 0)" : v > 0 ? "(1 / 0)" : "(-1 / 0)");
            return;
        }
        if (n.exact() != null) {
            sb.append(n.exact());
        } else if (n.isInteger()) {
            sb.append((long) v);
        } else {
            sb.append(Double.toString(v));
        }
    }

    private static void string(StringBuilder sb, String s) {
        string(sb, s, '\'');
    }

    private static void string(StringBuilder sb, String s, char quote) {
        sb.append(quote);
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    if (ch == quote) {
                        sb.append('\\').append(ch);
                    } else if (ch < 0x20) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
                    } else {
                        sb.append(ch);
                    }
                }
            }
        }
        sb.append(quote);
    }

    static boolean isIdentifier(String s) {
        if (s.isEmpty() || SqlLexer.KEYWORDS.contains(s.toUpperCase(Locale.ROOT))) {
            return false;
        }
        char c0 = s.charAt(0);
        if (!((c0 >= 'a' && c0 <= 'z') || (c0 >= 'A' && c0 <= 'Z') || c0 == '_')) {
            return false;
        }
        for (int i = 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (c >= '0' && c <= '9'))) {
                return false;
            }
        }
        return true;
    }
}
