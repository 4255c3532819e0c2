package io.tetradb.table.model;

import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import java.util.UUID;

/**
 * One typed property value. The Java value per type: STRING {@link String}, INT32 {@link Integer}, INT64
 * {@link Long}, DOUBLE {@link Double} (NaN and infinities allowed), BOOLEAN {@link Boolean}, DATETIME {@link Instant}
 * (UTC, whole 100 ns ticks), GUID {@link UUID}, BINARY {@code byte[]}.
 */
public record EdmValue(EdmType type, Object value) {
    public EdmValue {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(value, "value");
        Class<?> expected = switch (type) {
            case STRING -> String.class;
            case INT32 -> Integer.class;
            case INT64 -> Long.class;
            case DOUBLE -> Double.class;
            case BOOLEAN -> Boolean.class;
            case DATETIME -> Instant.class;
            case GUID -> UUID.class;
            case BINARY -> byte[].class;
        };
        if (!expected.isInstance(value)) {
            throw new IllegalArgumentException(type + " needs a " + expected.getSimpleName() + ", got "
                    + value.getClass().getSimpleName());
        }
        if (value instanceof Instant t && t.getNano() % 100 != 0) {
            throw TableException.badValue("a DateTime has a precision of 100 ns: " + t);
        }
    }

    public static EdmValue string(String s) {
        return new EdmValue(EdmType.STRING, s);
    }

    public static EdmValue int32(int v) {
        return new EdmValue(EdmType.INT32, v);
    }

    public static EdmValue int64(long v) {
        return new EdmValue(EdmType.INT64, v);
    }

    public static EdmValue dbl(double v) {
        return new EdmValue(EdmType.DOUBLE, v);
    }

    public static EdmValue bool(boolean v) {
        return new EdmValue(EdmType.BOOLEAN, v);
    }

    public static EdmValue dateTime(Instant v) {
        return new EdmValue(EdmType.DATETIME, v);
    }

    public static EdmValue guid(UUID v) {
        return new EdmValue(EdmType.GUID, v);
    }

    public static EdmValue binary(byte[] v) {
        return new EdmValue(EdmType.BINARY, v.clone());
    }

    /** The value's text as the REST protocol writes it in JSON strings (Int64, DateTime, Guid, Binary, NaN...). */
    public String wireText() {
        return switch (type) {
            case DATETIME -> DateTimes.format((Instant) value);
            case BINARY -> Base64.getEncoder().encodeToString((byte[]) value);
            case DOUBLE -> DoubleText.of((Double) value);
            default -> value.toString();
        };
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EdmValue v && v.type == type
                && (type == EdmType.BINARY ? Arrays.equals((byte[]) value, (byte[]) v.value) : value.equals(v.value));
    }

    @Override
    public int hashCode() {
        return type == EdmType.BINARY ? Arrays.hashCode((byte[]) value) : value.hashCode();
    }

    @Override
    public String toString() {
        return type.odataName() + "(" + wireText() + ")";
    }

    /** Doubles as the REST protocol spells non-finite ones. */
    static final class DoubleText {
        private DoubleText() {
        }

        static String of(double d) {
            if (Double.isNaN(d)) {
                return "NaN";
            } else if (d == Double.POSITIVE_INFINITY) {
                return "Infinity";
            } else if (d == Double.NEGATIVE_INFINITY) {
                return "-Infinity";
            }
            return Double.toString(d);
        }
    }
}
