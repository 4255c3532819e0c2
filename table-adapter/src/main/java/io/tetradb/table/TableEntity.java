package io.tetradb.table;

import io.tetradb.table.model.EdmType;
import io.tetradb.table.model.EdmValue;
import io.tetradb.table.model.Entity;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Collections;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * An entity in the shape of the Azure SDK's {@code TableEntity}: keys and properties by name. Property values are
 * Java values of the Tables types: String, Integer, Long, Double, Boolean, OffsetDateTime (Instant, Date and
 * ZonedDateTime are accepted too), UUID, byte[]. {@link #getTimestamp()} and {@link #getETag()} are set on entities
 * read from a table.
 */
public final class TableEntity {
    private final String partitionKey;
    private final String rowKey;
    private final Map<String, Object> properties = new LinkedHashMap<>();
    private OffsetDateTime timestamp;
    private String etag;

    public TableEntity(String partitionKey, String rowKey) {
        if (partitionKey == null || rowKey == null) {
            throw new IllegalArgumentException("partitionKey and rowKey are required");
        }
        this.partitionKey = partitionKey;
        this.rowKey = rowKey;
    }

    public String getPartitionKey() {
        return partitionKey;
    }

    public String getRowKey() {
        return rowKey;
    }

    public OffsetDateTime getTimestamp() {
        return timestamp;
    }

    public String getETag() {
        return etag;
    }

    /** Sets the ETag an {@code ifUnchanged} update or delete compares with (e.g. one read earlier). */
    public TableEntity setETag(String etag) {
        this.etag = etag;
        return this;
    }

    public Object getProperty(String name) {
        return properties.get(name);
    }

    /** The user properties (read-only view). */
    public Map<String, Object> getProperties() {
        return Collections.unmodifiableMap(properties);
    }

    public TableEntity addProperty(String name, Object value) {
        properties.put(name, value);
        return this;
    }

    public TableEntity setProperties(Map<String, Object> values) {
        properties.clear();
        properties.putAll(values);
        return this;
    }

    @Override
    public String toString() {
        return "TableEntity(" + partitionKey + ", " + rowKey + ", " + properties + ")";
    }

    // ---- conversion to and from the model ------------------------------------------------------------------------

    Entity toModel() {
        Map<String, EdmValue> typed = new LinkedHashMap<>();
        properties.forEach((k, v) -> {
            if (v != null) {
                typed.put(k, edm(k, v));
            }
        });
        return new Entity(partitionKey, rowKey, null, etag, typed);
    }

    static TableEntity fromModel(Entity e) {
        TableEntity t = new TableEntity(e.partitionKey(), e.rowKey());
        e.properties().forEach((k, v) -> t.properties.put(k, java(v)));
        t.timestamp = e.timestamp() == null ? null : e.timestamp().atOffset(ZoneOffset.UTC);
        t.etag = e.etag();
        return t;
    }

    static EdmValue edm(String name, Object v) {
        if (v instanceof String s) {
            return EdmValue.string(s);
        } else if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return EdmValue.int32(((Number) v).intValue());
        } else if (v instanceof Long l) {
            return EdmValue.int64(l);
        } else if (v instanceof Double || v instanceof Float) {
            return EdmValue.dbl(((Number) v).doubleValue());
        } else if (v instanceof Boolean b) {
            return EdmValue.bool(b);
        } else if (v instanceof OffsetDateTime t) {
            return EdmValue.dateTime(ticks(t.toInstant()));
        } else if (v instanceof ZonedDateTime t) {
            return EdmValue.dateTime(ticks(t.toInstant()));
        } else if (v instanceof Instant t) {
            return EdmValue.dateTime(ticks(t));
        } else if (v instanceof Date d) {
            return EdmValue.dateTime(d.toInstant());
        } else if (v instanceof UUID u) {
            return EdmValue.guid(u);
        } else if (v instanceof byte[] b) {
            return EdmValue.binary(b);
        }
        throw new IllegalArgumentException("the property " + name + " has a value of type "
                + v.getClass().getName() + ", which is no Tables type");
    }

    /** Edm.DateTime holds whole 100 ns ticks: finer digits are cut, as the service does. */
    private static Instant ticks(Instant t) {
        return t.minusNanos(t.getNano() % 100);
    }

    static Object java(EdmValue v) {
        if (v.type() == EdmType.DATETIME) {
            return ((Instant) v.value()).atOffset(ZoneOffset.UTC);
        } else if (v.type() == EdmType.BINARY) {
            return ((byte[]) v.value()).clone();
        }
        return v.value();
    }
}
