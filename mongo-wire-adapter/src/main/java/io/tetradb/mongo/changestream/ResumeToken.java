package io.tetradb.mongo.changestream;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.util.HexFormat;
import java.util.Locale;

/**
 * A change stream resume token, {@code {_data: "<hex>"}} as MongoDB writes it. The hex string holds a format byte, the
 * store-wide feed sequence (first, so tokens compare in event order as strings), the commit time, the container id
 * and the event's kind; the sequence is durable, so a token stays valid across a server restart.
 *
 * @param seq        the feed position the token stands at: resuming reads events numbered after it
 * @param crtsMillis the commit time of the event (for the history-lost check)
 * @param collId     the container the event belongs to (0 for a high-water mark)
 * @param kind       what the token marks
 * @param cursor     on a shared engine: the stream's cursors ({@link StreamCursors}'s payload) instead of {@code seq},
 *                   written as format {@code 83}; null: the store-wide sequence (format {@code 82}, as before)
 */
public record ResumeToken(long seq, long crtsMillis, int collId, Kind kind, byte[] cursor) {
    private static final String FORMAT = "82";
    private static final String CURSOR_FORMAT = "83";

    public ResumeToken(long seq, long crtsMillis, int collId, Kind kind) {
        this(seq, crtsMillis, collId, kind, null);
    }
    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    /** A document event, a position without an event (postBatchResumeToken), a drop, an invalidate. */
    public enum Kind { EVENT, HIGH_WATER_MARK, DROP, DROP_DATABASE, INVALIDATE }

    public BsonDocument toBson() {
        if (cursor != null) { // a position per logical partition: valid on every server of a shared engine
            return new BsonDocument("_data", new BsonString(CURSOR_FORMAT + HEX.toHexDigits(crtsMillis)
                    + HEX.toHexDigits(collId) + HEX.toHexDigits((byte) kind.ordinal()) + HEX.formatHex(cursor)));
        }
        String data = FORMAT + HEX.toHexDigits(seq) + HEX.toHexDigits(crtsMillis) + HEX.toHexDigits(collId)
                + HEX.toHexDigits((byte) kind.ordinal());
        return new BsonDocument("_data", new BsonString(data));
    }

    /** Reads a token a client hands back; InvalidResumeToken (260) for anything this server did not write. */
    public static ResumeToken parse(BsonValue v) {
        if (v == null || !v.isDocument() || !v.asDocument().isString("_data")) {
            throw invalid("Bad resume token: _data of missing or of wrong type. Expected string, got " + v);
        }
        String data = v.asDocument().getString("_data").getValue().toUpperCase(Locale.ROOT);
        if (data.startsWith(CURSOR_FORMAT) && data.length() >= 2 + 16 + 8 + 2 + 2 && data.length() % 2 == 0) {
            try {
                int kind = HexFormat.fromHexDigits(data, 26, 28);
                if (kind >= Kind.values().length) {
                    throw invalid("Bad resume token: unknown event kind in " + v.asDocument().toJson());
                }
                return new ResumeToken(0, HexFormat.fromHexDigitsToLong(data, 2, 18),
                        HexFormat.fromHexDigits(data, 18, 26), Kind.values()[kind], HEX.parseHex(data, 28,
                        data.length()));
            } catch (IllegalArgumentException e) {
                throw invalid("Bad resume token: _data is not hex: " + v.asDocument().toJson());
            }
        }
        if (data.length() != 2 + 16 + 16 + 8 + 2 || !data.startsWith(FORMAT)) {
            throw invalid("Bad resume token: this server did not issue " + v.asDocument().toJson());
        }
        try {
            long seq = HexFormat.fromHexDigitsToLong(data, 2, 18);
            long crts = HexFormat.fromHexDigitsToLong(data, 18, 34);
            int collId = HexFormat.fromHexDigits(data, 34, 42);
            int kind = HexFormat.fromHexDigits(data, 42, 44);
            if (kind >= Kind.values().length || seq < 0) {
                throw invalid("Bad resume token: unknown event kind in " + v.asDocument().toJson());
            }
            return new ResumeToken(seq, crts, collId, Kind.values()[kind]);
        } catch (NumberFormatException e) {
            throw invalid("Bad resume token: _data is not hex: " + v.asDocument().toJson());
        }
    }

    private static MongoError invalid(String message) {
        return new MongoError(ErrorCode.INVALID_RESUME_TOKEN, message);
    }
}
