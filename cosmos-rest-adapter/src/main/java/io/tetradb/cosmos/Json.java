package io.tetradb.cosmos;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;

/**
 * The face's one Jackson mapper and the parsing that turns malformed bodies into 400s. JSON numbers with a fraction or
 * an exponent are read as doubles, which is what a Cosmos DB number is: items are stored with their types (binary
 * items), and a BigDecimal would reach the other faces as a decimal (Mongo Decimal128, a Tables string).
 */
final class Json {
    static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    static {
        MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(200).build());
    }

    private Json() {
    }

    static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    static ArrayNode array() {
        return MAPPER.createArrayNode();
    }

    /** The body as a JSON value; 400 when it is empty or not JSON. */
    static JsonNode parse(byte[] body) {
        if (body == null || body.length == 0) {
            throw CosmosError.badRequest("The request body is empty; a JSON body is required.");
        }
        try {
            JsonNode n = MAPPER.readTree(body);
            if (n == null || n.isMissingNode()) {
                throw CosmosError.badRequest("The request body is empty; a JSON body is required.");
            }
            return n;
        } catch (JsonProcessingException e) {
            throw CosmosError.badRequest("The request body is not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw CosmosError.badRequest("The request body cannot be read: " + e.getMessage());
        }
    }

    /** The body as a JSON object; 400 otherwise. */
    static ObjectNode parseObject(byte[] body) {
        JsonNode n = parse(body);
        if (!n.isObject()) {
            throw CosmosError.badRequest("The request body must be a JSON object, not " + kind(n) + ".");
        }
        return (ObjectNode) n;
    }

    static String kind(JsonNode n) {
        return n.getNodeType().name().toLowerCase();
    }

    static byte[] bytes(JsonNode n) {
        try {
            return MAPPER.writeValueAsBytes(n);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
