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
    public static org.bson.RawBsonDocument singleBatch(String ns, BsonDocument doc) {
        org.bson.io.BasicOutputBuffer out = new org.bson.io.BasicOutputBuffer(doc == null ? 128 : 1024);
        try (org.bson.BsonBinaryWriter w = new org.bson.BsonBinaryWriter(out)) {
            w.writeStartDocument();
            w.writeStartDocument("cursor");
            w.writeStartArray("firstBatch");
            if (doc instanceof org.bson.RawBsonDocument raw) {
                w.pipe(new org.bson.BsonBinaryReader(raw.getByteBuffer().asNIO()));
            } else if (doc != null) {
                new org.bson.codecs.BsonDocumentCodec().encode(w, doc,
                        org.bson.codecs.EncoderContext.builder().build());
            }
            w.writeEndArray();
            w.writeInt64("id", 0);
            w.writeString("ns", ns);
            w.writeEndDocument();
            w.writeDouble("ok", 1);
            w.writeEndDocument();
        }
        return new org.bson.RawBsonDocument(out.getInternalBuffer(), 0, out.getPosition());
    }

    /** {@code {cursor: {firstBatch|nextBatch, id, ns}, ok: 1}}. */
    public static BsonDocument cursor(String batchName, long id, String ns, List<? extends BsonValue> batch) {
        return ok(new BsonDocument("cursor", new BsonDocument(batchName, new BsonArray(batch))
                .append("id", new BsonInt64(id)).append("ns", new BsonString(ns))));
    }
}
