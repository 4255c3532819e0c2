package io.tetradb.cassandra.store;

/** A change record of a logical partition: its lsn (order within the partition) and the core's record bytes. */
public record Change(long lsn, byte[] record) {
}
