package io.tetradb.core.value;

import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;

import java.math.BigDecimal;

/**
 * An IEEE 754-2008 decimal128 (BSON Decimal128): a {@link DecimalNode} whose value fits 34 digits and exponent
 * -6176..6111, kept with its scale ({@code 1.50} stays {@code 1.50}, as MongoDB keeps it). Being a DecimalNode, the
 * query engine, {@link ValueOrder} and {@link IndexKeyEncoding} already treat it as a number, compared by value
 * with every other numeric type. JSON view: the decimal number. Its NaN and infinities are {@link Special} nodes
 * (double nodes, so they order as the double NaN / infinities do). A decimal128 negative zero is zero (BigDecimal
 * has no sign for zero).
 */
public final class Decimal128Node extends DecimalNode {
    private static final long serialVersionUID = 1L;
    public static final int MAX_DIGITS = 34;
    public static final int MIN_EXPONENT = -6176;
    public static final int MAX_EXPONENT = 6111;

    private Decimal128Node(BigDecimal v) {
        super(v);
    }

    public static Decimal128Node of(BigDecimal v) {
        if (v.precision() > MAX_DIGITS) {
            throw new IllegalArgumentException("a Decimal128 has at most 34 digits: " + v);
        }
        long exponent = -(long) v.scale();
        if (exponent < MIN_EXPONENT || exponent > MAX_EXPONENT) {
            throw new IllegalArgumentException("Decimal128 exponent out of range: " + v);
        }
        return new Decimal128Node(v);
    }

    public static Special nan() {
        return Special.NAN;
    }

    public static Special positiveInfinity() {
        return Special.POSITIVE_INFINITY;
    }

    public static Special negativeInfinity() {
        return Special.NEGATIVE_INFINITY;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Decimal128Node d && d._value.equals(_value);
    }

    @Override
    public int hashCode() {
        return _value.hashCode();
    }

    /** Decimal128 NaN, +Infinity or -Infinity. */
    public static final class Special extends DoubleNode {
        private static final long serialVersionUID = 1L;
        static final Special NAN = new Special(Double.NaN);
        static final Special POSITIVE_INFINITY = new Special(Double.POSITIVE_INFINITY);
        static final Special NEGATIVE_INFINITY = new Special(Double.NEGATIVE_INFINITY);

        private Special(double v) {
            super(v);
        }

        public static Special of(double v) {
            if (Double.isNaN(v)) {
                return NAN;
            }
            if (v == Double.POSITIVE_INFINITY) {
                return POSITIVE_INFINITY;
            }
            if (v == Double.NEGATIVE_INFINITY) {
                return NEGATIVE_INFINITY;
            }
            throw new IllegalArgumentException("not a Decimal128 special value: " + v);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Special s && Double.compare(s._value, _value) == 0;
        }

        @Override
        public int hashCode() {
            return Double.hashCode(_value) + 1;
        }
    }
}
