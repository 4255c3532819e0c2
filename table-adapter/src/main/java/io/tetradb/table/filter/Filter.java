package io.tetradb.table.filter;

import io.tetradb.table.model.EdmValue;

/** A parsed OData {@code $filter} of Azure Tables: comparisons of a property with a typed literal, and/or/not. */
public sealed interface Filter {

    /** The comparison operators of the Tables subset. */
    enum Op {
        EQ, NE, GT, GE, LT, LE;

        /** The operator with its operands swapped ({@code 5 lt Age} is {@code Age gt 5}). */
        Op flipped() {
            return switch (this) {
                case GT -> LT;
                case GE -> LE;
                case LT -> GT;
                case LE -> GE;
                default -> this;
            };
        }
    }

    /** {@code property op literal}. */
    record Comparison(String property, Op op, EdmValue literal) implements Filter {
    }

    record And(Filter left, Filter right) implements Filter {
    }

    record Or(Filter left, Filter right) implements Filter {
    }

    record Not(Filter operand) implements Filter {
    }

    /** A literal {@code true} or {@code false} standing alone. */
    record Constant(boolean value) implements Filter {
    }
}
