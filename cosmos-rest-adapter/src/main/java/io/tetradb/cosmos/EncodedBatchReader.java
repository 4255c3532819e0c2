package io.tetradb.cosmos;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.item.BinaryItemStreamWriter;
import io.tetradb.core.item.JsonItemEncoder;
import io.tetradb.core.store.EncodedItem;
import io.tetradb.core.store.ItemCodec;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * encoded-writes (issue 17): a transactional batch or bulk body read in one pass of the parser, with each create,
 * upsert and replace {@code resourceBody} encoded straight into the core's binary item format from the tokens
 * ({@link JsonItemEncoder}, as a single create's body is) instead of becoming a tree. The operation's other fields
 * stay a small tree, and so does a patch's body when its type comes first (as the SDKs send it). Anything the tree path answers or treats differently (not an array of objects, malformed or
 * trailing JSON, a repeated name inside a body, the nesting limit, a body on another operation type) gives null:
 * the caller then reads the whole body as a tree, so its answers stay exactly the tree path's.
 */
final class EncodedBatchReader {
    /** One operation: its fields but the body, and the body encoded (null when it had none). */
    record Operation(ObjectNode fields, EncodedItem body) {
    }

    private static final Set<String> WRITES = Set.of("create", "upsert", "replace");
    private static final String BODY = "resourceBody";
    /** An operation's own field's value (the parser goes on to the next field: no trailing-token check). */
    private static final com.fasterxml.jackson.databind.ObjectReader FIELD = Json.MAPPER.reader()
            .without(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    /** One TB1 event writer per request thread (a large item's buffer is not kept). */
    private static final ThreadLocal<BinaryItemStreamWriter> WRITERS = new ThreadLocal<>();

    private EncodedBatchReader() {
    }

    /** The operations of {@code body}, or null for the tree path. */
    static List<Operation> read(byte[] body, ItemCodec codec) {
        if (body == null || body.length == 0) {
            return null;
        }
        BinaryItemStreamWriter w = WRITERS.get();
        if (w == null) {
            w = codec.itemStreamWriter();
            WRITERS.set(w);
        }
        try (JsonParser p = Json.MAPPER.getFactory().createParser(body)) {
            if (p.nextToken() != JsonToken.START_ARRAY) {
                return null;
            }
            List<Operation> out = new ArrayList<>();
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                if (t != JsonToken.START_OBJECT) {
                    return null;
                }
                Operation op = operation(p, w);
                if (op == null) {
                    return null;
                }
                out.add(op);
                if (out.size() > Batches.MAX_OPERATIONS) {
                    return null; // the tree path words the refusal
                }
            }
            return p.nextToken() == null ? out : null;
        } catch (IOException | IllegalArgumentException e) { // malformed JSON, a repeated name, the nesting limit
            return null;
        } finally {
            if (body.length > 256 * 1024) {
                WRITERS.remove();
            }
        }
    }

    private static Operation operation(JsonParser p, BinaryItemStreamWriter w) throws IOException {
        ObjectNode fields = Json.MAPPER.createObjectNode();
        EncodedItem encoded = null;
        for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
            String name = p.currentName();
            JsonToken value = p.nextToken();
            boolean encode = value == JsonToken.START_OBJECT && (!fields.has("operationType") || isWrite(fields));
            if (name.equals(BODY) && encode) {
                JsonItemEncoder.encode(p, w);
                encoded = EncodedItem.of(w); // with the writer's note of top-level system names
                fields.remove(BODY); // the last one counts, as in a tree
            } else {
                JsonNode v = FIELD.readTree(p);
                fields.set(name, v);
                if (name.equals(BODY)) {
                    encoded = null;
                }
            }
        }
        if (encoded != null && !isWrite(fields)) {
            return null; // a patch's body named before its type: the whole request is read as a tree
        }
        return new Operation(fields, encoded);
    }

    /** A create, upsert or replace (a patch's body, named after its type, stays a tree). */
    private static boolean isWrite(ObjectNode fields) {
        return WRITES.contains(fields.path("operationType").asText("").toLowerCase(Locale.ROOT));
    }
}
