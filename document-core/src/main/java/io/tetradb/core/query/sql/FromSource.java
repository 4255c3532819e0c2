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

    /**
     * A subquery source written without an alias ({@code JOIN (SELECT VALUE t FROM t IN p.tags WHERE ...)}, as the
     * Cosmos subquery page writes it) binds its rows to this name, which no query can reference.
     */
    public static final String UNNAMED_SUBQUERY = "$subquery";

    /**
     * The written alias, else the inferred one ({@link #UNNAMED_SUBQUERY} for a subquery), else {@code null} (a path
     * ending in a numeric index).
     */
    public String effectiveAlias() {
        if (alias != null) {
            return alias;
        }
        if (collection instanceof FromCollection.Subquery) {
            return UNNAMED_SUBQUERY;
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
