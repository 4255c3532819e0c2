package io.tetradb.document;

/** Whether a container keeps indexes. */
public enum IndexingMode {
    CONSISTENT, NONE
}
