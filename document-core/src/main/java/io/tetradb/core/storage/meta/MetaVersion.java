package io.tetradb.core.storage.meta;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The version of a metadata entry: the first 8 bytes of the SHA-256 of its value (never 0, which means absent). A
 * compare-and-set on it is a compare-and-set on the value the caller read, without a version number stored beside the
 * value (so the embedded META layout stays as it was). A value written back unchanged keeps its version; that is
 * harmless, since whoever decided from that value decided from the state that is there.
 */
public final class MetaVersion {
    /** The version of an absent entry. */
    public static final long ABSENT = 0;

    private MetaVersion() {
    }

    public static long of(byte[] value) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(value);
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = (v << 8) | (d[i] & 0xFF);
            }
            return v == ABSENT ? 1 : v;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
