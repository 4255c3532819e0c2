package io.tetradb.mongo.bson;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.mongo.command.Limits;
import org.bson.BsonBinaryReader;
import org.bson.BsonDecimal128;
import org.bson.BsonDateTime;
import org.bson.BsonType;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;

/**
 * An inserted document still in its wire bytes ({@link RawBsonDocument}, as the request decoder keeps an insert's
 * documents) read straight into its core item, with no {@code BsonDocument} tree in between, and its exact size known
 * without a walk. Only the common shape is read here: a document with a {@code $} name anywhere (DBRefs and what
 * MongoDB refuses), deeper than the limit or over 16 MB, or holding a value the typed model stores as tagged Extended
 * JSON returns null, and {@link DocumentMapper#toItem} maps it the general way (with its checks and errors).
 */
final class RawBsonItems {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private RawBsonItems() {
    }

    /**
     * The typed value of a top-level {@code _id} both fast paths can store as it is: a scalar the typed model holds;
     * null (the general path) for none, a document, an array or a value stored as tagged Extended JSON.
     */
    private static JsonNode typedScalarId(BsonValue id) {
        if (id == null || id.isDocument() || id.isArray()) {
            return null;
        }
        return id.isString() ? TextNode.valueOf(id.asString().getValue()) : BsonToTyped.scalar(id);
    }

    /** The item of {@code doc} (with {@code _id} first), or null for the general path. */
    static ObjectNode toItem(RawBsonDocument doc) {
        java.nio.ByteBuffer bytes = doc.getByteBuffer().asNIO();
        if (bytes.remaining() > Limits.MAX_BSON_OBJECT_SIZE) {
            return null;
        }
        BsonValue id = doc.get("_id");
        JsonNode typedId = typedScalarId(id);
        if (typedId == null) {
            return null;
        }
        ObjectNode out = F.objectNode();
        out.put("id", IdCodec.encode(id));
        out.set("_id", typedId);
        try (BsonBinaryReader r = new BsonBinaryReader(bytes)) {
            r.readStartDocument();
            while (r.readBsonType() != BsonType.END_OF_DOCUMENT) {
                String name = r.readName();
                if (name.equals("_id")) {
                    r.skipValue();
                    continue;
                }
                if (name.startsWith("$")) {
                    return null;
                }
                JsonNode v = value(r, 1);
                if (v == null) {
                    return null;
                }
                out.set(DocumentMapper.storedName(name), v);
            }
            r.readEndDocument();
        }
        return out;
    }

    /** What a command thread reuses for every document it maps (a large document's writer buffer is not kept). */
    private static final class Scratch {
        io.tetradb.core.item.BinaryItemStreamWriter writer;
        final CachedNamesBsonInput.Names names = new CachedNamesBsonInput.Names(256);
        final byte[] objectId = new byte[12];
        /**
         * The core id of the document the last {@link #toEncoded} walk mapped whole, when its stored item reads back
         * as exactly its bytes; null otherwise (see {@link #lastReadsBackAsIs}).
         */
        String asIsId;
        /** Cleared by {@code encode} at the first value, name or array shape that does not read back byte for byte. */
        boolean asIs;
    }

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    /**
     * write-path (issue 17): the item of {@code doc} written straight from its BSON bytes into the core's binary item
     * format, the bytes {@link #toItem} followed by the core's tree writer would give, with no tree; null for the
     * general path (as {@link #toItem}). One pass of a {@link BsonBinaryReader} over the bytes (mongo-net): an
     * {@code _id} in first place (where drivers put it) is read in that pass, ASCII names and well-formed UTF-8 strings
     * are copied as bytes (the reader has checked their bounds and terminators), dates and ObjectIds go to the writer
     * without a value object.
     */
    static io.tetradb.core.store.EncodedItem toEncoded(RawBsonDocument doc, io.tetradb.core.store.ItemCodec codec) {
        return toEncoded(doc, codec, true);
    }

