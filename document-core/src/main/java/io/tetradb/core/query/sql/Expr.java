package io.tetradb.core.query.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A Cosmos SQL scalar expression. Every node is an immutable record; {@link #toString()} of each unparses it.
 * The tree records no parentheses: grouping is its shape.
 */
public sealed interface Expr {

    /**
     * The expressions directly inside {@code e} that belong to its own query scope, in source order: none for a
     * literal, identifier or parameter, and none for a subquery, whose query is a scope of its own. For walks that
     * check a select list (aggregate calls, GROUP BY references) without each repeating the tree's shape.
     */
    static List<Expr> children(Expr e) {
        if (e instanceof Binary b) {
            return List.of(b.left(), b.right());
        } else if (e instanceof Unary u) {
            return List.of(u.operand());
        } else if (e instanceof Conditional c) {
            return List.of(c.condition(), c.whenTrue(), c.whenFalse());
        } else if (e instanceof In in) {
            List<Expr> out = new ArrayList<>(in.values().size() + 1);
            out.add(in.target());
            out.addAll(in.values());
            return out;
        } else if (e instanceof Between bt) {
            return List.of(bt.target(), bt.low(), bt.high());
        } else if (e instanceof Like l) {
            return List.of(l.target(), l.pattern());
        } else if (e instanceof ObjectLiteral o) {
            return o.properties().stream().map(ObjectProperty::value).toList();
        } else if (e instanceof ArrayLiteral a) {
            return a.elements();
        } else if (e instanceof PropertyAccess pa) {
            return List.of(pa.target());
        } else if (e instanceof IndexAccess ia) {
            return List.of(ia.target(), ia.index());
        } else if (e instanceof FunctionCall f) {
            return f.args();
        }
        return List.of();
    }

    // ---- literals -----------------------------------------------------------------------------------------------

    /** {@code null}. */
    record NullLiteral() implements Expr {
        @Override
        public String toString() {
            return SqlUnparser.unparse(this);
        }
    }

    /** {@code undefined}. */
    record UndefinedLiteral() implements Expr {
        @Override
        public String toString() {
            return SqlUnparser.unparse(this);
        }
    }

    /** {@code true} / {@code false}. */
    record BooleanLiteral(boolean value) implements Expr {
        @Override
        public String toString() {
            return SqlUnparser.unparse(this);
        }
    }

    /**
     * A number (decimal, scientific or {@code 0x} hexadecimal in the text), an IEEE-754 double as in Cosmos;
     * {@code exact} is the 64-bit integer a whole-number literal denotes (null otherwise), so that a literal such as
     * {@code 9223372036854775807} keeps its value (is-integer: {@code IS_INTEGER(9223372036854775807)} is true).
     */
    record NumberLiteral(double value, Long exact) implements Expr {
        /** A literal of {@code value}, exact when it is a whole number a double holds exactly. */
        public NumberLiteral(double value) {
            this(value, value == Math.rint(value) && Math.abs(value) <= 9.007199254740992E15 ? (long) value : null);
        }

        /** Whether this is a whole number that a long holds exactly (TOP, OFFSET, LIMIT, indexes). */
        public boolean isInteger() {
            return value == Math.rint(value) && Math.abs(value) <= 9.007199254740992E15;
        }

        @Override
        public String toString() {
            return SqlUnparser.unparse(this);
        }
    }

    /** A string in single or double quotes, escapes resolved. */
    record StringLiteral(String value) implements Expr {
        public StringLiteral {
            if (value == null) {
                throw new IllegalArgumentException("value");
            }
        }

        @Override
        public String toString() {
            return SqlUnparser.unparse(this);
        }
    }

    /** {@code [a, b, ...]}. */
    record ArrayLiteral(List<Expr> elements) implements Expr {
        public ArrayLiteral {
            elements = List.copyOf(elements);
        }

        @Override
        public String toString() {
            return SqlUnparser.unparse(this);
        }
    }

    /** {@code {"a": x, b: 1}}. */
    record ObjectLiteral(List<ObjectProperty> properties) implements Expr {
        public ObjectLiteral {
            properties = List.copyOf(properties);
        }

        @Override
        public String toString() {
            return SqlUnparser.unparse(this);
        }
    }

    /** One {@code name: value} of an object literal. */
    record ObjectProperty(String name, Expr value) {
    }

    // ---- references ---------------------------------------------------------------------------------------------

    /** A bare identifier: a FROM alias (or the container name / {@code root} when not aliased). */
    record Identifier(String name) implements Expr {
        @Override
        public String toString() {
            return SqlUnparser.unparse(this);
        }
    }

    /** {@code @name}; {@code name} is without the {@code @}. */
    record Parameter(String name) implements Expr {
        @Override
        public String toString() {
            return SqlUnparser.unparse(this);
        }
    }

    /** {@code target.name}. */
    record PropertyAccess(Expr target, String name) implements Expr {
        @Override
        public String toString() {
            return SqlUnparser.unparse(this);
        }
    }

    /** {@code target[index]}: {@code c["a-b"]}, {@code c.arr[0]}, {@code c.arr[@i]}. */
    record IndexAccess(Expr target, Expr index) implements Expr {
        @Override
        public String toString() {
            return SqlUnparser.unparse(this);
        }
    }

    // ---- operators ----------------------------------------------------------------------------------------------

    /** Prefix operators. */
    enum UnaryOp {
        NEGATE("-"), PLUS("+"), BITWISE_NOT("~"), NOT("NOT");

        private final String symbol;

        UnaryOp(String symbol) {
            this.symbol = symbol;
        }

        public String symbol() {
            return symbol;
        }
    }

    /** Binary operators ({@code <>} parses as {@link #NOT_EQUAL}). */
    enum BinaryOp {
        MULTIPLY("*"), DIVIDE("/"), MODULO("%"), ADD("+"), SUBTRACT("-"),
        LEFT_SHIFT("<<"), RIGHT_SHIFT(">>"), ZERO_FILL_RIGHT_SHIFT(">>>"),
        LESS("<"), LESS_OR_EQUAL("<="), GREATER(">"), GREATER_OR_EQUAL(">="),
        EQUAL("="), NOT_EQUAL("!="),
        BITWISE_AND("&"), BITWISE_XOR("^"), BITWISE_OR("|"), STRING_CONCAT("||"),
        AND("AND"), OR("OR"), COALESCE("??");

        private final String symbol;

        BinaryOp(String symbol) {
            this.symbol = symbol;
        }

        public String symbol() {
            return symbol;
        }
    }

    record Unary(UnaryOp op, Expr operand) implements Expr {
        @Override
        public String toString() {
            return SqlUnparser.unparse(this);
        }
    }

    /**
     * {@code left op right}. Left-associative chains ({@code a OR b OR c ...}) are deep along {@code left}, so
     * {@link #equals} and {@link #hashCode} walk that spine iteratively rather than recursively.
     */
    record Binary(BinaryOp op, Expr left, Expr right) implements Expr {
        @Override
        public boolean equals(Object o) {
            Object a = this;
            Object b = o;
            while (a instanceof Binary x && b instanceof Binary y) {
                if (x == y) {
                    return true;
                }
                if (x.op != y.op || !java.util.Objects.equals(x.right, y.right)) {
                    return false;
                }
                a = x.left;
                b = y.left;
            }
            if (a instanceof Binary || b instanceof Binary) {
                return false;
            }
            return java.util.Objects.equals(a, b);
        }

        @Override
        public int hashCode() {
            int h = 17;
            Expr e = this;
            while (e instanceof Binary x) {
                h = 31 * (31 * h + x.op.ordinal()) + java.util.Objects.hashCode(x.right);
                e = x.left;
            }
            return 31 * h + java.util.Objects.hashCode(e);
        }

        @Override
        public String toString() {
            return SqlUnparser.unparse(this);
        }
    }

    /** {@code condition ? whenTrue : whenFalse}. */
    record Conditional(Expr condition, Expr whenTrue, Expr whenFalse) implements Expr {
        @Override
        public String toString() {
            return SqlUnparser.unparse(this);
        }
    }

    /** {@code target [NOT] IN (v1, v2, ...)}. */
    record In(Expr target, List<Expr> values, boolean negated) implements Expr {
        public In {
            values = List.copyOf(values);
        }

        @Override
        public String toString() {
            return SqlUnparser.unparse(this);
        }
    }

    /** {@code target [NOT] BETWEEN low AND high}. */
    record Between(Expr target, Expr low, Expr high, boolean negated) implements Expr {
        @Override
        public String toString() {
            return SqlUnparser.unparse(this);
        }
    }

    /** {@code target [NOT] LIKE pattern [ESCAPE 'c']}; {@code escape} is {@code null} when absent. */
    record Like(Expr target, Expr pattern, String escape, boolean negated) implements Expr {
        @Override
        public String toString() {
            return SqlUnparser.unparse(this);
        }
    }

    // ---- calls and subqueries -----------------------------------------------------------------------------------

    /**
     * {@code F(args)} or {@code udf.F(args)}. {@code name} is kept as written; built-in names are case-insensitive,
     * so compare with {@link #normalizedName()}. UDF names are case-sensitive in Cosmos.
     */
    record FunctionCall(String name, boolean udf, List<Expr> args) implements Expr {
        public FunctionCall {
            args = List.copyOf(args);
        }

        /** The name upper-cased (ROOT locale): {@code StartsWith} → {@code STARTSWITH}. */
        public String normalizedName() {
            return name.toUpperCase(Locale.ROOT);
        }

        @Override
        public String toString() {
            return SqlUnparser.unparse(this);
        }
    }

    /** The kinds of subquery expression. */
    enum SubqueryKind {
        /** {@code (SELECT ...)}: a scalar subquery. */
        SCALAR,
        /** {@code EXISTS(SELECT ...)}. */
        EXISTS,
        /** {@code ARRAY(SELECT ...)}. */
        ARRAY
    }

    record Subquery(SubqueryKind kind, SqlQuery query) implements Expr {
        @Override
        public String toString() {
            return SqlUnparser.unparse(this);
        }
    }
}
