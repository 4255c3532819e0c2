package io.tetradb.core.query.sql;

import java.util.List;

/** What a SELECT projects: {@code *}, {@code VALUE expr} or a list of {@code expr [AS alias]}. */
public sealed interface Projection {
    /** {@code SELECT *}. */
    record Star() implements Projection {
    }

    /** {@code SELECT VALUE expr}. */
    record Value(Expr expr) implements Projection {
    }

    /** {@code SELECT a, b AS x, ...}. */
    record Items(List<SelectItem> items) implements Projection {
        public Items {
            items = List.copyOf(items);
            if (items.isEmpty()) {
                throw new IllegalArgumentException("empty select list");
            }
        }
    }

    /** One select-list entry; {@code alias} is {@code null} unless written with {@code AS}. */
    record SelectItem(Expr expr, String alias) {
    }
}
