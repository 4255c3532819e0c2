package io.tetradb.cosmos;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.item.StoredItems;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The body of an item write (create, upsert, replace), parsed once into the tree the core stores, remembering whether
 * its text already is the JSON view of what gets stored. When it is, the write is answered with that text plus the
 * stored system properties instead of decoding the stored binary item back to JSON (a fifth of a create's face cost).
 *
 * <p>The text is that view when every value reads back as written: no duplicate names (the tree keeps the last),
 * no integer beyond 64 bits and no number that overflows a double (both are stored as something else), no
 * {@code \\u} escape (an unpaired surrogate is stored as '?'), and no system property of the caller's (the core
 * replaces those). Whitespace and the spelling of a number (1.50, 1e2) differ from the stored view only in text:
 * every JSON parser reads the same values.
 */
final class ItemBody {
    private static final JsonNodeFactory NODES = Json.MAPPER.getNodeFactory();
    private static final String[] SYSTEM_PROPERTIES = {"_rid", "_self", "_etag", "_attachments", "_ts"};

    final ObjectNode item;
    /** write-path: the item encoded in TB1 straight from the parser's tokens (then {@link #item} is null). */
    final io.tetradb.core.store.EncodedItem encoded;
    private final byte[] text;
    private boolean echoable;

    private ItemBody(ObjectNode item, byte[] text, boolean echoable) {
        this(item, null, text, echoable);
    }

    private ItemBody(ObjectNode item, io.tetradb.core.store.EncodedItem encoded, byte[] text, boolean echoable) {
        this.item = item;
        this.encoded = encoded;
        this.text = text;
        this.echoable = echoable;
    }

    /** The fields the partition key is read from: the tree's, or the encoded item's key fields. */
    ObjectNode keyFields(io.tetradb.core.partition.PartitionKeyDefinition pk) {
        return item != null ? item : encoded.keyFields(pk);
    }

    /** A create or upsert of this body. */
    io.tetradb.core.store.ItemOperation createOrUpsert(boolean upsert, String ifMatch) {
        if (encoded != null) {
            return upsert ? io.tetradb.core.store.ItemOperation.upsert(encoded, ifMatch)
                    : io.tetradb.core.store.ItemOperation.create(encoded);
        }
        return upsert ? io.tetradb.core.store.ItemOperation.upsert(item, ifMatch)
                : io.tetradb.core.store.ItemOperation.create(item);
    }

    /** A replace by this body. */
    io.tetradb.core.store.ItemOperation replace(String id, String ifMatch) {
        return encoded != null ? io.tetradb.core.store.ItemOperation.replace(id, encoded, ifMatch)
                : io.tetradb.core.store.ItemOperation.replace(id, item, ifMatch);
    }

    /** One TB1 event writer per request thread (a large item's buffer is not kept). */
    private static final ThreadLocal<io.tetradb.core.item.BinaryItemStreamWriter> WRITERS = new ThreadLocal<>();

