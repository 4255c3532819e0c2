package io.tetradb.core.storage.meta;

/**
 * One metadata entry: its key, value and version. The version is {@link MetaVersion#of(byte[])} of the value, so two
 * engines agree on it without storing anything beside the value, and it changes whenever the value does. Computed
 * when first asked (a read that only wants the value, e.g. a script's body, pays no hash).
 */
public final class MetaEntry {
    private final byte[] key;
    private final byte[] value;
    private long version;

    /** An entry whose version the store keeps ({@link MetaVersion#ABSENT}: computed from the value when asked). */
    public MetaEntry(byte[] key, byte[] value, long version) {
        this.key = key;
        this.value = value;
        this.version = version;
    }

    public static MetaEntry of(byte[] key, byte[] value) {
        return new MetaEntry(key, value, MetaVersion.ABSENT);
    }

    public byte[] key() {
        return key;
    }

    public byte[] value() {
        return value;
    }

    public long version() {
        long v = version;
        if (v == MetaVersion.ABSENT) {
            v = MetaVersion.of(value);
            version = v;
        }
        return v;
    }
}
