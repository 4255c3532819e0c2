package io.tetradb.core.store;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * Stored item bytes: {@code 01 · lsn(8) · JSON}. The JSON is the user's item followed by the system properties
 * ({@code _rid _self _etag _attachments _ts}); the lsn in the header gives the etag without parsing the JSON.
 * With the system property {@code tetradb.itemFormat=binary} new items are written in the binary format instead
 * ({@link io.tetradb.core.item.StoredItems}: {@code 02 · lsn(8) · TB1 ·} system properties); both formats are
 * always read, item by item, so a data directory may hold both and needs no conversion.
 */
public final class ItemCodec {
    public static final int HEADER = 9;
    private static final byte[] NO_HEADER = {};
    private static final byte FORMAT = 0x01;
    static final Set<String> SYSTEM_PROPERTIES = io.tetradb.core.item.SystemNames.NAMES;

    private final ObjectMapper mapper;
    /**
     * Write new items in the binary format (io.tetradb.core.item), the default; {@code -Dtetradb.itemFormat=json}
     * writes JSON text. Both formats are read either way.
     */
    private final boolean binary = !"json".equalsIgnoreCase(System.getProperty("tetradb.itemFormat", "binary"));
    private final int maxNestingDepth;
    /** Nodes only read features from it, so one instance serves every thread. */
    private final com.fasterxml.jackson.databind.SerializerProvider provider;

