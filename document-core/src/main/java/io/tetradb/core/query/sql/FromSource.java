package io.tetradb.core.query.sql;

/**
 * One source of a FROM or JOIN: either {@code collection [[AS] alias]} or, when {@code iterate}, the array iterator
 * {@code alias IN collection}. {@code alias} is {@code null} when not written; {@link #effectiveAlias()} then applies
 * the Cosmos inference rule (the container name, or the last property name of the path).
 */
public record FromSource(FromCollection collection, String alias, boolean iterate) {
    public FromSource {
        if (collection == null) {
            throw new IllegalArgumentException("collection");
        }
        if (iterate && alias == null) {
            throw new IllegalArgumentException("an array iterator needs an alias");
        }
    }

    /** The written alias, else the inferred one, else {@code null} (a numeric index or a subquery without alias). */
    public String effectiveAlias() {
        if (alias != null) {
            return alias;
        }
        if (collection instanceof FromCollection.Path p) {
            if (p.segments().isEmpty()) {
                return p.root();
            }
            if (p.segments().get(p.segments().size() - 1) instanceof PathSegment.Property prop) {
                return prop.name();
            }
        }
        return null;
    }
}