    /**
     * insert-replies (issue 17): after this thread's last {@link #toEncoded} (or {@link #toEncodedChecking}) gave an
     * item, that item's core id when a point read of it will give back exactly the document's bytes, else null. It
     * does when {@code _id} comes first as an Int32, Int64, ObjectId or well-formed string, every name is ASCII,
     * every array names its elements 0, 1, 2… and every value is a string of well-formed UTF-8, an Int32, Int64,
     * double other than NaN, boolean, null, date, ObjectId, document or array ({@link BinaryItemRawBson} writes each
     * of these back as it came); anything else (a binary, a decimal, a regex…) says null, however it reads back.
     * An insert keeps such a document's bytes as its point-find reply ({@link io.tetradb.mongo.store.PointReplyCache}).
     */
    static String lastReadsBackAsIs() {
        return SCRATCH.get().asIsId;
    }

    /**
     * bounds-fold (issue 17): {@link #toEncoded} of a document whose bounds nobody has checked yet (an insert's, from
     * {@link UncheckedRawDocument#encodedOrNull}), the same one walk checking them as it reads: before a nested
     * document, a string or a binary is read, its declared length must fit inside what contains it (as
     * {@link BsonBounds} requires), so nothing is allocated by a declared length; an unknown type is the reader's
     * error; nesting stops at {@link Limits#MAX_NESTING_DEPTH}, below {@link BsonBounds#MAX_DEPTH}; an {@code _id}
     * that is not first or not one of the four scalars read in place is not looked up. Null for anything this walk
     * declines, refuses or fails on: the caller then checks the document with {@link BsonBounds}, which gives the
     * error (and so the same words as before) or passes it to the general path.
     */
    static io.tetradb.core.store.EncodedItem toEncodedChecking(RawBsonDocument doc,
                                                               io.tetradb.core.store.ItemCodec codec) {
        try {
            return toEncoded(doc, codec, false);
        } catch (RuntimeException broken) { // the reader's own refusals (a size mismatch, an unknown type, ...)
            return null;
        }
    }

