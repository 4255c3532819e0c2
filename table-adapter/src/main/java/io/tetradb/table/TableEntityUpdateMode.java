package io.tetradb.table;

/** How an update treats the stored entity's other properties: keep them (MERGE) or drop them (REPLACE). */
public enum TableEntityUpdateMode {
    MERGE, REPLACE
}
