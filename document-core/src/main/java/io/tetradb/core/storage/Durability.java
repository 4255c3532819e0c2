package io.tetradb.core.storage;

/** When a write is acknowledged. */
public enum Durability {
    /** After its write-ahead-log record is fsynced; concurrent committers share one fsync (group commit). */
    SYNC,
    /** After it is in the write-ahead log; the log is fsynced in the background every few milliseconds. */
    ASYNC
}
