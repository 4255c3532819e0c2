package io.tetradb.core.store;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * Stored item bytes: {@code 01 · lsn(8) · JSON}. The JSON is the user's item followed by the system properties
 * ({@code _rid _self _etag _attachments _ts}); the lsn in the header gives the etag without parsing the JSON.
 */
public final class ItemCodec {
    public static final int HEADER = 9;
    private static final byte FORMAT = 0x01;
    static final Set<String> SYSTEM_PROPERTIES = Set.of("_rid", "_self", "_etag", "_attachments", "_ts");

    private final ObjectMapper mapper;

    public ItemCodec(ObjectMapper base, int maxNestingDepth) {
        JsonFactory factory = base.getFactory().copy()
                .setStreamWriteConstraints(StreamWriteConstraints.builder().maxNestingDepth(maxNestingDepth).build());
        this.mapper = new ObjectMapper(factory)
                .configure(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    }

    /** The user part of an item as JSON without its closing brace: {@code {"id":"a","x":1} → {"id":"a","x":1}. */
    public byte[] body(ObjectNode item) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        try (JsonGenerator gen = mapper.getFactory().createGenerator(out)) {
            gen.disable(JsonGenerator.Feature.AUTO_CLOSE_JSON_CONTENT);
            gen.writeStartObject();
            Iterator<Map.Entry<String, JsonNode>> fields = item.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                if (SYSTEM_PROPERTIES.contains(f.getKey())) {
                    continue;
                }
                gen.writeFieldName(f.getKey());
                mapper.writeTree(gen, f.getValue());
            }
            gen.flush();
        } catch (StreamConstraintsException e) {
            throw new StoreException(Status.BAD_REQUEST, "the item is nested too deeply: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new StoreException(Status.BAD_REQUEST, "the item cannot be serialised: " + e.getMessage());
        }
        return out.toByteArray();
    }

    /** The stored bytes: header, the user body, then the system properties. */
    static byte[] finish(byte[] body, long lsn, String rid, String self, String etag, long ts) {
        boolean empty = body.length == 1; // just "{"
        String system = (empty ? "" : ",") + "\"_rid\":\"" + rid + "\",\"_self\":\"" + self
                + "\",\"_etag\":\"\\\"" + etag + "\\\"\",\"_attachments\":\"attachments/\",\"_ts\":" + ts + "}";
        byte[] suffix = system.getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[HEADER + body.length + suffix.length];
        out[0] = FORMAT;
        writeLong(out, 1, lsn);
        System.arraycopy(body, 0, out, HEADER, body.length);
        System.arraycopy(suffix, 0, out, HEADER + body.length, suffix.length);
        return out;
    }

    public static long lsn(byte[] stored) {
        return Keys.readLong(stored, 1);
    }

    public ObjectNode parse(byte[] stored) {
        try {
            return (ObjectNode) mapper.readTree(stored, HEADER, stored.length - HEADER);
        } catch (IOException e) {
            throw new IllegalStateException("stored item is not valid JSON", e);
        }
    }

    public <T> T parse(byte[] stored, Class<T> type) {
        try {
            if (type == ObjectNode.class || type == JsonNode.class) {
                return type.cast(parse(stored));
            }
            return mapper.readValue(stored, HEADER, stored.length - HEADER, type);
        } catch (IOException e) {
            throw new StoreException(Status.BAD_REQUEST, "the item cannot be read as " + type.getName() + ": "
                    + e.getMessage());
        }
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