    /**
     * write-path: the body encoded straight into the core's binary item format from the parser's tokens, with no
     * tree (issue 17); the same 400s as {@link #parse}. A body with a repeated name is parsed as a tree (which keeps
     * the last value), as before.
     */
    static ItemBody parseEncoded(byte[] body, io.tetradb.core.store.ItemCodec codec) {
        if (body == null || body.length == 0 || firstNonSpace(body) != '{') {
            return parse(body);
        }
        io.tetradb.core.item.BinaryItemStreamWriter w = WRITERS.get();
        if (w == null) {
            w = codec.itemStreamWriter();
            WRITERS.set(w);
        }
        try (JsonParser p = Json.MAPPER.getFactory().createParser(body)) {
            p.nextToken();
            int flags;
            try {
                flags = io.tetradb.core.item.JsonItemEncoder.encode(p, w);
            } catch (io.tetradb.core.item.BinaryItemStreamWriter.DuplicateFieldException e) {
                return parse(body);
            } catch (IllegalArgumentException e) { // the nesting limit, as the core words it for a tree
                throw new io.tetradb.core.StoreException(io.tetradb.core.Status.BAD_REQUEST,
                        "the item cannot be stored: " + e.getMessage());
            }
            if (p.nextToken() != null) {
                throw CosmosError.badRequest("The request body is not valid JSON: trailing content after the item.");
            }
            // the writer noted whether a top-level name is a system property's (mongo-encode): JsonItemEncoder
            // leaves those out, so the store looks for none in the bytes
            io.tetradb.core.store.EncodedItem encoded = io.tetradb.core.store.EncodedItem.of(w);
            if (encoded.bodyLength() > 256 * 1024) {
                WRITERS.remove();
            }
            return new ItemBody(null, encoded, body,
                    flags == 0 && !hasUnicodeEscape(body));
        } catch (JsonProcessingException e) {
            throw CosmosError.badRequest("The request body is not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw CosmosError.badRequest("The request body cannot be read: " + e.getMessage());
        }
    }

    /** The body as a JSON object; 400 (with {@link Json#parseObject}'s messages) otherwise. */
    static ItemBody parse(byte[] body) {
        if (body == null || body.length == 0 || firstNonSpace(body) != '{') {
            return new ItemBody(Json.parseObject(body), body, false); // empty, not an object, or malformed: its 400
        }
        try (JsonParser p = Json.MAPPER.getFactory().createParser(body)) {
            p.nextToken();
            ItemBody out = new ItemBody(null, body, !hasUnicodeEscape(body));
            ObjectNode item = out.object(p);
            if (p.nextToken() != null) {
                throw CosmosError.badRequest("The request body is not valid JSON: trailing content after the item.");
            }
            for (String s : SYSTEM_PROPERTIES) {
                if (item.has(s)) {
                    out.echoable = false;
                    break;
                }
            }
            return new ItemBody(item, body, out.echoable);
        } catch (JsonProcessingException e) {
            throw CosmosError.badRequest("The request body is not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw CosmosError.badRequest("The request body cannot be read: " + e.getMessage());
        }
    }

    /**
     * The answer's body for {@code stored} (the core's stored bytes of this write): the text sent with the stored
     * system properties appended, or null when the text is not the stored view (the caller then decodes the item).
     */
    byte[] answer(byte[] stored) {
        if (!echoable || stored == null || !StoredItems.isBinary(stored)) {
            return null; // a JSON-text stored item is its own JSON: copying it is as cheap
        }
        StoredItems.Trailer t = StoredItems.trailer(stored);
        int close = text.length - 1;
        while (text[close] != '}') { // trailing whitespace
            close--;
        }
        String ts = Long.toString(t.ts());
        byte[] out = new byte[close + RID.length + 2 * t.rid().length() + SELF.length + t.selfPrefix().length()
                + ETAG.length + t.etag().length() + TAIL.length + ts.length() + 1];
        System.arraycopy(text, 0, out, 0, close); // the item has fields: the core refuses one without an id
        int at = put(out, close, RID);
        at = ascii(out, at, t.rid());
        at = put(out, at, SELF);
        at = ascii(out, at, t.selfPrefix());
        at = ascii(out, at, t.rid());
        at = put(out, at, ETAG);
        at = ascii(out, at, t.etag());
        at = put(out, at, TAIL);
        at = ascii(out, at, ts);
        if (at < 0) {
            return null;
        }
        out[at] = '}';
        return out;
    }

    private static final byte[] RID = ",\"_rid\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SELF = "\",\"_self\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ETAG = "/\",\"_etag\":\"\\\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TAIL = "\\\"\",\"_attachments\":\"attachments/\",\"_ts\":"
            .getBytes(StandardCharsets.US_ASCII);

    private static int put(byte[] out, int at, byte[] part) {
        System.arraycopy(part, 0, out, at, part.length);
        return at + part.length;
    }

    /**
     * Copies a system property's text; it never needs JSON escaping (RIDs, paths and etags are plain ASCII), and
     * one that would makes the whole answer fall back (the index turns negative, and stays so).
     */
    private static int ascii(byte[] out, int at, String s) {
        if (at < 0) {
            return at;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c > 0x7E || c == '"' || c == '\\') {
                return Integer.MIN_VALUE / 2;
            }
            out[at + i] = (byte) c;
        }
        return at + s.length();
    }

    private ObjectNode object(JsonParser p) throws IOException {
        ObjectNode o = NODES.objectNode();
        for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
            if (t != JsonToken.FIELD_NAME) {
                throw CosmosError.badRequest("The request body is not valid JSON: unexpected " + t);
            }
            String name = p.currentName();
            p.nextToken();
            if (o.replace(name, value(p)) != null) {
                echoable = false; // a duplicate name: the tree keeps the last, the text has both
            }
        }
        return o;
    }

    private ArrayNode array(JsonParser p) throws IOException {
        ArrayNode a = NODES.arrayNode();
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
            a.add(value(p));
        }
        return a;
    }

    /** The value at the parser's current token, as Jackson's tree reader makes it (fractions as doubles). */
    private JsonNode value(JsonParser p) throws IOException {
        JsonToken token = p.currentToken();
        if (token == null) {
            throw CosmosError.badRequest("The request body is not valid JSON: it ends inside the item.");
        }
        switch (token) {
            case START_OBJECT:
                return object(p);
            case START_ARRAY:
                return array(p);
            case VALUE_STRING:
                return NODES.textNode(p.getText());
            case VALUE_NUMBER_INT:
                switch (p.getNumberType()) {
                    case INT:
                        return NODES.numberNode(p.getIntValue());
                    case LONG:
                        return NODES.numberNode(p.getLongValue());
                    default:
                        echoable = false;
                        return NODES.numberNode(p.getBigIntegerValue());
                }
            case VALUE_NUMBER_FLOAT: {
                double d = p.getDoubleValue();
                if (!Double.isFinite(d)) {
                    echoable = false;
                }
                return NODES.numberNode(d);
            }
            case VALUE_TRUE:
                return NODES.booleanNode(true);
            case VALUE_FALSE:
                return NODES.booleanNode(false);
            case VALUE_NULL:
                return NODES.nullNode();
            default:
                throw CosmosError.badRequest("The request body is not valid JSON: unexpected " + p.currentToken());
        }
    }

    private static int firstNonSpace(byte[] b) {
        for (byte c : b) {
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
                return c;
            }
        }
        return -1;
    }

    private static boolean hasUnicodeEscape(byte[] b) {
        for (int i = 0; i + 1 < b.length; i++) {
            if (b[i] == '\\' && b[i + 1] == 'u') {
                return true;
            }
        }
        return false;
    }
}
