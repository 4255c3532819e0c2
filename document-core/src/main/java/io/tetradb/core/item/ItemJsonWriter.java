package io.tetradb.core.item;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import static io.tetradb.core.item.BinaryItemFormat.*;

/**
 * A binary stored item written straight to JSON text, without building a tree: what the REST faces answer and the
 * change feed hands on. The output is byte for byte what the JSON-text format stores for the same item (the user's
 * fields in their order, then {@code _rid _self _etag _attachments _ts}), typed values as their JSON view.
 * Strings, numbers, booleans, objects and arrays are copied token by token; the rarer typed values go through their
 * node's own JSON view.
 */
public final class ItemJsonWriter {
    /** As ItemCodec's: Jackson's Schubfach double writer, so doubles print as the JSON-text format prints them. */
    private static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder()
            .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER).build());
    private static final SerializerProvider PROVIDER = MAPPER.getSerializerProviderInstance();
    private static final String ATTACHMENTS = "attachments/";

    private ItemJsonWriter() {
    }

    /** The binary stored item {@code stored} ({@code 02 · lsn · TB1 · trailer}) as JSON text. */
    public static byte[] storedJson(byte[] stored) {
        return json(stored, StoredItems.HEADER, -1);
    }

    /**
     * The item whose TB1 object starts at {@code at} (followed by the system-property trailer) as JSON text; with
     * {@code lsn >= 0} a last field {@code "_lsn": lsn} (the change feed's form).
     */
    public static byte[] json(byte[] b, int at, long lsn) {
        ByteArrayBuilder out = new ByteArrayBuilder(b.length + 64);
        try (JsonGenerator g = MAPPER.getFactory().createGenerator(out)) {
            g.writeStartObject();
            int after = fields(g, b, at);
            // trailer: rid · self prefix · etag (varint-length UTF-8 each) · ts (i64)
            long v = BinaryItemReader.varintAt(b, after);
            String rid = string(b, v);
            after = next(v);
            v = BinaryItemReader.varintAt(b, after);
            String selfPrefix = string(b, v);
            after = next(v);
            v = BinaryItemReader.varintAt(b, after);
            String etag = string(b, v);
            after = next(v);
            g.writeStringField("_rid", rid);
            g.writeStringField("_self", selfPrefix + rid + "/");
            g.writeStringField("_etag", "\"" + etag + "\"");
            g.writeStringField("_attachments", ATTACHMENTS);
            g.writeNumberField("_ts", Bytes.i64(b, after));
            if (lsn >= 0) {
                g.writeNumberField("_lsn", lsn);
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** The user value at {@code at} (any TB1 value) as JSON text, typed values as their JSON view. */
    public static byte[] valueJson(byte[] b, int at) {
        ByteArrayBuilder out = new ByteArrayBuilder(64);
        try (JsonGenerator g = MAPPER.getFactory().createGenerator(out)) {
            value(g, b, at);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static int next(long varint) {
        return (int) (varint >>> 32) + (int) varint;
    }

    private static String string(byte[] b, long varint) {
        return new String(b, (int) (varint >>> 32), (int) varint, StandardCharsets.UTF_8);
    }

    /** Writes the fields of the object at {@code at} (without its braces); returns the offset after the object. */
    private static int fields(JsonGenerator g, byte[] b, int at) throws IOException {
        int tag = b[at];
        if (tag != OBJECT && tag != OBJECT_WIDE) {
            throw new IllegalArgumentException("not an object at " + at);
        }
        int end = at + 5 + Bytes.i32(b, at + 1);
        long cv = BinaryItemReader.varintAt(b, at + 5);
        int count = (int) cv;
        int p = (int) (cv >>> 32) + (tag == OBJECT ? 2 : 4) * count;
        for (int i = 0; i < count; i++) {
            long kv = BinaryItemReader.varintAt(b, p);
            int kstart = (int) (kv >>> 32);
            int klen = (int) kv;
            g.writeFieldName(FieldNames.name(b, kstart, klen));
            p = value(g, b, kstart + klen);
        }
        return end;
    }

    /** Writes the value at {@code at}; returns the offset after it. */
    private static int value(JsonGenerator g, byte[] b, int at) throws IOException {
        int tag = b[at];
        int p = at + 1;
        switch (tag) {
            case NULL -> g.writeNull();
            case FALSE -> g.writeBoolean(false);
            case TRUE -> g.writeBoolean(true);
            case INT32 -> g.writeNumber(Bytes.i32(b, p));
            case INT64 -> g.writeNumber(Bytes.i64(b, p));
            case DOUBLE -> g.writeNumber(Double.longBitsToDouble(Bytes.i64(b, p)));
            case STRING -> {
                long v = BinaryItemReader.varintAt(b, p);
                int start = (int) (v >>> 32);
                int len = (int) v;
                if (plainUtf8(b, start, len)) {
                    g.writeUTF8String(b, start, len);
                } else {
                    g.writeString(Utf8.decode(b, start, len));
                }
                return start + len;
            }
            case OBJECT, OBJECT_WIDE -> {
                g.writeStartObject();
                int end = fields(g, b, at);
                g.writeEndObject();
                return end;
            }
            case ARRAY -> {
                int end = p + 4 + Bytes.i32(b, p);
                long cv = BinaryItemReader.varintAt(b, p + 4);
                int count = (int) cv;
                int q = (int) (cv >>> 32);
                g.writeStartArray();
                for (int i = 0; i < count; i++) {
                    q = value(g, b, q);
                }
                g.writeEndArray();
                return end;
            }
            default -> BinaryItemReader.read(b, at).serialize(g, PROVIDER); // typed and wide numbers: their view
        }
        return BinaryItemReader.skip(b, at);
    }

    /** False when the string holds the 3-byte form of a lone surrogate (0xED leads it), which Jackson would copy. */
    private static boolean plainUtf8(byte[] b, int start, int len) {
        if (Utf8.isAscii(b, start, len)) {
            return true;
        }
        for (int i = start; i < start + len; i++) {
            if (b[i] == (byte) 0xED) {
                return false;
            }
        }
        return true;
    }
}
