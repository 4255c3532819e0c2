package io.tetradb.core.storage.partition;

/** An item as a scan returns it: its id and stored bytes. */
public record StoredItem(String id, byte[] value) {
}
