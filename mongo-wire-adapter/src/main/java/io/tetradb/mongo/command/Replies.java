package io.tetradb.mongo.command;

import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.util.List;

/** Reply documents in MongoDB's shapes. */
public final class Replies {
    private Replies() {
    }

    public static BsonDocument ok() {
        return new BsonDocument("ok", new BsonDouble(1));
    }

    public static BsonDocument ok(BsonDocument fields) {
        return fields.append("ok", new BsonDouble(1));
    }

    public static BsonDocument error(ErrorCode code, String message, BsonDocument extra) {
        BsonDocument d = new BsonDocument("ok", new BsonDouble(0))
                .append("errmsg", new BsonString(message == null ? code.codeName() : message))
                .append("code", new BsonInt32(code.code()))
                .append("codeName", new BsonString(code.codeName()));
        if (extra != null) {
            extra.forEach(d::append);
        }
        return d;
    }

    /**
     * {@link #cursor} with a first batch of at most one document and no cursor left open, written as the reply's
     * BSON bytes at once: a raw document is copied as it is, never decoded and encoded again.
     */
    public static BsonDocument singleBatch(String ns, BsonDocument doc) {
        if (!(doc instanceof org.bson.RawBsonDocument raw)) {
            return cursor("firstBatch", 0, ns, doc == null ? List.of() : List.of(doc));
        }
        java.nio.ByteBuffer docBytes = raw.getByteBuffer().asNIO();
        byte[] nsBytes = ns.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        int batchSize = 4 + (1 + 2 + docBytes.remaining()) + 1;                  // [ "0": doc ]
        int cursorSize = 4 + (1 + 11 + batchSize) + (1 + 3 + 8) + (1 + 3 + 4 + nsBytes.length + 1) + 1;
        int size = 4 + (1 + 7 + cursorSize) + (1 + 3 + 8) + 1;
        java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate(size).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        out.putInt(size);
        out.put((byte) 0x03).put(CURSOR).putInt(cursorSize);
        out.put((byte) 0x04).put(FIRST_BATCH).putInt(batchSize);
        out.put((byte) 0x03).put((byte) '0').put((byte) 0).put(docBytes);
        out.put((byte) 0);                                                        // end of firstBatch
        out.put((byte) 0x12).put(ID).putLong(0);
        out.put((byte) 0x02).put(NS).putInt(nsBytes.length + 1).put(nsBytes).put((byte) 0);
        out.put((byte) 0);                                                        // end of cursor
        out.put((byte) 0x01).put(OK).putDouble(1);
        out.put((byte) 0);
        return new org.bson.RawBsonDocument(out.array());
    }

    private static final byte[] CURSOR = "cursor\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] FIRST_BATCH = "firstBatch\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] ID = "id\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] NS = "ns\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] OK = "ok\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /** {@code {cursor: {firstBatch|nextBatch, id, ns}, ok: 1}}. */
    public static BsonDocument cursor(String batchName, long id, String ns, List<? extends BsonValue> batch) {
        return ok(new BsonDocument("cursor", new BsonDocument(batchName, new BsonArray(batch))
                .append("id", new BsonInt64(id)).append("ns", new BsonString(ns))));
    }
}
