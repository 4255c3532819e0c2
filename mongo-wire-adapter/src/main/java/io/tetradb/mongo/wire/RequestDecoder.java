package io.tetradb.mongo.wire;

import io.netty.buffer.ByteBuf;
import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.Limits;
import io.tetradb.mongo.bson.BsonBounds;
import io.tetradb.mongo.bson.CachedNamesBsonInput;
import io.tetradb.mongo.bson.UncheckedRawDocument;
import io.tetradb.mongo.command.MongoError;
import org.bson.BsonArray;
import org.bson.BsonBinaryReader;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.DecoderContext;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Decodes one whole frame (header included, as cut by the length-field frame decoder) into a {@link Request}.
 * Every BSON byte goes through org.mongodb:bson; anything malformed is a {@link ProtocolException}.
 * Opcodes other than OP_MSG and OP_QUERY come back with a null command (the caller answers with an error).
 */
public final class RequestDecoder {
    static final int CHECKSUM_PRESENT = 1;
    static final int MORE_TO_COME = 1 << 1;
    private static final BsonDocumentCodec CODEC = new BsonDocumentCodec();
    private static final DecoderContext DECODING = DecoderContext.builder().build();
    /** The kind-1 section of an insert's documents. */
    private static final String INSERTED = "documents";
    /** mongod's BSONObjMaxInternalSize: a document in a command may exceed the user limit by 16 KiB of envelope. */
    static final int MAX_DOCUMENT_BYTES = Limits.MAX_BSON_OBJECT_SIZE + 16 * 1024;

    private RequestDecoder() {
    }

    /**
     * mongo-cpu (issue 17): the frame is copied once into a heap array and decoded from there, instead of reading
     * Netty's direct buffer byte by byte and copying each inserted document out of it: the BSON reader's per-byte
     * access to a heap buffer is cheaper, and an insert's documents are views of that one array
     * ({@code RawBsonDocument(bytes, offset, length)}). notes-ab (session 14): the A/B switch
     * {@code tetradb.mongo.heapFrames} and the direct decode are removed (a find command 1.13–1.24 µs heap against
     * 1.33–1.49 direct, an insert's decode no different; bench/README, mongo section).
     */
    public static Request decode(ByteBuf frame) {
        byte[] bytes = new byte[frame.readableBytes()];
        frame.getBytes(frame.readerIndex(), bytes);
        ByteBuffer buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int length = buf.getInt();
        if (length != buf.limit()) {
            throw new ProtocolException("message length " + length + " does not match the frame (" + buf.limit() + ")");
        }
        int requestId = buf.getInt();
        buf.getInt(); // responseTo
        int opCode = buf.getInt();
        return switch (opCode) {
            case OpCode.OP_MSG -> opMsg(requestId, buf);
            case OpCode.OP_QUERY -> opQuery(requestId, buf);
            default -> new Request(requestId, opCode, null, null, false, opCode != OpCode.OP_MSG);
        };
    }

    private static Request opMsg(int requestId, ByteBuffer buf) {
        int flags = need(buf, 4).getInt();
        if ((flags & ~(CHECKSUM_PRESENT | MORE_TO_COME | (1 << 16))) != 0) {
            throw new ProtocolException("OP_MSG has unknown required flag bits: " + Integer.toBinaryString(flags));
        }
        int end = buf.limit() - ((flags & CHECKSUM_PRESENT) != 0 ? 4 : 0);
        if (end < buf.position()) {
            throw new ProtocolException("OP_MSG is too short for its checksum");
        }
        BsonDocument body = null;
        BsonDocument sequences = new BsonDocument();
        while (buf.position() < end) {
            int kind = buf.get();
            if (kind == 0) {
                if (body != null) {
                    throw new ProtocolException("OP_MSG has more than one kind-0 section");
                }
                body = commandDocument(buf, end);
            } else if (kind == 1) {
                int start = buf.position();
                int size = need(buf, 4).getInt();
                int sectionEnd = start + size;
                if (size < 5 || sectionEnd > end) {
                    throw new ProtocolException("OP_MSG kind-1 section size " + size + " runs past the message");
                }
                String identifier = cstring(buf, sectionEnd);
                BsonArray docs = new BsonArray();
                boolean raw = identifier.equals(INSERTED); // an insert's documents stay bytes until they are mapped
                while (buf.position() < sectionEnd) {
                    docs.add(raw ? rawDocument(buf, sectionEnd) : document(buf, sectionEnd));
                }
                sequences.put(identifier, docs);
            } else {
                throw new ProtocolException("OP_MSG has a section of unknown kind " + kind);
            }
        }
        if (body == null) {
            throw new ProtocolException("OP_MSG has no kind-0 section");
        }
        for (String id : sequences.keySet()) {
            BsonArray docs = sequences.getArray(id);
            if (id.equals(INSERTED) && !(!body.isEmpty() && body.getFirstKey().equals("insert"))) {
                docs.replaceAll(RequestDecoder::decoded); // only insert reads them as bytes
            }
            body.put(id, docs);
        }
        String db = body.get("$db") instanceof BsonString s ? s.getValue() : "admin";
        return new Request(requestId, OpCode.OP_MSG, db, body, (flags & MORE_TO_COME) != 0, false);
    }

