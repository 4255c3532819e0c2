package io.tetradb.table.store;

/**
 * RowKey ↔ core item id. The two refuse the same characters ({@code / \ ? #}), but a RowKey may be empty and an id
 * may not: the empty RowKey is stored as the id {@code "\u0000"}. No RowKey holds a control character, so that id is
 * free, and it sorts below every other id exactly as {@code ""} sorts below every other RowKey — the encoding keeps
 * the order, so RowKey ranges stay id ranges.
 */
public final class RowKeys {
    static final String EMPTY_ID = "\u0000";

    private RowKeys() {
    }

    public static String toId(String rowKey) {
        return rowKey.isEmpty() ? EMPTY_ID : rowKey;
    }

    public static String fromId(String id) {
        return EMPTY_ID.equals(id) ? "" : id;
    }
}
