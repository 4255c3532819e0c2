package io.tetradb.mongo.wire;

import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBinaryReader;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.BsonValue;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.DecoderContext;
import org.bson.types.ObjectId;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Decodes a command document (already checked by {@link BsonBounds}) into the same {@code BsonDocument} tree the
 * bson library's codec gives, reading the types commands are made of straight from the bytes (issue 17: the codec
 * looks up a codec in its registry and goes through its reader's state machine for every value, most of a small
 * command's decode). A document holding any other type anywhere is decoded by the codec, as before.
 */
final class CommandBodyDecoder {
    private static final BsonDocumentCodec CODEC = new BsonDocumentCodec();

    private CommandBodyDecoder() {
    }

    /** The document at {@code start} of {@code buf} (absolute position; {@code BsonBounds} has checked it). */
    static BsonDocument decode(ByteBuffer buf, int start) {
        ByteBuffer b = buf.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        BsonValue v = usual(b, (byte) 0x03, start);
        if (v != null) {
            return (BsonDocument) v;
        }
        ByteBuffer slice = b.duplicate();
        slice.position(start).limit(start + b.getInt(start));
        try (BsonBinaryReader reader = new BsonBinaryReader(slice.slice().order(ByteOrder.LITTLE_ENDIAN))) {
            return CODEC.decode(reader, DecoderContext.builder().build());
        }
    }

    /**
     * The value of {@code type} at {@code p} as the codec decodes it, for the usual types (documents and arrays of
     * them included); null if it is, or holds, any other type.
     */
    private static BsonValue usual(ByteBuffer b, byte type, int p) {
        switch (type) {
            case 0x01:
                return new BsonDouble(b.getDouble(p));
            case 0x02: {
                int n = b.getInt(p) - 1;
                byte[] utf8 = new byte[n];
                b.get(p + 4, utf8);
                return new BsonString(new String(utf8, StandardCharsets.UTF_8));
            }
            case 0x03:
            case 0x04: {
                int end = p + b.getInt(p) - 1;
                BsonDocument doc = type == 0x03 ? new BsonDocument() : null;
                BsonArray array = type == 0x04 ? new BsonArray() : null;
                for (int q = p + 4; q < end; ) {
                    byte t = b.get(q);
                    int nameEnd = q + 1;
                    while (b.get(nameEnd) != 0) {
                        nameEnd++;
                    }
                    BsonValue v = usual(b, t, nameEnd + 1);
                    if (v == null) {
                        return null;
                    }
                    if (doc != null) { // a repeated name keeps its first position and its last value, as put does
                        byte[] name = new byte[nameEnd - q - 1];
                        b.get(q + 1, name);
                        doc.put(new String(name, StandardCharsets.UTF_8), v);
                    } else {
                        array.add(v); // an array element's name is not read, as the codec does not read it
                    }
                    q = after(b, t, nameEnd + 1);
                }
                return doc != null ? doc : array;
            }
            case 0x05: {
                byte subtype = b.get(p + 4);
                if (subtype == 0x02) {
                    return null; // the old binary subtype: the codec strips its inner length
                }
                byte[] data = new byte[b.getInt(p)];
                b.get(p + 5, data);
                return new BsonBinary(subtype, data);
            }
            case 0x07: {
                byte[] oid = new byte[12];
                b.get(p, oid);
                return new BsonObjectId(new ObjectId(oid));
            }
            case 0x08: {
                byte v = b.get(p);
                return v == 0 ? BsonBoolean.FALSE : v == 1 ? BsonBoolean.TRUE : null; // the codec refuses others
            }
            case 0x09:
                return new BsonDateTime(b.getLong(p));
            case 0x0A:
                return BsonNull.VALUE;
            case 0x10:
                return new BsonInt32(b.getInt(p));
            case 0x11:
                return new BsonTimestamp(b.getLong(p));
            case 0x12:
                return new BsonInt64(b.getLong(p));
            default:
                return null;
        }
    }

    /** Where the element after a value of one of the usual types at {@code p} begins. */
    private static int after(ByteBuffer b, byte type, int p) {
        return switch (type) {
            case 0x01, 0x09, 0x11, 0x12 -> p + 8;
            case 0x07 -> p + 12;
            case 0x08 -> p + 1;
            case 0x10 -> p + 4;
            case 0x0A -> p;
            case 0x02 -> p + 4 + b.getInt(p);
            case 0x05 -> p + 5 + b.getInt(p);
            default -> p + b.getInt(p); // documents and arrays
        };
    }
}
