package io.tetradb.table.classic;

import java.util.LinkedHashMap;
import java.util.Map;

/** An entity without a class of its own: its properties by name (Java values of the Tables types). */
public class DynamicTableEntity extends TableServiceEntity {
    private final Map<String, Object> properties = new LinkedHashMap<>();

    public DynamicTableEntity() {
    }

    public DynamicTableEntity(String partitionKey, String rowKey) {
        super(partitionKey, rowKey);
    }

    public Map<String, Object> getProperties() {
        return properties;
    }
}
