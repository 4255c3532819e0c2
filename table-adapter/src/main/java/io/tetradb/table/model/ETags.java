package io.tetradb.table.model;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * Entity ETags in Azure Table storage's form, {@code W/"datetime'2026-11-25T21%3A33%3A13.1234567Z'"}: the weak ETag
 * of the entity's {@code Timestamp} (percent-encoded). Every write gets a Timestamp later than any before it in the
 * process ({@link DateTimes#nextWriteTime()}), so a Timestamp names one version of an entity.
 */
public final class ETags {
    private static final String PREFIX = "W/\"datetime'";
    private static final String SUFFIX = "'\"";

    private ETags() {
    }

    /** The ETag of an entity last written at {@code timestamp}. */
    public static String of(Instant timestamp) {
        String text = DateTimes.format(timestamp);
        // the usual form holds digits, '-', 'T', ':', '.', 'Z': percent-encoding it only turns ':' into %3A
        String encoded = text.length() == 28 && text.charAt(0) != '+'
                ? text.replace(":", "%3A") : URLEncoder.encode(text, StandardCharsets.UTF_8);
        return PREFIX + encoded + SUFFIX;
    }

    /**
     * What an {@code If-Match} header asks for: null for none or {@code *} (any version), else the Timestamp it names
     * ({@link Instant#MIN} for a weak ETag of another form, which no entity has: 412). A strong or malformed ETag is
     * 400 {@code InvalidInput}, as Azure answers (it requires weak ETags).
     */
    public static Instant condition(String ifMatch) {
        if (ifMatch == null) {
            return null;
        }
        String s = ifMatch.trim();
        if (s.equals("*")) {
            return null;
        }
        if (!(s.startsWith("W/\"") || s.startsWith("w/\"")) || !s.endsWith("\"") || s.length() < 4
                || s.substring(3, s.length() - 1).replace("\\\"", "").contains("\"")) {
            throw new TableException(400, "InvalidInput", "The If-Match header '" + abbreviate(s)
                    + "' is not a weak ETag (W/\"...\") or *.");
        }
        if (!s.startsWith(PREFIX) || !s.endsWith(SUFFIX) || s.length() < PREFIX.length() + SUFFIX.length()) {
            return Instant.MIN;
        }
        try {
            String text = URLDecoder.decode(s.substring(PREFIX.length(), s.length() - SUFFIX.length()),
                    StandardCharsets.UTF_8);
            return DateTimes.parse(text);
        } catch (RuntimeException notADate) {
            return Instant.MIN;
        }
    }

    private static String abbreviate(String s) {
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }
}
