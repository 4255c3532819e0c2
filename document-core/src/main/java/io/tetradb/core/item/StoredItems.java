package io.tetradb.core.item;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.nio.charset.StandardCharsets;

/**
 * The stored form of an item in the binary format: {@code 02 · lsn(8) · TB1 object (the user's item) · rid ·
 * self prefix · etag · ts}, where the three strings are varint-length UTF-8 and ts an i64. The system properties sit
 * in a trailer rather than in the object because they are only known under the partition's lock, after the body was
 * encoded outside it; read back, they follow the user's fields as {@code _rid _self _etag _attachments _ts}, exactly
 * as the JSON-text format ({@code 01 · lsn(8) · JSON}) has them. The header (format byte, lsn) is shared by both.
 */
public final class StoredItems {
    /** The format byte of binary stored items (JSON-text items have 0x01). */
    public static final byte FORMAT = 0x02;
    public static final int HEADER = 9;

    private StoredItems() {
    }

    public static boolean isBinary(byte[] stored) {
        return stored.length > 0 && stored[0] == FORMAT;
    }

    /** True when {@code body} is a TB1 object (a JSON body starts with '{'). */
    public static boolean isBinaryBody(byte[] body) {
        return body.length > 0 && isBinaryBody(body[0]);
    }

    /** True when {@code tag} starts a TB1 object. */
    public static boolean isBinaryBody(byte tag) {
        return tag == BinaryItemFormat.OBJECT || tag == BinaryItemFormat.OBJECT_WIDE;
    }

    /** The stored bytes of a binary {@code body} with its header and system properties. */
    public static byte[] finish(byte[] body, long lsn, byte[] rid, byte[] selfPrefix, String etag, long ts) {
        return finish(body, 0, body.length, lsn, rid, selfPrefix, etag, ts);
    }

    // ---- item-copies (issue 17): the stored item written around its body, not copied from it

    /**
     * The header a {@link #frame} starts with: the format byte and an lsn of -1, which no stored item has (lsns start
     * at 1): the frame is not finished yet.
     */
    public static final byte[] FRAME_HEADER = {FORMAT, -1, -1, -1, -1, -1, -1, -1, -1};

    /**
     * The length of a trailer of a rid, self prefix and etag of these UTF-8 lengths: what a writer leaves after a
     * body ({@link BinaryItemWriter#write(byte[], com.fasterxml.jackson.databind.JsonNode, ItemTermRecorder, int)})
     * for {@link #finish(byte[], long, byte[], byte[], String, long)} to fill it in place.
     */
    public static int trailerLength(int ridLength, int selfPrefixLength, int etagLength) {
        return varintLength(ridLength) + ridLength + varintLength(selfPrefixLength) + selfPrefixLength
                + varintLength(etagLength) + etagLength + 8;
    }

    /**
     * Whether {@code b} is a frame, a body a writer wrote after {@link #FRAME_HEADER} with room after it: the stored
     * item to be, finished by {@link #finish(byte[], long, byte[], byte[], String, long)}, in place when it is still
     * unfinished and its room is the trailer's exact length, else by a copy of its body. (A body, TB1 or JSON text,
     * never starts with the format byte.)
     */
    public static boolean isFrame(byte[] b) {
        return b.length > HEADER && b[0] == FORMAT;
    }

    /** The length of the body a frame holds (after its header), or of {@code body} itself when it is not a frame. */
    public static int bodyLength(byte[] body) {
        return isFrame(body) ? BinaryItemReader.skip(body, HEADER) - HEADER : body.length;
    }

    /**
     * The stored bytes of a frame ({@link #isFrame}) with the given lsn and system properties: {@code frame} itself,
     * filled in, when it is unfinished (its lsn -1) and has exactly the trailer's room; else a new array, as from the
     * body alone. A frame is finished in place once: finished again (a transaction retried), it is copied.
     */
    public static byte[] finishFrame(byte[] frame, long lsn, byte[] rid, byte[] selfPrefix, String etag, long ts) {
        int bodyEnd = BinaryItemReader.skip(frame, HEADER);
        int n = etag.length();
        if (Bytes.i64(frame, 1) != -1L || frame.length - bodyEnd != trailerLength(rid.length, selfPrefix.length, n)
                || !isAscii(etag)) {
            return finish(frame, HEADER, bodyEnd - HEADER, lsn, rid, selfPrefix, etag, ts);
        }
        putHeader(frame, lsn);
        int at = putString(frame, bodyEnd, rid);
        at = putString(frame, at, selfPrefix);
        frame[at++] = (byte) n; // n < 128: the trailer's length above counted a one-byte varint
        for (int i = 0; i < n; i++) {
            frame[at++] = (byte) etag.charAt(i); // an etag is ASCII (hex digits and '-'): its chars are its bytes
        }
        Bytes.putI64(frame, at, ts);
        return frame;
    }

