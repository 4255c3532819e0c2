package io.tetradb.bench.itemformat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.value.TypedValues;

/**
 * JSON text (today's stored form), CBOR and Smile through Jackson: tree encode / decode through the mapper, field
 * access by streaming over the tokens and skipping other fields' children (the cheapest access these formats allow).
 * Typed values are written as their JSON view (CBOR/Smile through Jackson have no ObjectId / date / Decimal128).
 */
final class JacksonCandidate implements Candidate {
    private final String name;
    private final ObjectMapper mapper;
    private final JsonFactory factory;

    JacksonCandidate(String name, JsonFactory factory) {
        this.name = name;
        this.factory = factory;
        this.mapper = new ObjectMapper(factory);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean typed() {
        return false;
    }

    @Override
    public byte[] encode(ObjectNode item) throws Exception {
        return mapper.writeValueAsBytes(TypedValues.jsonView(item));
    }

    @Override
    public ObjectNode decode(byte[] stored) throws Exception {
        return (ObjectNode) mapper.readTree(stored);
    }

    @Override
    public JsonNode field(byte[] stored, String field) throws Exception {
        try (JsonParser p = factory.createParser(stored)) {
            p.nextToken();
            return seek(p, field) ? mapper.readTree(p) : MissingNode.getInstance();
        }
    }

    @Override
    public JsonNode path(byte[] stored, String outer, String inner) throws Exception {
        try (JsonParser p = factory.createParser(stored)) {
            p.nextToken();
            if (!seek(p, outer) || p.currentToken() != JsonToken.START_OBJECT) {
                return MissingNode.getInstance();
            }
            return seek(p, inner) ? mapper.readTree(p) : MissingNode.getInstance();
        }
    }

    /** Moves inside the current object to the value of {@code field}; false when the object has none. */
    private static boolean seek(JsonParser p, String field) throws Exception {
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
            String n = p.currentName();
            p.nextToken();
            if (n.equals(field)) {
                return true;
            }
            p.skipChildren();
        }
        return false;
    }
}
