package io.tetradb.core.ttl;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;

/** Cosmos DB's rules for a container's {@code defaultTtl} and an item's {@code ttl}. */
public final class TimeToLive {
    /** The largest time to live, in seconds (an Int32, about 68 years). */
    public static final long MAX_SECONDS = Integer.MAX_VALUE;

    private TimeToLive() {
    }

    /** null (off), -1 (on, items do not expire unless they say so) or 1..2147483647 seconds; 400 otherwise. */
    public static void validateDefault(Integer defaultTtl) {
        if (defaultTtl != null && (defaultTtl == 0 || defaultTtl < -1)) {
            throw new StoreException(Status.BAD_REQUEST, "The input defaultTtl '" + defaultTtl + "' is invalid. "
                    + "Ensure to provide a nonzero positive integer less than or equal to '2147483647', or '-1' "
                    + "which means never expire.");
        }
    }

    /**
     * An item's {@code ttl}: -1 or 1..2147483647, with Cosmos DB's message otherwise. Checked only when the
     * container has time to live on: with it off Cosmos DB disregards the property, and the other faces store
     * documents whose {@code ttl} field means something else to them (a Mongo document may hold {@code ttl: 0}).
     */
    public static void validateItem(JsonNode item, Integer defaultTtl) {
        if (defaultTtl == null || item == null) {
            return;
        }
        JsonNode t = item.get("ttl");
        if (t == null || validItemTtl(t)) {
            return;
        }
        throw new StoreException(Status.BAD_REQUEST, "The input ttl '" + (t.isTextual() ? t.textValue() : t.toString())
                + "' is invalid. Ensure to provide a nonzero positive integer less than or equal to '2147483647', "
                + "or '-1' which means never expire.");
    }

    static boolean validItemTtl(JsonNode t) {
        if (!t.isNumber()) {
            return false;
        }
        double d = t.doubleValue();
        return d == Math.rint(d) && (d == -1 || (d >= 1 && d <= MAX_SECONDS));
    }
}
