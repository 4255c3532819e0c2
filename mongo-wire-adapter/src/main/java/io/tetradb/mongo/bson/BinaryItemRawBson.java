package io.tetradb.mongo.bson;

import io.tetradb.core.item.BinaryItemEvents;
import io.tetradb.core.item.BinaryItemReader;
import org.bson.RawBsonDocument;
import org.bson.types.Decimal128;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A stored binary (TB1) item transcoded straight into the BSON bytes of the Mongo document it stores: names and
 * strings are copied as the UTF-8 bytes both formats use, nothing is decoded into Java strings or value objects, and
 * the reply encoder copies the result as it is (the point read's hot path). The mapping is
 * {@link BinaryItemBson}'s: {@code _id} first, the core's and this face's top-level names left out, stored names
 * back to user names. The rare items it does not transcode — an earlier-shape sidecar or tagged value, another
 * face's item without {@code _id}, a big decimal or integer, a regex, the old binary subtype — come back as null
 * for {@link DocumentMapper#fromStored} to read.
 */
public final class BinaryItemRawBson implements BinaryItemEvents.Sink {
    private static final byte[] ID = BinaryItemReader.key("_id");
    private static final byte[] TYPES = BinaryItemReader.key(DocumentMapper.TYPES);
    private static final byte[] REF = BinaryItemReader.key(DbRefFields.REF);
    /** Top-level names never shown to Mongo clients (as {@link BinaryItemBson}'s). */
    private static final byte[][] HIDDEN = {ID, BinaryItemReader.key("id"), BinaryItemReader.key("_rid"),
            BinaryItemReader.key("_self"), BinaryItemReader.key("_etag"), BinaryItemReader.key("_attachments"),
            BinaryItemReader.key("_ts"), TYPES, BinaryItemReader.key(DocumentMapper.REPLACED)};

    /** The first bytes and the longest of the hidden names: a field that cannot be one is not compared with them. */
    private static final boolean[] HIDDEN_FIRST = new boolean[256];
    private static final int MAX_HIDDEN_LENGTH;
    /** BSON names of array elements "0".."255", each with its terminating NUL: an array's element names. */
    private static final byte[][] INDEX_NAMES = new byte[256][];

    static {
        int max = 0;
        for (byte[] hidden : HIDDEN) {
            HIDDEN_FIRST[hidden[0] & 0xFF] = true;
            max = Math.max(max, hidden.length);
        }
        MAX_HIDDEN_LENGTH = max;
        for (int i = 0; i < INDEX_NAMES.length; i++) {
            INDEX_NAMES[i] = (i + "\0").getBytes(StandardCharsets.US_ASCII);
        }
    }

    private byte[] out;
    private int n;
    /** Per open container (index = nesting level, the document itself is 1): where its size goes, array or not. */
    private int[] starts = new int[16];
    private boolean[] arrays = new boolean[16];
    private int[] counts = new int[16];
    private int level;
    /** The pending element name: a range of the item's bytes. */
    private byte[] keyBytes;
    private int keyOff;
    private int keyLen;
    /** The item's own object opens before its events (to put {@code _id} first): its start event is skipped. */
    private boolean rootOpen;
    private boolean failed;

    private BinaryItemRawBson(int sizeHint) {
        out = new byte[Math.max(64, sizeHint)];
    }

    /** The document of the item object at {@code off} as raw BSON, or null when {@link DocumentMapper} must read it. */
    public static RawBsonDocument read(byte[] b, int off) {
        int idAt = BinaryItemReader.find(b, off, ID);
        if (idAt < 0 || BinaryItemReader.find(b, off, TYPES) >= 0) {
            return null;
        }
        BinaryItemRawBson w = new BinaryItemRawBson(b.length - off + 64);
        w.push(false);
        w.keyBytes = ID;
        w.keyOff = 0;
        w.keyLen = ID.length;
        BinaryItemEvents.stream(b, idAt, w);
        w.rootOpen = true;
        BinaryItemEvents.stream(b, off, w);
        if (w.failed) {
            return null;
        }
        w.pop();
        return new RawBsonDocument(w.out, 0, w.n);
    }

    // ---- containers ---------------------------------------------------------------------------------------------

    private void push(boolean array) {
        level++;
        if (level == starts.length) {
            starts = Arrays.copyOf(starts, level * 2);
            arrays = Arrays.copyOf(arrays, level * 2);
            counts = Arrays.copyOf(counts, level * 2);
        }
        starts[level] = n;
        arrays[level] = array;
        counts[level] = 0;
        ensure(4);
        n += 4;
    }

    private void pop() {
        ensure(1);
        out[n++] = 0;
        putInt(starts[level], n - starts[level]);
        level--;
    }

    @Override
    public void startObject(int count, int depth) {
        if (rootOpen) {
            rootOpen = false; // the item itself: opened already
            return;
        }
        header(0x03);
        push(false);
    }

    @Override
    public boolean field(byte[] b, int off, int length, int depth) {
        if (level == 1) {
            if (length > 0 && length <= MAX_HIDDEN_LENGTH && HIDDEN_FIRST[b[off] & 0xFF]) { // most names: no compare
                for (byte[] hidden : HIDDEN) {
                    if (Arrays.equals(b, off, off + length, hidden, 0, hidden.length)) {
                        return false;
                    }
                }
            }
            if (length > 0 && b[off] == '~') { // a stored name back to the user's
                off++;
                length--;
            }
        } else if (counts[level] == 0 && length > 0 && b[off] == '$'
                && !Arrays.equals(b, off, off + length, REF, 0, REF.length)) {
            failed = true; // a tagged value of a type the typed model lacks: DocumentMapper reads it
        }
        for (int i = off; i < off + length; i++) {
            if (b[i] == 0) {
                failed = true; // not a BSON name
            }
        }
        keyBytes = b;
        keyOff = off;
        keyLen = length;
        return !failed;
    }

    @Override
    public void endObject(int depth) {
        if (level > 1) {
            pop();
        }
    }

    @Override
    public void startArray(int count, int depth) {
        header(0x04);
        push(true);
    }

    @Override
    public void endArray(int depth) {
        pop();
    }

    /** An element's type and name (an array's elements are named by their index). */
    private void header(int type) {
        if (arrays[level]) {
            int i = counts[level];
            byte[] index = i < INDEX_NAMES.length ? INDEX_NAMES[i]
                    : (i + "\0").getBytes(StandardCharsets.US_ASCII);
            ensure(1 + index.length);
            out[n++] = (byte) type;
            System.arraycopy(index, 0, out, n, index.length);
            n += index.length; // the NUL included
            counts[level]++;
            return;
        } else {
            ensure(2 + keyLen);
            out[n++] = (byte) type;
            System.arraycopy(keyBytes, keyOff, out, n, keyLen);
            n += keyLen;
        }
        out[n++] = 0;
        counts[level]++;
    }

    // ---- scalars --------------------------------------------------------------------------------------------------

    @Override
    public void nullValue() {
        header(0x0A);
    }

    @Override
    public void bool(boolean v) {
        header(0x08);
        ensure(1);
        out[n++] = (byte) (v ? 1 : 0);
    }

    @Override
    public void int32(int v) {
        header(0x10);
        writeInt(v);
    }

    @Override
    public void int64(long v) {
        header(0x12);
        writeLong(v);
    }

    @Override
    public void float64(double v) {
        header(0x01);
        writeLong(Double.doubleToRawLongBits(v));
    }

    @Override
    public void float32(float v) {
        float64(v);
    }

    @Override
    public void bigInteger(BigInteger v) {
        if (v.bitLength() < 64) {
            int64(v.longValue());
        } else {
            failed = true;
        }
    }

    @Override
    public void bigDecimal(BigDecimal v) {
        decimal128(v);
    }

    @Override
    public void decimal128(BigDecimal v) {
        try {
            decimal(new Decimal128(v));
        } catch (NumberFormatException | ArithmeticException notDecimal128) {
            failed = true; // shown as its text: DocumentMapper's
        }
    }

    @Override
    public void decimal128Special(int kind) {
        decimal(kind == 0 ? Decimal128.NaN : kind == 1 ? Decimal128.POSITIVE_INFINITY : Decimal128.NEGATIVE_INFINITY);
    }

    private void decimal(Decimal128 d) {
        header(0x13);
        writeLong(d.getLow());
        writeLong(d.getHigh());
    }

    @Override
    public void string(byte[] b, int off, int length) {
        header(0x02);
        writeInt(length + 1);
        ensure(length + 1);
        System.arraycopy(b, off, out, n, length);
        n += length;
        out[n++] = 0;
    }

    @Override
    public void dateTime(long ticks, int offsetMinutes) {
        header(0x09);
        writeLong(Math.floorDiv(ticks, 10_000L)); // milliseconds; finer ticks and an offset dropped
    }

    @Override
    public void binary(int subtype, byte[] b, int off, int length) {
        if (subtype == 2) {
            failed = true; // the old binary subtype nests a second length: the driver's writer adds it
            return;
        }
        header(0x05);
        writeInt(length);
        ensure(1 + length);
        out[n++] = (byte) subtype;
        System.arraycopy(b, off, out, n, length);
        n += length;
    }

    @Override
    public void objectId(byte[] b, int off) {
        header(0x07);
        ensure(12);
        System.arraycopy(b, off, out, n, 12);
        n += 12;
    }

    @Override
    public void uuid(byte[] b, int off) {
        header(0x05);
        writeInt(16);
        ensure(17);
        out[n++] = 4; // subtype 4: the standard representation, big-endian
        System.arraycopy(b, off, out, n, 16);
        n += 16;
    }

    @Override
    public void timestamp(long value) {
        header(0x11);
        writeLong(value);
    }

    @Override
    public void regex(String pattern, String options) {
        failed = true; // options are sorted and checked by the driver's BsonRegularExpression: DocumentMapper's
    }

    @Override
    public void minKey() {
        header(0xFF);
    }

    @Override
    public void maxKey() {
        header(0x7F);
    }

    // ---- bytes ----------------------------------------------------------------------------------------------------

    private void ensure(int more) {
        if (n + more > out.length) {
            out = Arrays.copyOf(out, Math.max(out.length * 2, n + more));
        }
    }

    private void writeInt(int v) {
        ensure(4);
        putInt(n, v);
        n += 4;
    }

    private void putInt(int at, int v) {
        out[at] = (byte) v;
        out[at + 1] = (byte) (v >>> 8);
        out[at + 2] = (byte) (v >>> 16);
        out[at + 3] = (byte) (v >>> 24);
    }

    private void writeLong(long v) {
        ensure(8);
        for (int i = 0; i < 8; i++) {
            out[n++] = (byte) (v >>> (8 * i));
        }
    }
}
