package io.tetradb.mongo.query;

import io.tetradb.mongo.command.MongoError;

import java.util.regex.Pattern;

/** MongoDB's regex option letters as {@link Pattern} flags, for the query operator and the aggregation operator. */
public final class RegexOptions {
    private RegexOptions() {
    }

    /**
     * The flags of {@code options}; BadValue (2) for a letter outside {@code accepted}, its message starting with
     * {@code context}.
     */
    public static int flags(String options, String accepted, String context) {
        int flags = 0;
        for (char c : options.toCharArray()) {
            if (accepted.indexOf(c) < 0) {
                throw MongoError.badValue(context + "invalid flag in regex options: " + c);
            }
            flags |= switch (c) {
                case 'i' -> Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
                case 'm' -> Pattern.MULTILINE;
                case 's' -> Pattern.DOTALL;
                case 'x' -> Pattern.COMMENTS;
                default -> 0; // 'u': Java's patterns are Unicode already
            };
        }
        return flags;
    }
}
