package io.tetradb.core.storage.meta;

/**
 * One metadata entry: its key, value and version. The version is {@link MetaVersion#of(byte[])} of the value, so two
 * engines agree on it without storing anything beside the value, and it changes whenever the value does.
 */
public record MetaEntry(byte[] key, byte[] value, long version) {
    public static MetaEntry of(byte[] key, byte[] value) {
        return new MetaEntry(key, value, MetaVersion.of(value));
    }
}
