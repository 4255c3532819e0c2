package io.tetradb.table;

import java.util.List;

/** A query: an OData {@code $filter} (null: every entity), a page size {@code top} (≤ 1000) and a {@code $select}. */
public final class ListEntitiesOptions {
    private String filter;
    private Integer top;
    private List<String> select;

    public String getFilter() {
        return filter;
    }

    public ListEntitiesOptions setFilter(String filter) {
        this.filter = filter;
        return this;
    }

    public Integer getTop() {
        return top;
    }

    public ListEntitiesOptions setTop(Integer top) {
        this.top = top;
        return this;
    }

    public List<String> getSelect() {
        return select;
    }

    public ListEntitiesOptions setSelect(List<String> select) {
        this.select = select == null ? null : List.copyOf(select);
        return this;
    }
}
