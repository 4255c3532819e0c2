package io.tetradb.document;

import java.util.Objects;

/**
 * One path of a composite index, as in azure-cosmos: a property path ({@code /name}, {@code /location/city}) and its
 * order (ascending unless set).
 */
public final class CompositePath {
    private String path;
    private CompositePathSortOrder order = CompositePathSortOrder.ASCENDING;

    public String getPath() {
        return path;
    }

    public CompositePath setPath(String path) {
        this.path = path;
        return this;
    }

    public CompositePathSortOrder getOrder() {
        return order;
    }

    /** null means ascending, Cosmos' default. */
    public CompositePath setOrder(CompositePathSortOrder order) {
        this.order = order == null ? CompositePathSortOrder.ASCENDING : order;
        return this;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CompositePath c && Objects.equals(path, c.path) && order == c.order;
    }

    @Override
    public int hashCode() {
        return Objects.hash(path, order);
    }

    @Override
    public String toString() {
        return path + " " + order;
    }
}
