package io.tetradb.document;

import io.tetradb.core.Status;
import io.tetradb.core.StoreException;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The continuation token of a query page: the position of the next result, opaque to clients. Stateless on the
 * server, so it survives restarts and splits (the planner will replace it with sort-key and EPK positions).
 */
final class QueryContinuation {
    private static final String PREFIX = "tetra1:";

    private QueryContinuation() {
    }

    static String token(int offset) {
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString((PREFIX + offset).getBytes(StandardCharsets.US_ASCII));
    }

    /** The offset a token points at (0 for none); 400 for a token this server did not make. */
    static int offset(String token, int resultCount) {
        if (token == null) {
            return 0;
        }
        try {
            String text = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.US_ASCII);
            if (!text.startsWith(PREFIX)) {
                throw new IllegalArgumentException();
            }
            int offset = Integer.parseInt(text.substring(PREFIX.length()));
            if (offset < 0) {
                throw new IllegalArgumentException();
            }
            return Math.min(offset, resultCount);
        } catch (IllegalArgumentException e) {
            throw new StoreException(Status.BAD_REQUEST, "invalid continuation token");
        }
    }
}