    /** True for an ASCII string shorter than 128 chars (a one-byte varint length). */
    private static boolean isAscii(String s) {
        if (s.length() >= 128) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    /** {@code body[from, from + n)} stored: header, body and trailer copied into one new array. */
    private static byte[] finish(byte[] body, int from, int n, long lsn, byte[] rid, byte[] selfPrefix, String etag,
                                 long ts) {
        byte[] etagBytes = etag.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[HEADER + n + trailerLength(rid.length, selfPrefix.length, etagBytes.length)];
        putHeader(out, lsn);
        System.arraycopy(body, from, out, HEADER, n);
        putTrailer(out, HEADER + n, rid, selfPrefix, etagBytes, ts);
        return out;
    }

    private static void putHeader(byte[] out, long lsn) {
        out[0] = FORMAT;
        for (int i = 0; i < 8; i++) {
            out[1 + i] = (byte) (lsn >>> (56 - 8 * i));
        }
    }

    private static void putTrailer(byte[] out, int at, byte[] rid, byte[] selfPrefix, byte[] etagBytes, long ts) {
        at = putString(out, at, rid);
        at = putString(out, at, selfPrefix);
        at = putString(out, at, etagBytes);
        Bytes.putI64(out, at, ts);
    }

    private static int varintLength(int v) {
        int n = 1;
        while ((v & ~0x7F) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }

    private static int putString(byte[] out, int at, byte[] s) {
        int v = s.length;
        while ((v & ~0x7F) != 0) {
            out[at++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out[at++] = (byte) v;
        System.arraycopy(s, 0, out, at, s.length);
        return at + s.length;
    }

    /** The whole item, system properties included, as a tree. */
    public static ObjectNode parse(byte[] stored) {
        TreeBuilder builder = TreeBuilder.forItem(false);
        return withTrailer(stored, (ObjectNode) BinaryItemWalker.read(stored, HEADER, builder), builder.root());
    }

    /**
     * As {@link #parse(byte[])} for a change feed, whose item gets {@code _lsn} after the system properties: the tree
     * is made with room for it.
     */
    public static ObjectNode parseChange(byte[] stored) {
        TreeBuilder builder = TreeBuilder.forItem(true);
        return withTrailer(stored, (ObjectNode) BinaryItemWalker.read(stored, HEADER, builder), builder.root());
    }

    /** The same node for every item: Jackson's text nodes are immutable. */
    private static final TextNode ATTACHMENTS = TextNode.valueOf("attachments/");

    private static ObjectNode withTrailer(byte[] stored, ObjectNode item, ItemFields fields) {
        appendTrailer(stored, fields);
        return item;
    }

    /**
     * core-read (issue 17): the whole item as a tree whose objects are decoded from {@code stored} when first touched
     * ({@link LazyObjectFields}): equal to {@link #parse(byte[])}'s, field for field and node class for node class,
     * once looked at; a caller that reads a few fields (or only the item's size) does not decode the rest. Safe for
     * concurrent readers, as a decoded tree is.
     */
    public static ObjectNode parseLazily(byte[] stored) {
        return new ObjectNode(JsonNodeFactory.instance, LazyObjectFields.item(stored, 0));
    }

    /** Appends (or puts, when a user name starts with '_') the system properties of the trailer to the item's fields. */
    static void appendTrailer(byte[] stored, ItemFields fields) {
        int at = BinaryItemReader.skip(stored, HEADER);
        long v = BinaryItemReader.varintAt(stored, at);
        String rid = string(stored, v);
        at = (int) (v >>> 32) + (int) v;
        v = BinaryItemReader.varintAt(stored, at);
        String selfPrefix = FieldNames.name(stored, (int) (v >>> 32), (int) v); // the container's: decoded once
        at = (int) (v >>> 32) + (int) v;
        v = BinaryItemReader.varintAt(stored, at);
        String etag = quoted(stored, v); // an etag is a quoted string, as in the JSON form
        at = (int) (v >>> 32) + (int) v;
        long ts = Bytes.i64(stored, at);
        if (fields.noUnderscoredNames()) {
            // core-read: the user's fields hold none of these names (none starts with '_'): appended, no lookups
            fields.append("_rid", TextNode.valueOf(rid));
            fields.append("_self", TextNode.valueOf(selfPrefix + rid + "/"));
            fields.append("_etag", TextNode.valueOf(etag));
            fields.append("_attachments", ATTACHMENTS);
            fields.append("_ts", LongNode.valueOf(ts));
            return;
        }
        fields.put("_rid", TextNode.valueOf(rid));
        fields.put("_self", TextNode.valueOf(selfPrefix + rid + "/"));
        fields.put("_etag", TextNode.valueOf(etag));
        fields.put("_attachments", ATTACHMENTS);
        fields.put("_ts", LongNode.valueOf(ts));
    }

    /** The {@code _ts} of a binary stored item, read from its trailer without decoding the item. */
    public static long ts(byte[] stored) {
        int at = BinaryItemReader.skip(stored, HEADER);
        for (int i = 0; i < 3; i++) { // rid, self prefix, etag
            long v = BinaryItemReader.varintAt(stored, at);
            at = (int) (v >>> 32) + (int) v;
        }
        return Bytes.i64(stored, at);
    }

    /**
     * The item as far as a reader of the top-level fields {@code names} sees it: those of them it has, decoded, and
     * {@code _ts}; nothing else is decoded (an expiry check, a unique key, a partition key).
     */
    public static ObjectNode partial(byte[] stored, java.util.Collection<String> names) {
        ObjectNode out = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        for (String name : names) {
            int at = BinaryItemReader.find(stored, HEADER, name);
            if (at >= 0) {
                out.set(name, BinaryItemReader.read(stored, at));
            }
        }
        out.put("_ts", ts(stored));
        return out;
    }

    /** The system properties a binary stored item keeps in its trailer (the item's own fields left undecoded). */
    public record Trailer(String rid, String selfPrefix, String etag, long ts) {
    }

    /**
     * The trailer of a binary stored item, read without decoding the item: for a face that answers a write with the
     * body it was sent plus these properties rather than re-encoding the stored item.
     */
    public static Trailer trailer(byte[] stored) {
        int at = BinaryItemReader.skip(stored, HEADER);
        long v = BinaryItemReader.varintAt(stored, at);
        String rid = string(stored, v);
        at = (int) (v >>> 32) + (int) v;
        v = BinaryItemReader.varintAt(stored, at);
        String selfPrefix = string(stored, v);
        at = (int) (v >>> 32) + (int) v;
        v = BinaryItemReader.varintAt(stored, at);
        String etag = string(stored, v);
        at = (int) (v >>> 32) + (int) v;
        return new Trailer(rid, selfPrefix, etag, Bytes.i64(stored, at));
    }

    /** The string at {@code v} (a varint's value and end) in double quotes, made in one copy. */
    private static String quoted(byte[] b, long v) {
        int from = (int) (v >>> 32);
        int n = (int) v;
        byte[] q = new byte[n + 2];
        q[0] = '"';
        System.arraycopy(b, from, q, 1, n);
        q[n + 1] = '"';
        return new String(q, StandardCharsets.UTF_8);
    }

    private static String string(byte[] b, long v) {
        return new String(b, (int) (v >>> 32), (int) v, StandardCharsets.UTF_8);
    }

    /** Whether the item has top-level field {@code name} (UTF-8), found through the field table. */
    public static boolean hasTopLevelField(byte[] stored, byte[] name, boolean systemProperty) {
        return systemProperty || BinaryItemReader.find(stored, HEADER, name) >= 0;
    }

    /** The offset of top-level user field {@code name} in {@code stored}, or -1. */
    public static int findTopLevel(byte[] stored, String name) {
        return BinaryItemReader.find(stored, HEADER, name);
    }
}
