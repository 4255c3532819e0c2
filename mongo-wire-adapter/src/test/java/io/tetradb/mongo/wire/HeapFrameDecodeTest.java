package io.tetradb.mongo.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tetradb.core.store.ItemCodec;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.mongo.bson.DocumentMapper;
import io.tetradb.mongo.bson.UncheckedRawDocument;
import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBinaryWriter;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.EncoderContext;
import org.bson.io.BasicOutputBuffer;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * mongo-cpu (issue 17): a request is decoded from a heap copy of its frame, and an insert's documents, views of the
 * frame's one array instead of a copy each, equal the documents sent and map to the same stored TB1 bytes as a
 * standalone copy of each (names and strings with multi-byte UTF-8 included). notes-ab: the direct decode is gone,
 * so the reference is what was sent.
 */
class HeapFrameDecodeTest {
    private static final ItemCodec CODEC = new ItemCodec(new com.fasterxml.jackson.databind.ObjectMapper(), 128);
    private static final String[] WORDS = {"a", "Zoë", "naïve café", "日本語", "emoji 😀", "", "x".repeat(40)};

    @Test
    void anInsertsDocumentsAreViewsOfTheFrameEqualToWhatWasSentAndMapToTheSameStoredBytes() {
        SplittableRandom random = new SplittableRandom(17);
        for (int round = 0; round < 20; round++) {
            int count = 1 + random.nextInt(60);
            BsonDocument body = new BsonDocument("insert", new BsonString("c")).append("ordered", BsonBoolean.TRUE)
                    .append("$db", new BsonString("db"));
            List<BsonDocument> sent = documents(random, count, round);
            ByteBuf frame = frame(body, "documents", sent);
            Request heap = RequestDecoder.decode(frame.duplicate());
            assertEquals("db", heap.database());
            assertEquals(new BsonString("c"), heap.command().get("insert"));
            List<BsonValue> heapDocs = heap.command().getArray("documents").getValues();
            assertEquals(count, heapDocs.size());
            for (int i = 0; i < count; i++) {
                UncheckedRawDocument unchecked = (UncheckedRawDocument) heapDocs.get(i);
                RawBsonDocument copy = new RawBsonDocument(sent.get(i), new BsonDocumentCodec());
                // bounds-fold: the view's item comes from the transcode that checks bounds as it reads, the copy's
                // from the one that trusts them; the same bytes
                ItemOperation fromView = DocumentMapper.createOperation(unchecked, CODEC);
                ItemOperation fromCopy = DocumentMapper.createOperation(copy, CODEC);
                RawBsonDocument h = unchecked.checked();
                assertEquals(copy, h);
                assertEquals(sent.get(i), h.decode(new BsonDocumentCodec()));
                assertEquals(copy.getByteBuffer().remaining(), h.getByteBuffer().remaining());
                if (fromCopy.encoded() == null) {
                    assertEquals(fromCopy.item(), fromView.item());
                } else {
                    assertArrayEquals(fromCopy.encoded().body(), fromView.encoded().body(), "document " + i);
                }
            }
            // the documents share the frame's array: a view each, not a copy
            java.nio.ByteBuffer last = ((UncheckedRawDocument) heapDocs.get(count - 1)).checked().getByteBuffer()
                    .asNIO();
            assertTrue(last.position() > 0, "the last document is a view into the frame");
            frame.release();
        }
    }

