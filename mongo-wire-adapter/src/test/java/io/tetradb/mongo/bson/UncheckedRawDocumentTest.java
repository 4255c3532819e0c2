package io.tetradb.mongo.bson;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.core.store.ItemCodec;
import io.tetradb.mongo.WireFrames;
import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import org.bson.BsonArray;
import org.bson.BsonBinaryWriter;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.EncoderContext;
import org.bson.io.BasicOutputBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bounds-fold (issue 17): an insert's document that nobody has bounds-checked yet. Its transcode refuses broken
 * bounds without allocating what they declare, with the error {@link BsonBounds} gives for the same bytes (code and
 * words), and every other way into it (a tree's get, entrySet, toJson, clone, an encoder writing it into a reply)
 * goes through {@link BsonBounds} first.
 */
class UncheckedRawDocumentTest {
    private static final ItemCodec CODEC = new ItemCodec(new ObjectMapper(), 200);
    private static final byte[] TWO_GB_BINARY = ByteBuffer.allocate(6).order(ByteOrder.LITTLE_ENDIAN)
            .putInt(2_000_000_000).put((byte) 0).put((byte) 7).array();

    /** Broken documents, each as the decoder would keep it, by what is broken. */
    private static Map<String, byte[]> broken() {
        Map<String, byte[]> m = new LinkedHashMap<>();
        m.put("a binary declaring 2 GB", WireFrames.document(WireFrames.element(2, "_id", WireFrames.string("a")), WireFrames.element(5, "b", TWO_GB_BINARY)));
        m.put("an _id binary declaring 2 GB", WireFrames.document(WireFrames.element(5, "_id", TWO_GB_BINARY)));
        m.put("a 2 GB binary after an _id that is not first", WireFrames.document(WireFrames.element(0x10, "n", WireFrames.int32(1)),
                WireFrames.element(2, "_id", WireFrames.string("late")), WireFrames.element(5, "b", TWO_GB_BINARY)));
        m.put("a 2 GB binary after a value the transcode declines (MinKey)", WireFrames.document(WireFrames.element(2, "_id", WireFrames.string("m")),
                WireFrames.element(0xFF, "min", new byte[0]), WireFrames.element(5, "b", TWO_GB_BINARY)));
        m.put("a 2 GB binary 150 levels down (the transcode stops at 100)", WireFrames.document(WireFrames.element(2, "_id", WireFrames.string("d")),
                WireFrames.element(3, "a", nestedAround(149, WireFrames.element(5, "b", TWO_GB_BINARY)))));
        // within the whole document, but past the end of the sub-document holding it
        byte[] inner = WireFrames.document(WireFrames.element(2, "s", WireFrames.string("abc")), WireFrames.element(0x10, "n", WireFrames.int32(1)));
        ByteBuffer.wrap(inner).order(ByteOrder.LITTLE_ENDIAN).putInt(4 + 1 + 2, 12);
        m.put("a string past its sub-document", WireFrames.document(WireFrames.element(2, "_id", WireFrames.string("s")), WireFrames.element(3, "sub", inner),
                WireFrames.element(2, "pad", WireFrames.string("x".repeat(40)))));
        byte[] sub = WireFrames.document(WireFrames.element(0x10, "n", WireFrames.int32(1)));
        ByteBuffer.wrap(sub).order(ByteOrder.LITTLE_ENDIAN).putInt(0, sub.length + 200);
        m.put("a sub-document past its container", WireFrames.document(WireFrames.element(2, "_id", WireFrames.string("p")), WireFrames.element(3, "sub", sub),
                WireFrames.element(2, "pad", WireFrames.string("x".repeat(40)))));
        m.put("an unknown type", WireFrames.document(WireFrames.element(2, "_id", WireFrames.string("u")), WireFrames.element(0x20, "u", WireFrames.int32(1))));
        m.put("201 levels", WireFrames.document(WireFrames.element(2, "_id", WireFrames.string("deep")), WireFrames.element(3, "a", nestedAround(200, new byte[0]))));
        return m;
    }

    @Test
    void theTranscodeRefusesBrokenBoundsWithBsonBoundsErrorAndAllocatesNothingTheyDeclare() {
        broken().forEach((what, bytes) -> {
            MongoError expected = assertThrows(MongoError.class,
                    () -> BsonBounds.check(ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN), 0, bytes.length),
                    what);
            UncheckedRawDocument doc = new UncheckedRawDocument(bytes, 0, bytes.length);
            long allocated = allocatedBy(() -> {
                MongoError e = assertThrows(MongoError.class, () -> doc.encodedOrNull(CODEC), what);
                assertEquals(expected.code(), e.code(), what);
                assertEquals(expected.getMessage(), e.getMessage(), what);
            });
            assertTrue(allocated < 1 << 20, what + ": " + allocated + " bytes allocated");
        });
    }

    @Test
    void everyOtherUseOfAnUncheckedDocumentChecksItFirst() {
        broken().forEach((what, bytes) -> {
            UncheckedRawDocument doc = new UncheckedRawDocument(bytes, 0, bytes.length);
            List<Executable> uses = List.of(doc::toJson, doc::entrySet, () -> doc.get("b"), doc::clone, doc::size,
                    () -> doc.containsKey("_id"), doc::getFirstKey, doc::hashCode, () -> doc.equals(new BsonDocument()),
                    () -> encodeInReply(doc));
            for (Executable use : uses) {
                long allocated = allocatedBy(() -> {
                    MongoError e = assertThrows(MongoError.class, use, what);
                    assertTrue(e.code() == ErrorCode.INVALID_BSON || e.code() == ErrorCode.OVERFLOW, what);
                });
                assertTrue(allocated < 1 << 20, what + ": " + allocated + " bytes allocated");
            }
        });
    }

    @Test
    void aGoodDocumentIsTranscodedAndReadsAsItsTree() {
        byte[] bytes = WireFrames.document(WireFrames.element(2, "_id", WireFrames.string("ok")), WireFrames.element(0x10, "n", WireFrames.int32(7)), WireFrames.element(3, "sub", WireFrames.document(WireFrames.element(2, "s", WireFrames.string("é")))));
        UncheckedRawDocument doc = new UncheckedRawDocument(bytes, 0, bytes.length);
        assertNotNull(doc.encodedOrNull(CODEC));
        assertEquals(7, doc.getInt32("n").getValue());
        assertEquals("é", doc.getDocument("sub").getString("s").getValue());
    }

    /** The document written into a reply as an element of an array, as the bson library's codec writes one. */
    private static void encodeInReply(BsonDocument doc) {
        BsonDocument reply = new BsonDocument("documents", new BsonArray(List.of(doc)));
        try (BsonBinaryWriter w = new BsonBinaryWriter(new BasicOutputBuffer())) {
            new BsonDocumentCodec().encode(w, reply, EncoderContext.builder().build());
        }
    }

    private static long allocatedBy(Runnable r) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        r.run();
        return threads.getCurrentThreadAllocatedBytes() - before;
    }

    /** {@code {a: {a: ... {inner}}}}: {@code levels} documents, the innermost holding {@code inner}. */
    private static byte[] nestedAround(int levels, byte[] inner) {
        byte[] d = WireFrames.document(inner);
        for (int i = 1; i < levels; i++) {
            d = WireFrames.document(WireFrames.element(3, "a", d));
        }
        return d;
    }
}
