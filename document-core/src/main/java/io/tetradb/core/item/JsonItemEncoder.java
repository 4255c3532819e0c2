package io.tetradb.core.item;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.util.Set;

/**
 * Encodes a JSON object straight from a Jackson parser's tokens into TB1 (no tree): the bytes are those
 * {@link BinaryItemWriter} writes for the tree Jackson's tree reader builds from the same text (integers as Int32,
 * Int64 or BigInteger by size, fractions as doubles), with the object's top-level system properties left out as the
 * store leaves them out. A repeated name raises {@link BinaryItemStreamWriter.DuplicateFieldException} (a tree keeps
 * the last value: callers fall back to their tree).
 */
public final class JsonItemEncoder {
    /** {@link #encode} flag: a top-level system property ({@code _rid _self _etag _attachments _ts}) was left out. */
    public static final int DROPPED_SYSTEM_PROPERTY = 1;
    /** {@link #encode} flag: a number is stored as other than its text reads (an integer beyond 64 bits, an overflow). */
    public static final int CHANGED_NUMBER = 2;

    private static final Set<String> SYSTEM = Set.of("_rid", "_self", "_etag", "_attachments", "_ts");

    private JsonItemEncoder() {
    }

    /**
     * Writes the object whose {@code START_OBJECT} is the parser's current token into {@code w} (reset first) and
     * leaves the parser on its {@code END_OBJECT}; returns the flags above.
     */
    public static int encode(JsonParser p, BinaryItemStreamWriter w) throws IOException {
        w.reset();
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw new IllegalArgumentException("not at an object");
        }
        return object(p, w, true);
    }

    private static int object(JsonParser p, BinaryItemStreamWriter w, boolean root) throws IOException {
        int flags = 0;
        w.startObject();
        for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
            if (t != JsonToken.FIELD_NAME) {
                throw new com.fasterxml.jackson.core.JsonParseException(p, "unexpected " + t);
            }
            String name = p.currentName();
            JsonToken v = p.nextToken();
            if (root && SYSTEM.contains(name)) {
                p.skipChildren();
                flags |= DROPPED_SYSTEM_PROPERTY;
                continue;
            }
            w.name(name);
            flags |= value(p, v, w);
        }
        w.endObject();
        return flags;
    }

    private static int value(JsonParser p, JsonToken token, BinaryItemStreamWriter w) throws IOException {
        if (token == null) {
            throw new com.fasterxml.jackson.core.io.JsonEOFException(p, null, "it ends inside the item");
        }
        switch (token) {
            case START_OBJECT:
                return object(p, w, false);
            case START_ARRAY: {
                int flags = 0;
                w.startArray();
                for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                    flags |= value(p, t, w);
                }
                w.endArray();
                return flags;
            }
            case VALUE_STRING:
                w.string(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
                return 0;
            case VALUE_NUMBER_INT:
                switch (p.getNumberType()) {
                    case INT:
                        w.int32(p.getIntValue());
                        return 0;
                    case LONG:
                        w.int64(p.getLongValue());
                        return 0;
                    default:
                        w.bigInteger(p.getBigIntegerValue());
                        return CHANGED_NUMBER;
                }
            case VALUE_NUMBER_FLOAT: {
                double d = p.getDoubleValue();
                w.float64(d);
                return Double.isFinite(d) ? 0 : CHANGED_NUMBER;
            }
            case VALUE_TRUE:
                w.bool(true);
                return 0;
            case VALUE_FALSE:
                w.bool(false);
                return 0;
            case VALUE_NULL:
                w.nullValue();
                return 0;
            default:
                throw new com.fasterxml.jackson.core.JsonParseException(p, "unexpected " + token);
        }
    }
}
