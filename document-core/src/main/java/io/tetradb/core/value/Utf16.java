package io.tetradb.core.value;

/**
 * Checks on UTF-16 text that keys depend on: stored keys hold strings as UTF-8, which has no form for an unpaired
 * surrogate (Java writes {@code ?} for it), so two strings that differ only there would share a key.
 */
public final class Utf16 {
    private Utf16() {
    }

    /** The index of the first surrogate without its partner in {@code s}, or -1 when {@code s} is valid UTF-16. */
    public static int unpairedSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                } else {
                    return i;
                }
            } else if (Character.isLowSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }
}
