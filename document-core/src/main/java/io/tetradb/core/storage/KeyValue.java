package io.tetradb.core.storage;

/** One entry returned by a scan. */
public record KeyValue(byte[] key, byte[] value) {
}