    private static Request opQuery(int requestId, ByteBuffer buf) {
        need(buf, 4).getInt(); // flags
        String namespace = cstring(buf, buf.limit());
        need(buf, 8);
        buf.getInt(); // numberToSkip
        buf.getInt(); // numberToReturn
        BsonDocument query = commandDocument(buf, buf.limit());
        int dot = namespace.indexOf('.');
        String db = dot < 0 ? namespace : namespace.substring(0, dot);
        if (!namespace.endsWith(".$cmd")) {
            return new Request(requestId, OpCode.OP_QUERY, db, null, false, true);
        }
        if (query.get("$query") instanceof BsonDocument wrapped) {
            query = wrapped;
        }
        return new Request(requestId, OpCode.OP_QUERY, db, query, false, true);
    }

    private static ByteBuffer need(ByteBuffer buf, int bytes) {
        if (buf.remaining() < bytes) {
            throw new ProtocolException("message truncated");
        }
        return buf;
    }

    /**
     * The command itself (not a document of a kind-1 sequence, whose size the command judges per document): over
     * mongod's BSONObjMaxInternalSize it is BSONObjectTooLarge.
     */
    private static BsonDocument commandDocument(ByteBuffer buf, int end) {
        if (end - buf.position() >= 4) {
            int size = buf.getInt(buf.position());
            if (size > MAX_DOCUMENT_BYTES) {
                throw new ProtocolException("BSONObj size: " + size + " (0x"
                        + Integer.toHexString(size).toUpperCase() + ") is invalid. Size must be between 0 and "
                        + MAX_DOCUMENT_BYTES + "(16MB)", ErrorCode.BSON_OBJECT_TOO_LARGE);
            }
        }
        return document(buf, end);
    }

    /**
     * A document kept as its bytes, its size checked against its section: the insert path maps them straight into
     * the core item ({@code RawBsonItems}) instead of building a document tree first. bounds-fold (issue 17): its
     * bounds are not walked here; the insert checks them in its transcode, and any other use checks them first
     * ({@link UncheckedRawDocument}).
     */
    private static BsonDocument rawDocument(ByteBuffer buf, int end) {
        int start = buf.position();
        if (end - start < 5) {
            throw new ProtocolException("BSON document truncated");
        }
        int size = buf.getInt(start);
        if (size < 5 || start + size > end) {
            throw new ProtocolException("BSON document size " + size + " runs past its section");
        }
        buf.position(start + size); // a view of the frame's array: no copy per document
        return new UncheckedRawDocument(buf.array(), buf.arrayOffset() + start, size);
    }

    private static BsonDocument document(ByteBuffer buf, int end) {
        int start = buf.position();
        if (end - start < 5) {
            throw new ProtocolException("BSON document truncated");
        }
        int size = buf.getInt(start);
        if (size < 5 || start + size > end) {
            throw new ProtocolException("BSON document size " + size + " runs past its section");
        }
        checkBounds(buf, start, start + size);
        ByteBuffer slice = buf.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        slice.position(start).limit(start + size);
        // names from the thread's cache: a command's keys repeat in every request (mongo-cpu, session 21)
        try (BsonBinaryReader reader = new BsonBinaryReader(
                CachedNamesBsonInput.forCommand(slice.slice().order(ByteOrder.LITTLE_ENDIAN)))) {
            BsonDocument doc = CODEC.decode(reader, DECODING);
            buf.position(start + size);
            return doc;
        } catch (RuntimeException e) {
            throw new ProtocolException("invalid BSON: " + e.getMessage(), ErrorCode.INVALID_BSON);
        }
    }

    /** {@link BsonBounds#check}, its refusal a message that does not parse. */
    private static void checkBounds(ByteBuffer buf, int start, int end) {
        try {
            BsonBounds.check(buf, start, end);
        } catch (MongoError e) {
            throw new ProtocolException(e.getMessage(), e.code());
        }
    }

    /** A kind-1 document that only insert keeps raw, checked and decoded for any other command. */
    private static BsonValue decoded(BsonValue raw) {
        RawBsonDocument checked;
        try {
            checked = ((UncheckedRawDocument) raw).checked();
        } catch (MongoError e) {
            throw new ProtocolException(e.getMessage(), e.code());
        }
        try {
            return checked.decode(CODEC);
        } catch (RuntimeException e) {
            throw new ProtocolException("invalid BSON: " + e.getMessage(), ErrorCode.INVALID_BSON);
        }
    }

    private static String cstring(ByteBuffer buf, int end) {
        int start = buf.position();
        for (int i = start; i < end; i++) {
            if (buf.get(i) == 0) {
                byte[] bytes = new byte[i - start];
                buf.get(bytes);
                buf.get();
                return new String(bytes, StandardCharsets.UTF_8);
            }
        }
        throw new ProtocolException("unterminated string");
    }
}
