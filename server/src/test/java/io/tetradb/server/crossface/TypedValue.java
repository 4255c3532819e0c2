package io.tetradb.server.crossface;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A value of the core's typed value model as the cross-face property test draws it (one record per core type, so
 * each face's documented mapping — document-core/README.md, "Cross-face views" — is a switch over these).
 */
sealed interface TypedValue {
    record Str(String v) implements TypedValue { }

    record Bool(boolean v) implements TypedValue { }

    record Null() implements TypedValue { }

    record Int32(int v) implements TypedValue { }

    record Int64(long v) implements TypedValue { }

    record Dbl(double v) implements TypedValue { }

    record Flt(float v) implements TypedValue { }

    /** A Decimal128 (≤ 34 digits, its scale kept). */
    record Dec(BigDecimal v) implements TypedValue { }

    /** A DateTime: 100 ns ticks since 1970 UTC and an optional offset (seconds; null: none). */
    record DateTime(long ticks, Integer offsetSeconds) implements TypedValue { }

    record Binary(int subtype, byte[] bytes) implements TypedValue { }

    record Guid(UUID v) implements TypedValue { }

    record Oid(String hex) implements TypedValue { }

    /** Mongo's Timestamp: seconds and increment (unsigned 32 bits each). */
    record Ts(long seconds, long increment) implements TypedValue { }

    record Arr(List<TypedValue> items) implements TypedValue { }

    record Obj(Map<String, TypedValue> fields) implements TypedValue { }
}
