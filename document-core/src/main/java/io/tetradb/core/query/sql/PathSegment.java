package io.tetradb.core.query.sql;

/** One step of a FROM path. */
public sealed interface PathSegment {
    /** {@code .name}, or {@code ["name"]} when {@code quoted}. */
    record Property(String name, boolean quoted) implements PathSegment {
    }

    /** {@code [n]}. */
    record Index(long index) implements PathSegment {
    }
}