    /** {@code trusted}: the document's bounds were checked by {@link BsonBounds} before. */
    private static io.tetradb.core.store.EncodedItem toEncoded(RawBsonDocument doc,
                                                               io.tetradb.core.store.ItemCodec codec,
                                                               boolean trusted) {
        org.bson.ByteBuf buf = doc.getByteBuffer();
        java.nio.ByteBuffer bytes = buf.asNIO();
        if (bytes.remaining() > Limits.MAX_BSON_OBJECT_SIZE || !bytes.hasArray()) {
            return null;
        }
        Scratch scratch = SCRATCH.get();
        io.tetradb.core.item.BinaryItemStreamWriter w = scratch.writer;
        if (w == null) {
            w = codec.itemStreamWriter();
            scratch.writer = w;
        }
        w.reset();
        scratch.asIs = true; // encode() clears it at a value that does not read back as it came
        scratch.asIsId = null; // set once the walk below has mapped the whole document
        boolean asIs = true;
        String coreId;
        // the library's reader over an input that takes repeated names from this thread's cache (mongo-encode)
        CachedNamesBsonInput in = new CachedNamesBsonInput(buf, scratch.names);
        try (BsonBinaryReader r = new BsonBinaryReader(in)) {
            r.readStartDocument();
            BsonType type = r.readBsonType();
            String name = type == BsonType.END_OF_DOCUMENT ? null : r.readName();
            BsonValue id;
            if ("_id".equals(name)) {
                if (type == BsonType.STRING) {
                    int n = sized(bytes, in.getPosition(), 0, bytes.limit()) - 1;
                    asIs = n >= 0 && wellFormedUtf8(bytes.array(), bytes.arrayOffset() + in.getPosition() + 4, n);
                } else {
                    asIs = type == BsonType.INT32 || type == BsonType.INT64 || type == BsonType.OBJECT_ID;
                }
                id = firstId(r, type, doc, trusted);
                type = r.readBsonType();
                name = type == BsonType.END_OF_DOCUMENT ? null : r.readName();
            } else {
                id = trusted ? doc.get("_id") : null; // unchecked: no lookup that decodes a value (the general path)
                asIs = false; // a read puts _id first
            }
            JsonNode typedId = typedScalarId(id);
            if (typedId == null) {
                return null;
            }
            w.startObject();
            w.name("id");
            coreId = IdCodec.encode(id);
            w.string(coreId);
            w.name("_id");
            w.value(typedId);
            while (type != BsonType.END_OF_DOCUMENT) {
                if (!name.equals("_id")) {
                    if (name.startsWith("$")) {
                        return null;
                    }
                    asIs &= in.lastCStringAscii();
                    String stored = DocumentMapper.storedName(name);
                    if (stored == name) {
                        name(in, name, w);
                    } else {
                        w.name(stored);
                    }
                    if (!encode(r, in, bytes, w, 1, scratch, bytes.limit())) {
                        return null;
                    }
                } else {
                    r.skipValue();
                    asIs = false; // a second _id: the read gives the first only
                }
                type = r.readBsonType();
                name = type == BsonType.END_OF_DOCUMENT ? null : r.readName();
            }
            r.readEndDocument();
            w.endObject();
        } catch (IllegalArgumentException | BoundsBroken e) { // a repeated name (the tree keeps the last), the
            return null;                                        // nesting limit, a length past its container
        }
        scratch.asIsId = asIs && scratch.asIs ? coreId : null;
        // the core's writer notes whether a top-level name is a system property's (none here: every top-level name
        // went through DocumentMapper.storedName, which escapes them), so the core looks for none in the bytes
        io.tetradb.core.store.EncodedItem item = io.tetradb.core.store.EncodedItem.of(w);
        if (item.bodyLength() > 256 * 1024) {
            scratch.writer = null;
        }
        return item;
    }

    /**
     * Whether the document's first element is named {@code _id}: its first element's header read from the bytes the
     * request decoder has bounds-checked (a type byte, then the C string {@code _id}), with no reader and no String
     * per document (mongo-encode).
     */
    static boolean firstNameIsId(RawBsonDocument doc) {
        java.nio.ByteBuffer b = doc.getByteBuffer().asNIO();
        return firstNameIsId(b.array(), b.arrayOffset() + b.position(), b.remaining());
    }

    /** As {@link #firstNameIsId(RawBsonDocument)}, of the {@code n} bytes of a document at {@code a[p]}. */
    static boolean firstNameIsId(byte[] a, int p, int n) {
        // int32 size · type · '_' 'i' 'd' NUL: 9 bytes, and a type byte of 0 ends the document (no element)
        return n >= 9 && a[p + 4] != 0 && a[p + 5] == '_' && a[p + 6] == 'i' && a[p + 7] == 'd' && a[p + 8] == 0;
    }

    /**
     * The value of an {@code _id} read as the document's first field, as {@code doc.get("_id")} gives it: the usual
     * scalar types read in place, others through {@link RawBsonDocument#get} (the reader is moved past it).
     */
    private static BsonValue firstId(BsonBinaryReader r, BsonType type, RawBsonDocument doc, boolean trusted) {
        switch (type) {
            case INT32:
                return new org.bson.BsonInt32(r.readInt32());
            case INT64:
                return new org.bson.BsonInt64(r.readInt64());
            case STRING:
                return new org.bson.BsonString(r.readString());
            case OBJECT_ID:
                return new org.bson.BsonObjectId(r.readObjectId());
            default:
                r.skipValue();
                // unchecked bytes: no decode of a value (a binary's declared length would be allocated)
                return trusted ? doc.get("_id") : null;
        }
    }

