package io.tetradb.core.item;

import java.util.Set;

/**
 * The names of the system properties the store keeps after an item's user fields ({@code _rid _self _etag
 * _attachments _ts}): a user item holding one at its top level has it dropped when stored. Here (beside the TB1
 * writers) so that a writer can note, as it writes a top-level name, whether it is one of them (mongo-encode).
 */
public final class SystemNames {
    public static final Set<String> NAMES = Set.of("_rid", "_self", "_etag", "_attachments", "_ts");

    private SystemNames() {
    }

    /** Whether {@code name} is a system property's name. */
    public static boolean is(String name) {
        // every one starts with '_' and has 3 to 12 chars: most names are answered without a set lookup
        int n = name.length();
        return n >= 3 && n <= 12 && name.charAt(0) == '_' && NAMES.contains(name);
    }

    /** Whether the UTF-8 bytes {@code utf8[off, off+n)} are a system property's name. */
    public static boolean is(byte[] utf8, int off, int n) {
        if (n < 3 || n > 12 || utf8[off] != '_') {
            return false;
        }
        for (byte[] name : BYTES) {
            if (java.util.Arrays.equals(name, 0, name.length, utf8, off, off + n)) {
                return true;
            }
        }
        return false;
    }

    private static final byte[][] BYTES = NAMES.stream()
            .map(s -> s.getBytes(java.nio.charset.StandardCharsets.UTF_8)).toArray(byte[][]::new);
}
