package io.tetradb.mongo.command;

import io.tetradb.mongo.bson.UncheckedRawDocument;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * An insert's documents stay unchecked wire bytes until the insert checks them (bounds-fold): a currentOp that lists
 * such an insert meanwhile shows it, and a broken document of another client's insert does not fail the currentOp.
 */
class CurrentOpUncheckedInsertTest {
    /** {@code {a: "x"}} whose string length says 1,000 bytes: past the end of its 14-byte document. */
    private static UncheckedRawDocument broken() {
        ByteBuffer b = ByteBuffer.allocate(14).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(14).put((byte) 0x02).put((byte) 'a').put((byte) 0).putInt(1000).put((byte) 'x').put((byte) 0)
                .put((byte) 0);
        return new UncheckedRawDocument(b.array(), 0, 14);
    }

    private static UncheckedRawDocument good(int id) {
        org.bson.ByteBuf buf = new RawBsonDocument(new BsonDocument("_id", new BsonInt32(id)), new BsonDocumentCodec())
                .getByteBuffer();
        return new UncheckedRawDocument(buf.array(), buf.position(), buf.remaining());
    }

    private static BsonDocument insert(BsonArray documents) {
        return new BsonDocument("insert", new BsonString("c")).append("ordered", org.bson.BsonBoolean.TRUE)
                .append("documents", documents);
    }

    @Test
    void anInsertWithABrokenDocumentIsShownWithoutItsDocuments() {
        assertThrows(MongoError.class, () -> broken().toJson(), "the broken document alone refuses to be read");
        BsonDocument running = insert(new BsonArray(java.util.List.of(good(1), broken())));
        BsonDocument shown = Operations.shown(running);
        assertEquals(new BsonString("(invalid BSON)"), shown.get("documents"));
        assertEquals(new BsonString("c"), shown.get("insert"));
        assertEquals(shown, BsonDocument.parse(shown.toJson()), "what currentOp sends encodes and reads back");
        assertEquals(2, running.getArray("documents").size(), "the running insert keeps its documents");
    }

    @Test
    void anInsertOfGoodDocumentsIsShownWithThem() {
        BsonDocument shown = Operations.shown(insert(new BsonArray(java.util.List.of(good(1), good(2)))));
        assertEquals(BsonDocument.parse("{insert: 'c', ordered: true, documents: [{_id: 1}, {_id: 2}]}"),
                BsonDocument.parse(shown.toJson()));
    }
}