    /**
     * Writes the name the reader has just read: an ASCII name (as the input found it, mongo-encode) is copied from
     * the bytes (it ends right before the input's position, with its NUL), any other as its String.
     */
    private static void name(CachedNamesBsonInput in, String name, io.tetradb.core.item.BinaryItemStreamWriter w) {
        if (in.lastCStringAscii()) {
            int n = name.length();
            w.name(in.array(), in.arrayPosition() - 1 - n, n);
        } else {
            w.name(name);
        }
    }

    /**
     * Writes the value the reader is at, inside a document or array that ends (past its zero byte) at {@code end}
     * (a position in {@code bytes}); false for the general path. A nested document's, a string's or a binary's
     * declared length is checked against {@code end} before it is read ({@link BoundsBroken}), as
     * {@link BsonBounds} checks it: the reader alone would allocate a binary's declared length.
     */
    private static boolean encode(BsonBinaryReader r, CachedNamesBsonInput in, java.nio.ByteBuffer bytes,
                                  io.tetradb.core.item.BinaryItemStreamWriter w, int depth, Scratch scratch,
                                  int end) {
        switch (r.getCurrentBsonType()) {
            case DOCUMENT -> {
                if (depth + 1 > Limits.MAX_NESTING_DEPTH) {
                    return false;
                }
                int inner = nestedEnd(bytes, in.getPosition(), end);
                w.startObject();
                r.readStartDocument();
                while (r.readBsonType() != BsonType.END_OF_DOCUMENT) {
                    String name = r.readName();
                    if (name.startsWith("$")) {
                        return false;
                    }
                    scratch.asIs &= in.lastCStringAscii();
                    name(in, name, w);
                    if (!encode(r, in, bytes, w, depth + 1, scratch, inner)) {
                        return false;
                    }
                }
                r.readEndDocument();
                w.endObject();
                return true;
            }
            case ARRAY -> {
                if (depth + 1 > Limits.MAX_NESTING_DEPTH) {
                    return false;
                }
                int inner = nestedEnd(bytes, in.getPosition(), end);
                w.startArray();
                r.readStartArray();
                int index = 0;
                int at = in.arrayPosition();
                while (r.readBsonType() != BsonType.END_OF_DOCUMENT) {
                    // the reader skips an element's name: a read names them 0, 1, 2…, so others do not read back
                    if (scratch.asIs && !indexName(in.array(), at + 1, in.arrayPosition() - 1, index)) {
                        scratch.asIs = false;
                    }
                    index++;
                    if (!encode(r, in, bytes, w, depth + 1, scratch, inner)) {
                        return false;
                    }
                    at = in.arrayPosition();
                }
                r.readEndArray();
                w.endArray();
                return true;
            }
            case STRING -> {
                // BSON's string: int32 length (with the NUL) · UTF-8 · NUL. Well-formed UTF-8 (ASCII included) is
                // copied as it is (TB1 holds UTF-8 too); anything else is decoded as the driver decodes it (malformed
                // bytes become U+FFFD)
                int at = r.getBsonInput().getPosition();
                int n = sized(bytes, at, 0, end) - 1;
                int from = bytes.arrayOffset() + at + 4;
                byte[] a = bytes.array();
                // within its document or array (checked above), so within the view of the request's frame
                if (n >= 0 && a[from + n] == 0 && wellFormedUtf8(a, from, n)) {
                    r.skipValue();
                    w.string(a, from, n);
                } else {
                    scratch.asIs = false; // replaced or cut where it was not UTF-8
                    w.string(r.readString());
                }
                return true;
            }
            case INT32 -> w.int32(r.readInt32());
            case INT64 -> w.int64(r.readInt64());
            case DOUBLE -> {
                double d = r.readDouble();
                if (d != d) {
                    scratch.asIs = false; // a NaN's payload is not promised to survive
                }
                w.float64(d);
            }
            case BOOLEAN -> w.bool(r.readBoolean());
            case NULL -> {
                r.readNull();
                w.nullValue();
            }
            case DATE_TIME -> {
                long ms = r.readDateTime();
                if (ms < MIN_MS || ms > MAX_MS) {
                    return false; // beyond the typed model's dates: tagged Extended JSON on the general path
                }
                w.dateTime(ms * 10_000L, io.tetradb.core.value.DateTimeNode.NO_OFFSET);
            }
            case OBJECT_ID -> {
                int at = bytes.arrayOffset() + r.getBsonInput().getPosition();
                r.skipValue(); // checks the 12 bytes are there before they are copied
                System.arraycopy(bytes.array(), at, scratch.objectId, 0, 12);
                w.objectId(scratch.objectId);
            }
            default -> {
                if (r.getCurrentBsonType() == BsonType.BINARY) {
                    sized(bytes, r.getBsonInput().getPosition(), 1, end); // the reader allocates what it declares
                }
                JsonNode v = value(r, depth); // the typed scalars, as the tree path maps them
                if (v == null) {
                    return false;
                }
                scratch.asIs = false; // not among the types promised to read back byte for byte
                w.value(v);
            }
        }
        return true;
    }

