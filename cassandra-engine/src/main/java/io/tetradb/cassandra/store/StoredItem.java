package io.tetradb.cassandra.store;

/** An item as a scan returns it. */
public record StoredItem(String id, byte[] value) {
}