    /**
     * bounds-fold (issue 17): a string claiming more bytes than its document holds, in an insert's documents, is
     * refused by the insert's transcode and by any other use of the document, with BsonBounds' InvalidBSON; in any
     * other command's documents it is refused by the decoder, as a message that does not parse.
     */
    @Test
    void aStringRunningPastItsDocumentIsRefusedByTheInsertsTranscodeAndByAnyOtherCommandsDecode() {
        for (String command : List.of("insert", "update")) {
            BsonDocument body = new BsonDocument(command, new BsonString("c")).append("$db", new BsonString("db"));
            ByteBuf frame = frame(body, "documents", List.of(new BsonDocument("_id", new BsonInt32(1))
                    .append("s", new BsonString("abc"))));
            int at = indexOf(frame, new byte[]{'s', 0}) + 2;
            frame.setIntLE(at, 200);
            if (command.equals("update")) {
                ProtocolException e = assertThrows(ProtocolException.class,
                        () -> RequestDecoder.decode(frame.duplicate()));
                assertEquals(ErrorCode.INVALID_BSON, e.code());
            } else {
                BsonValue doc = RequestDecoder.decode(frame.duplicate()).command().getArray("documents").get(0);
                String why = "invalid BSON: string length 200 runs past its document";
                MongoError transcode = assertThrows(MongoError.class,
                        () -> DocumentMapper.createOperation(doc.asDocument(), CODEC));
                assertEquals(ErrorCode.INVALID_BSON, transcode.code());
                assertEquals(why, transcode.getMessage());
                MongoError tree = assertThrows(MongoError.class, () -> doc.asDocument().get("s"));
                assertEquals(why, tree.getMessage());
            }
            frame.release();
        }
    }

    private static List<BsonDocument> documents(SplittableRandom random, int count, int round) {
        List<BsonDocument> docs = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            BsonDocument d = new BsonDocument("_id", random.nextBoolean() ? new BsonInt32(round * 1000 + i)
                    : new BsonObjectId(new ObjectId()));
            int fields = random.nextInt(8);
            for (int f = 0; f < fields; f++) {
                d.append(WORDS[random.nextInt(WORDS.length)] + f, value(random, 0));
            }
            docs.add(d);
        }
        return docs;
    }

    private static BsonValue value(SplittableRandom random, int depth) {
        switch (random.nextInt(depth < 3 ? 11 : 9)) {
            case 0: return new BsonString(WORDS[random.nextInt(WORDS.length)]);
            case 1: return new BsonInt32(random.nextInt());
            case 2: return new BsonInt64(random.nextLong());
            case 3: return new BsonDouble(random.nextDouble());
            case 4: return BsonBoolean.valueOf(random.nextBoolean());
            case 5: return BsonNull.VALUE;
            case 6: return new BsonDateTime(random.nextLong(-1_000_000_000_000L, 4_000_000_000_000L));
            case 7: return new BsonDecimal128(Decimal128.parse(Long.toString(random.nextLong()) + ".25"));
            case 8: return new BsonBinary(new byte[]{1, 2, (byte) random.nextInt()});
            case 9: {
                BsonDocument d = new BsonDocument();
                for (int i = random.nextInt(4); i > 0; i--) {
                    d.append(WORDS[random.nextInt(WORDS.length)] + i, value(random, depth + 1));
                }
                return d;
            }
            default: {
                BsonArray a = new BsonArray();
                for (int i = random.nextInt(4); i > 0; i--) {
                    a.add(value(random, depth + 1));
                }
                return a;
            }
        }
    }

    /** An OP_MSG frame in a direct buffer, as Netty's frame decoder hands it over: the body and one kind-1 section. */
    private static ByteBuf frame(BsonDocument body, String identifier, List<BsonDocument> docs) {
        BasicOutputBuffer out = new BasicOutputBuffer();
        out.writeInt32(0);
        out.writeInt32(1);
        out.writeInt32(0);
        out.writeInt32(OpCode.OP_MSG);
        out.writeInt32(0);
        out.writeByte(0);
        write(out, body);
        out.writeByte(1);
        int section = out.getPosition();
        out.writeInt32(0);
        out.writeCString(identifier);
        for (BsonDocument d : docs) {
            write(out, d);
        }
        out.writeInt32(section, out.getPosition() - section);
        out.writeInt32(0, out.getPosition());
        ByteBuf buf = Unpooled.directBuffer(out.getPosition());
        buf.writeBytes(out.toByteArray());
        return buf;
    }

    private static void write(BasicOutputBuffer out, BsonDocument d) {
        new BsonDocumentCodec().encode(new BsonBinaryWriter(out), d, EncoderContext.builder().build());
    }

    private static int indexOf(ByteBuf buf, byte[] what) {
        for (int i = buf.writerIndex() - what.length; i >= 0; i--) {
            boolean match = true;
            for (int k = 0; k < what.length && match; k++) {
                match = buf.getByte(i + k) == what[k];
            }
            if (match) {
                return i;
            }
        }
        throw new AssertionError("not found");
    }
}