    /** Whether {@code a[from, to)} is the decimal name of array element {@code index} ("0", "1", … "10", …). */
    private static boolean indexName(byte[] a, int from, int to, int index) {
        if (index < 10) {
            return to - from == 1 && a[from] == '0' + index;
        }
        for (int i = to - 1; i >= from; i--) {
            if (a[i] != '0' + index % 10) {
                return false;
            }
            index /= 10;
            if (index == 0) {
                return i == from;
            }
        }
        return false;
    }

    /**
     * The end of the document or array whose size field is at {@code at}, which must fit before the zero byte that
     * ends its container ({@code end} is past that byte), as {@link BsonBounds} requires.
     */
    private static int nestedEnd(java.nio.ByteBuffer bytes, int at, int end) {
        if (at + 4 > end - 1) {
            throw BoundsBroken.INSTANCE;
        }
        int size = bytes.getInt(at);
        if (size < 5 || (long) at + size > end - 1) {
            throw BoundsBroken.INSTANCE;
        }
        return at + size;
    }

    /**
     * The length field at {@code at} of a string ({@code extra} 0: the length counts its zero byte, at least 1) or
     * a binary ({@code extra} 1: its subtype byte follows), whose bytes must fit before the zero byte that ends its
     * container, as {@link BsonBounds} requires.
     */
    private static int sized(java.nio.ByteBuffer bytes, int at, int extra, int end) {
        if (at + 4 > end - 1) {
            throw BoundsBroken.INSTANCE;
        }
        int size = bytes.getInt(at);
        if (size < 1 - extra || (long) at + 4 + extra + size > end - 1) {
            throw BoundsBroken.INSTANCE;
        }
        return size;
    }

    /** A declared length running past its container: the walk stops, {@link BsonBounds} words the error. */
    private static final class BoundsBroken extends RuntimeException {
        static final BoundsBroken INSTANCE = new BoundsBroken();

        private BoundsBroken() {
            super("a declared length runs past its container", null, false, false);
        }
    }

    /** The dates a {@code DateTimeNode} holds (100 ns ticks in a long), as {@link BsonToTyped} bounds them. */
    private static final long MAX_MS = Long.MAX_VALUE / 10_000L;
    private static final long MIN_MS = Long.MIN_VALUE / 10_000L;

