package io.tetradb.table.filter;

import io.tetradb.table.model.EdmType;
import io.tetradb.table.model.EdmValue;

import java.time.Instant;
import java.util.Arrays;
import java.util.function.Function;

/**
 * Evaluates a {@link Filter} in memory against named values (the table listing filters on {@code TableName}).
 * Three-valued like the core: a comparison with a missing property or a value of another Edm type is unknown
 * (null), {@code not} of unknown is unknown, and only true matches.
 */
public final class FilterEvaluator {
    private FilterEvaluator() {
    }

    public static boolean matches(Filter f, Function<String, EdmValue> properties) {
        return Boolean.TRUE.equals(eval(f, properties));
    }

    private static Boolean eval(Filter f, Function<String, EdmValue> props) {
        if (f instanceof Filter.Constant c) {
            return c.value();
        } else if (f instanceof Filter.Not n) {
            Boolean v = eval(n.operand(), props);
            return v == null ? null : !v;
        } else if (f instanceof Filter.And a) {
            Boolean l = eval(a.left(), props);
            if (Boolean.FALSE.equals(l)) {
                return false;
            }
            Boolean r = eval(a.right(), props);
            return Boolean.FALSE.equals(r) ? Boolean.FALSE : l == null || r == null ? null : Boolean.TRUE;
        } else if (f instanceof Filter.Or o) {
            Boolean l = eval(o.left(), props);
            if (Boolean.TRUE.equals(l)) {
                return true;
            }
            Boolean r = eval(o.right(), props);
            return Boolean.TRUE.equals(r) ? Boolean.TRUE : l == null || r == null ? null : Boolean.FALSE;
        }
        Filter.Comparison c = (Filter.Comparison) f;
        EdmValue v = props.apply(c.property());
        if (v == null) {
            return null;
        }
        int cmp;
        if (numeric(v) && numeric(c.literal())) { // OData's numeric promotion, as the compiled filter
            cmp = new java.math.BigDecimal(((Number) v.value()).toString())
                    .compareTo(new java.math.BigDecimal(((Number) c.literal().value()).toString()));
        } else if (v.type() != c.literal().type()) {
            return null;
        } else {
            cmp = compare(v, c.literal());
        }
        return switch (c.op()) {
            case EQ -> cmp == 0;
            case NE -> cmp != 0;
            case GT -> cmp > 0;
            case GE -> cmp >= 0;
            case LT -> cmp < 0;
            case LE -> cmp <= 0;
        };
    }

    private static boolean numeric(EdmValue v) {
        return (v.type() == EdmType.INT32 || v.type() == EdmType.INT64
                || v.type() == EdmType.DOUBLE && Double.isFinite((Double) v.value()));
    }

    private static int compare(EdmValue a, EdmValue b) {
        EdmType t = a.type();
        return switch (t) {
            case STRING -> ((String) a.value()).compareTo((String) b.value());
            case INT32 -> Integer.compare((Integer) a.value(), (Integer) b.value());
            case INT64 -> Long.compare((Long) a.value(), (Long) b.value());
            case DOUBLE -> Double.compare((Double) a.value(), (Double) b.value());
            case BOOLEAN -> Boolean.compare((Boolean) a.value(), (Boolean) b.value());
            case DATETIME -> ((Instant) a.value()).compareTo((Instant) b.value());
            case GUID -> a.value().toString().compareTo(b.value().toString());
            case BINARY -> Arrays.compareUnsigned((byte[]) a.value(), (byte[]) b.value());
        };
    }
}