    public ItemCodec(ObjectMapper base, int maxNestingDepth) {
        JsonFactory factory = base.getFactory().copy()
                .setStreamWriteConstraints(StreamWriteConstraints.builder().maxNestingDepth(maxNestingDepth).build())
                // Jackson's Schubfach writer and fast parser: doubles were the costliest part of an item
                .enable(com.fasterxml.jackson.core.StreamWriteFeature.USE_FAST_DOUBLE_WRITER.mappedFeature())
                .enable(com.fasterxml.jackson.core.StreamReadFeature.USE_FAST_DOUBLE_PARSER.mappedFeature());
        this.mapper = new ObjectMapper(factory)
                .configure(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
        this.provider = mapper.getSerializerProviderInstance();
        this.maxNestingDepth = maxNestingDepth;
    }

    /** True when new items are written in the binary format. */
    public boolean writesBinary() {
        return binary;
    }

    /** The user part of an item as JSON (system properties left out; {@link #finish} appends the current ones). */
    public byte[] body(ObjectNode item) {
        try (BodyWriter writer = new BodyWriter()) {
            return writer.write(item);
        }
    }

    /**
     * Serialises the user parts of several items with one generator (a batch of 100 items would otherwise set up
     * 100 generators). System properties an item carries (read, changed, written back) are left out: by the binary
     * writer as it meets their names, for JSON text from a shallow copy without them.
     */
    public final class BodyWriter implements AutoCloseable {
        private ByteArrayBuilder out;
        private JsonGenerator gen;

        /**
         * item-copies (issue 17): in binary mode the item's body as a frame ({@code StoredItems.isFrame}): written
         * after the stored header with {@code trailerRoom} bytes after it, so {@link ItemCodec#finish} fills the
         * header and trailer in place instead of copying the body into the stored array; {@code recorder} (or null)
         * records the body's index terms in the same pass (write-cost), with the frame's offsets. JSON text as
         * {@link #write(ObjectNode)} (no terms recorded: recorder ignored).
         */
        public byte[] writeFrame(ObjectNode item, io.tetradb.core.item.ItemTermRecorder recorder, int trailerRoom) {
            return binary ? writeBinary(io.tetradb.core.item.StoredItems.FRAME_HEADER, item, recorder, trailerRoom)
                    : write(item);
        }

        /** The item's body without a frame's header and room (encoded items carrying system properties, patches). */
        public byte[] write(ObjectNode item) {
            if (binary) {
                return writeBinary(NO_HEADER, item, null, 0);
            }
            ObjectNode user = withoutSystemProperties(item);
            try {
                if (gen == null) {
                    if (out == null) {
                        out = new ByteArrayBuilder(2048);
                    }
                    gen = mapper.getFactory().createGenerator(out);
                    gen.setRootValueSeparator(null);
                }
                user.serialize(gen, provider);
                gen.flush();
                return out.toByteArray();
            } catch (StreamConstraintsException e) {
                gen = null; // left inside the item: start afresh for the next one
                throw new StoreException(Status.BAD_REQUEST, "the item is nested too deeply: " + e.getOriginalMessage());
            } catch (IOException e) {
                gen = null;
                throw new StoreException(Status.BAD_REQUEST, "the item cannot be serialised: " + e.getMessage());
            } finally {
                out.reset();
            }
        }

        /**
         * The one binary path (frame-rest): {@code header ·} the item's TB1 body without its top-level system
         * properties {@code · room}, by this thread's writer.
         */
        private byte[] writeBinary(byte[] header, ObjectNode item, io.tetradb.core.item.ItemTermRecorder recorder,
                                   int room) {
            io.tetradb.core.item.BinaryItemWriter w = binaryWriters.get();
            try {
                byte[] written = w.writeItem(header, item, recorder, room);
                if (written.length > 256 * 1024) {
                    binaryWriters.remove(); // a large item's buffer is not kept for the thread's later small ones
                }
                return written;
            } catch (IllegalArgumentException e) {
                binaryWriters.remove();
                throw new StoreException(Status.BAD_REQUEST, "the item cannot be stored: " + e.getMessage());
            }
        }

        @Override
        public void close() {
            if (out != null) {
                out.release();
            }
        }
    }

    /** One binary writer (and its buffer) per thread, rather than a new 2 KiB buffer per write. */
    private final ThreadLocal<io.tetradb.core.item.BinaryItemWriter> binaryWriters = ThreadLocal.withInitial(
            () -> new io.tetradb.core.item.BinaryItemWriter(2048, maxNestingDepth(), this::jsonForm));

    private int maxNestingDepth() {
        return maxNestingDepth;
    }

    /** write-path: a writer of TB1 from events (a face's parser) with this store's nesting limit; one per thread. */
    public io.tetradb.core.item.BinaryItemStreamWriter itemStreamWriter() {
        return new io.tetradb.core.item.BinaryItemStreamWriter(2048, maxNestingDepth);
    }

    /** A node outside the value model (BinaryNode, POJONode) as its JSON reads back: what the JSON format stores. */
    private JsonNode jsonForm(JsonNode foreign) {
        try {
            return mapper.readTree(mapper.writeValueAsBytes(foreign));
        } catch (IOException e) {
            throw new StoreException(Status.BAD_REQUEST, "the item cannot be serialised: " + e.getMessage());
        }
    }

    private static ObjectNode withoutSystemProperties(ObjectNode item) {
        for (String p : SYSTEM_PROPERTIES) {
            if (item.has(p)) {
                ObjectNode user = item.objectNode();
                for (Iterator<Map.Entry<String, JsonNode>> it = item.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> f = it.next();
                    if (!SYSTEM_PROPERTIES.contains(f.getKey())) {
                        user.set(f.getKey(), f.getValue());
                    }
                }
                return user;
            }
        }
        return item;
    }

    private static final byte[] RID = ascii("\"_rid\":\"");
    private static final byte[] SELF = ascii("\",\"_self\":\"");
    private static final byte[] ETAG = ascii("/\",\"_etag\":\"\\\"");
    private static final byte[] ATTACHMENTS_TS = ascii("\\\"\",\"_attachments\":\"attachments/\",\"_ts\":");

    /**
     * The stored bytes: header, the user JSON without its closing brace, then
     * {@code "_rid":"…","_self":"…/docs/<rid>/","_etag":"\"…\"","_attachments":"attachments/","_ts":…}}.
     */
    static byte[] finish(byte[] json, long lsn, byte[] rid, byte[] selfPrefix, String etag, long ts) {
        if (io.tetradb.core.item.StoredItems.isFrame(json)) { // item-copies: filled in place (BodyWriter.writeFrame)
            return io.tetradb.core.item.StoredItems.finishFrame(json, lsn, rid, selfPrefix, etag, ts);
        }
        if (io.tetradb.core.item.StoredItems.isBinaryBody(json)) {
            return io.tetradb.core.item.StoredItems.finish(json, lsn, rid, selfPrefix, etag, ts);
        }
        byte[] etagBytes = ascii(etag);
        byte[] tsBytes = ascii(Long.toString(ts));
        int userLength = json.length - 1; // without the closing brace
        boolean empty = userLength == 1;  // just "{"
        int n = HEADER + userLength + (empty ? 0 : 1) + RID.length + rid.length + SELF.length + selfPrefix.length
                + rid.length + ETAG.length + etagBytes.length + ATTACHMENTS_TS.length + tsBytes.length + 1;
        byte[] out = new byte[n];
        out[0] = FORMAT;
        writeLong(out, 1, lsn);
        int at = HEADER;
        System.arraycopy(json, 0, out, at, userLength);
        at += userLength;
        if (!empty) {
            out[at++] = ',';
        }
        for (byte[] part : new byte[][]{RID, rid, SELF, selfPrefix, rid, ETAG, etagBytes, ATTACHMENTS_TS, tsBytes}) {
            System.arraycopy(part, 0, out, at, part.length);
            at += part.length;
        }
        out[at] = '}';
        return out;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    public static long lsn(byte[] stored) {
        return Keys.readLong(stored, 1);
    }

    /** Parsed versions of items read by index seeks (see {@link ParsedItemCache}). */
    private final ParsedItemCache parsed = ParsedItemCache.fromSystemProperty();

    /**
     * The item stored under {@code docKey} as {@code stored}: parsed, or a copy of an earlier parse of the same
     * version. The caller owns the result.
     */
    ObjectNode parseVersion(byte[] docKey, byte[] stored) {
        return parsed.parse(this, docKey, stored);
    }

    public ObjectNode parse(byte[] stored) {
        if (io.tetradb.core.item.StoredItems.isBinary(stored)) {
            return io.tetradb.core.item.StoredItems.parse(stored);
        }
        try {
            return (ObjectNode) mapper.readTree(stored, HEADER, stored.length - HEADER);
        } catch (IOException e) {
            throw new IllegalStateException("stored item is not valid JSON", e);
        }
    }

    /**
     * core-read (issue 17): whether a point read's or a write response's tree is decoded when first touched
     * ({@link #parseForCaller}); {@code -Dtetradb.read.lazyTree=false} decodes it whole at once, as before (for A/B runs).
     */
    private static final boolean LAZY_TREES = !"false".equals(System.getProperty("tetradb.read.lazyTree"));

    /**
     * The stored item as {@code type} for a caller that owns it (an item response): for a tree of a binary item, a
     * tree decoded when first touched ({@code StoredItems.parseLazily}: equal to {@link #parse(byte[])}'s once read),
     * else {@link #parse(byte[], Class)}.
     */
    public <T> T parseForCaller(byte[] stored, Class<T> type) {
        if (LAZY_TREES && (type == ObjectNode.class || type == JsonNode.class)
                && io.tetradb.core.item.StoredItems.isBinary(stored)) {
            return type.cast(io.tetradb.core.item.StoredItems.parseLazily(stored));
        }
        return parse(stored, type);
    }

    public <T> T parse(byte[] stored, Class<T> type) {
        try {
            if (type == ObjectNode.class || type == JsonNode.class) {
                return type.cast(parse(stored));
            }
            if (io.tetradb.core.item.StoredItems.isBinary(stored)) {
                // a POJO reads the JSON view, as from JSON text (Jackson cannot bind the typed nodes themselves)
                return mapper.treeToValue(io.tetradb.core.value.TypedValues.jsonView(parse(stored)), type);
            }
            return mapper.readValue(stored, HEADER, stored.length - HEADER, type);
        } catch (IOException e) {
            throw new StoreException(Status.BAD_REQUEST, "the item cannot be read as " + type.getName() + ": "
                    + e.getMessage());
        }
    }

    /**
     * The whole stored item as JSON text (system properties included), whichever format it is stored in: for callers
     * that hand the item on as JSON (the REST faces). Typed values appear as their JSON view.
     */
    public byte[] jsonText(byte[] stored) {
        if (!io.tetradb.core.item.StoredItems.isBinary(stored)) {
            return java.util.Arrays.copyOfRange(stored, HEADER, stored.length);
        }
        return io.tetradb.core.item.ItemJsonWriter.storedJson(stored);
    }

    public ObjectMapper mapper() {
        return mapper;
    }

    private static void writeLong(byte[] b, int at, long v) {
        for (int i = 0; i < 8; i++) {
            b[at + i] = (byte) (v >>> (56 - 8 * i));
        }
    }
}