    /**
     * True when {@code a[from, from+n)} is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
     * above U+10FFFF), i.e. exactly the bytes the JDK's decoder would decode without a replacement and encode back.
     */
    static boolean wellFormedUtf8(byte[] a, int from, int n) {
        int i = from;
        int end = from + n;
        while (i < end) {
            if (i + 8 <= end && ((long) LONGS.get(a, i) & 0x8080808080808080L) == 0) {
                i += 8; // eight ASCII bytes
                continue;
            }
            int b = a[i];
            if (b >= 0) {
                i++;
                continue;
            }
            b &= 0xFF;
            if (b >= 0xC2 && b <= 0xDF) {
                if (i + 1 >= end || !continuation(a[i + 1])) {
                    return false;
                }
                i += 2;
            } else if (b >= 0xE0 && b <= 0xEF) {
                if (i + 2 >= end || !continuation(a[i + 1]) || !continuation(a[i + 2])) {
                    return false;
                }
                int b1 = a[i + 1] & 0xFF;
                if (b == 0xE0 && b1 < 0xA0 || b == 0xED && b1 > 0x9F) { // overlong; surrogates
                    return false;
                }
                i += 3;
            } else if (b >= 0xF0 && b <= 0xF4) {
                if (i + 3 >= end || !continuation(a[i + 1]) || !continuation(a[i + 2]) || !continuation(a[i + 3])) {
                    return false;
                }
                int b1 = a[i + 1] & 0xFF;
                if (b == 0xF0 && b1 < 0x90 || b == 0xF4 && b1 > 0x8F) { // overlong; above U+10FFFF
                    return false;
                }
                i += 4;
            } else {
                return false;
            }
        }
        return true;
    }

    private static final java.lang.invoke.VarHandle LONGS = java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
            long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    private static boolean continuation(byte b) {
        return (b & 0xC0) == 0x80;
    }


    /** The value the reader is at, or null for the general path. */
    private static JsonNode value(BsonBinaryReader r, int depth) {
        switch (r.getCurrentBsonType()) {
            case DOCUMENT -> {
                if (depth + 1 > Limits.MAX_NESTING_DEPTH) {
                    return null;
                }
                ObjectNode o = F.objectNode();
                r.readStartDocument();
                while (r.readBsonType() != BsonType.END_OF_DOCUMENT) {
                    String name = r.readName();
                    if (name.startsWith("$")) {
                        return null;
                    }
                    JsonNode v = value(r, depth + 1);
                    if (v == null) {
                        return null;
                    }
                    o.set(name, v);
                }
                r.readEndDocument();
                return o;
            }
            case ARRAY -> {
                if (depth + 1 > Limits.MAX_NESTING_DEPTH) {
                    return null;
                }
                ArrayNode a = F.arrayNode();
                r.readStartArray();
                while (r.readBsonType() != BsonType.END_OF_DOCUMENT) {
                    // an array element's name (its index) is consumed with its type
                    JsonNode v = value(r, depth + 1);
                    if (v == null) {
                        return null;
                    }
                    a.add(v);
                }
                r.readEndArray();
                return a;
            }
            case STRING -> {
                return TextNode.valueOf(r.readString());
            }
            case INT32 -> {
                return IntNode.valueOf(r.readInt32());
            }
            case INT64 -> {
                return LongNode.valueOf(r.readInt64());
            }
            case DOUBLE -> {
                return DoubleNode.valueOf(r.readDouble());
            }
            case BOOLEAN -> {
                return BooleanNode.valueOf(r.readBoolean());
            }
            case NULL -> {
                r.readNull();
                return NullNode.getInstance();
            }
            case DATE_TIME -> {
                return BsonToTyped.scalar(new BsonDateTime(r.readDateTime()));
            }
            case OBJECT_ID -> {
                return BsonToTyped.scalar(new org.bson.BsonObjectId(r.readObjectId()));
            }
            case DECIMAL128 -> {
                return BsonToTyped.scalar(new BsonDecimal128(r.readDecimal128()));
            }
            case BINARY -> {
                return BsonToTyped.scalar(r.readBinaryData());
            }
            case TIMESTAMP -> {
                return BsonToTyped.scalar(r.readTimestamp());
            }
            case REGULAR_EXPRESSION -> {
                return BsonToTyped.scalar(r.readRegularExpression());
            }
            default -> {
                return null; // MinKey, MaxKey and the deprecated types: the general path
            }
        }
    }
}
