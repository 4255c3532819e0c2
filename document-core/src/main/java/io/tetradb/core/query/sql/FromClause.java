package io.tetradb.core.query.sql;

import java.util.List;

/** {@code FROM source [JOIN source]...}. */
public record FromClause(FromSource source, List<JoinClause> joins) {
    public FromClause {
        if (source == null) {
            throw new IllegalArgumentException("source");
        }
        joins = joins == null ? List.of() : List.copyOf(joins);
    }

    @Override
    public String toString() {
        return SqlUnparser.unparse(this);
    }
}
