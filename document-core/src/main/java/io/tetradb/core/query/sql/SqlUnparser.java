package io.tetradb.core.query.sql;

import java.util.List;
import java.util.Locale;

/**
 * Turns the AST back into query text. Every compound operand is parenthesized, so that the text parses back to an
 * equal tree whatever the precedence: {@code SqlParser.parse(unparse(q)).equals(q)}.
 */
public final class SqlUnparser {
    private SqlUnparser() {
    }

    public static String unparse(SqlQuery q) {
        StringBuilder sb = new StringBuilder();
        query(sb, q);
        return sb.toString();
    }

    public static String unparse(Expr e) {
        StringBuilder sb = new StringBuilder();
        expr(sb, e);
        return sb.toString();
    }

    static String unparse(SelectClause s) {
        StringBuilder sb = new StringBuilder();
        select(sb, s);
        return sb.toString();
    }

    static String unparse(FromClause f) {
        StringBuilder sb = new StringBuilder();
        from(sb, f);
        return sb.toString();
    }

    private static void query(StringBuilder sb, SqlQuery q) {
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

    private static void select(StringBuilder sb, SelectClause s) {
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

    private static void from(StringBuilder sb, FromClause f) {
        sb.append("FROM ");
        source(sb, f.source());
        for (JoinClause j : f.joins()) {
            sb.append(" JOIN ");
            source(sb, j.source());
        }
    }

    private static void source(StringBuilder sb, FromSource s) {
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

    private static void collection(StringBuilder sb, FromCollection c) {
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

    private static void list(StringBuilder sb, List<Expr> items) {
        for (int i = 0; i < items.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            expr(sb, items.get(i));
        }
    }

    /** Whether {@code e} prints as one operand that needs no parentheses anywhere. */
    private static boolean atomic(Expr e) {
        if (e instanceof Expr.NumberLiteral n) {
            return n.value() >= 0 || Double.isNaN(n.value());
        }
        return e instanceof Expr.NullLiteral || e instanceof Expr.UndefinedLiteral
                || e instanceof Expr.BooleanLiteral || e instanceof Expr.StringLiteral
                || e instanceof Expr.ArrayLiteral || e instanceof Expr.ObjectLiteral
                || e instanceof Expr.Identifier || e instanceof Expr.Parameter
                || e instanceof Expr.PropertyAccess || e instanceof Expr.IndexAccess
                || e instanceof Expr.FunctionCall || e instanceof Expr.Subquery;
    }

    private static void operand(StringBuilder sb, Expr e) {
        if (atomic(e)) {
            expr(sb, e);
        } else {
            sb.append('(');
            expr(sb, e);
            sb.append(')');
        }
    }

    private static void expr(StringBuilder sb, Expr e) {
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
                operand(sb, pa.target());
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
            operand(sb, ia.target());
            sb.append('[');
            expr(sb, ia.index());
            sb.append(']');
        } else if (e instanceof Expr.Unary u) {
            sb.append(u.op().symbol());
            if (u.op() == Expr.UnaryOp.NOT) {
                sb.append(' ');
            }
            operand(sb, u.operand());
        } else if (e instanceof Expr.Binary b) {
            operand(sb, b.left());
            sb.append(' ').append(b.op().symbol()).append(' ');
            operand(sb, b.right());
        } else if (e instanceof Expr.Conditional c) {
            operand(sb, c.condition());
            sb.append(" ? ");
            operand(sb, c.whenTrue());
            sb.append(" : ");
            operand(sb, c.whenFalse());
        } else if (e instanceof Expr.In in) {
            operand(sb, in.target());
            sb.append(in.negated() ? " NOT IN (" : " IN (");
            list(sb, in.values());
            sb.append(')');
        } else if (e instanceof Expr.Between bt) {
            operand(sb, bt.target());
            sb.append(bt.negated() ? " NOT BETWEEN " : " BETWEEN ");
            operand(sb, bt.low());
            sb.append(" AND ");
            operand(sb, bt.high());
        } else if (e instanceof Expr.Like l) {
            operand(sb, l.target());
            sb.append(l.negated() ? " NOT LIKE " : " LIKE ");
            operand(sb, l.pattern());
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
        if (n.isInteger()) {
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
