package io.tetradb.core.query.sql;

import java.util.List;

/** The collection a FROM/JOIN source ranges over. */
public sealed interface FromCollection {
    /**
     * {@code root}, {@code c}, {@code c.children}, {@code c["a-b"][0]}: an identifier (the container name, {@code ROOT},
     * or an alias bound earlier) followed by property names and constant indexes.
     */
    record Path(String root, List<PathSegment> segments) implements FromCollection {
        public Path {
            segments = List.copyOf(segments);
        }
    }

    /** {@code (SELECT ...)} as a source. */
    record Subquery(SqlQuery query) implements FromCollection {
    }
}
