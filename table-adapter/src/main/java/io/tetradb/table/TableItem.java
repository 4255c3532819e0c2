package io.tetradb.table;

/** A table, as listed. */
public record TableItem(String name) {
    public String getName() {
        return name;
    }
}
