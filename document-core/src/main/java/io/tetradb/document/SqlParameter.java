package io.tetradb.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** A named query parameter ({@code @name}) and its value, as in azure-cosmos. */
public final class SqlParameter {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final String name;
    private final Object value;

    public SqlParameter(String name, Object value) {
        this.name = name;
        this.value = value;
    }

    public String getName() {
        return name;
    }

    public <T> T getValue(Class<T> type) {
        return MAPPER.convertValue(value, type);
    }

    JsonNode toJson() {
        return value instanceof JsonNode n ? n : MAPPER.valueToTree(value);
    }
}
