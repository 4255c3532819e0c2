package io.tetradb.graph.structure;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.graph.store.Layout;
import io.tetradb.graph.store.ValueCodec;
import org.apache.tinkerpop.gremlin.structure.Property;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.apache.tinkerpop.gremlin.structure.util.ElementHelper;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * One entry {@code {id, _value, <meta key>: value...}} of a vertex's property list. Meta-properties are the entry's
 * other fields; writes go through the vertex (read, change the entry with this id, write back).
 */
public final class TetraVertexProperty<V> implements VertexProperty<V> {
    private static final Set<String> ENTRY_FIELDS = Set.of(Layout.ID, Layout.VALUE, ValueCodec.TYPES);

    private final TetraVertex vertex;
    private final String key;
    private final String id;
    private final V value;
    private final ObjectNode entry;
    /** The partition key is a plain field of the item: it cannot be removed nor carry meta-properties. */
    private final boolean partitionKey;

    TetraVertexProperty(TetraVertex vertex, String key, ObjectNode entry) {
        this(vertex, key, entry, false);
    }

    TetraVertexProperty(TetraVertex vertex, String key, ObjectNode entry, boolean partitionKey) {
        this.vertex = vertex;
        this.key = key;
        this.entry = entry;
        this.id = entry.get(Layout.ID).asText();
        this.partitionKey = partitionKey;
        this.value = (V) (partitionKey ? JsonValues.scalar(entry.get(Layout.VALUE)) : ValueCodec.get(entry, Layout.VALUE));
    }

    /** Writes meta-properties (key/value pairs, T tokens and nulls skipped) into an entry. */
    static void putMeta(ObjectNode entry, Object[] keyValues) {
        for (int i = 0; i < keyValues.length; i += 2) {
            if (keyValues[i] instanceof T) {
                continue;
            }
            String k = (String) keyValues[i];
            ElementHelper.validateProperty(k, keyValues[i + 1]);
            checkMetaKey(k);
            if (keyValues[i + 1] == null) {
                ValueCodec.remove(entry, k);
            } else {
                ValueCodec.put(entry, k, keyValues[i + 1]);
            }
        }
    }

    static void checkMetaKey(String k) {
        if (ENTRY_FIELDS.contains(k) || Layout.reserved(k)) {
            throw new IllegalArgumentException("'" + k + "' is reserved and cannot be a meta-property key");
        }
    }

    @Override
    public String key() {
        return key;
    }

    @Override
    public V value() throws NoSuchElementException {
        return value;
    }

    @Override
    public boolean isPresent() {
        return true;
    }

    @Override
    public Vertex element() {
        return vertex;
    }

    @Override
    public Object id() {
        return id;
    }

    /** The entry as stored now (null if it was removed). */
    private ObjectNode current(ObjectNode item, boolean forWrite) {
        if (item.get(key) != null) {
            for (JsonNode e : vertex.entries(item, key, forWrite)) {
                if (id.equals(e.path(Layout.ID).asText())) {
                    return (ObjectNode) e;
                }
            }
        }
        return null;
    }

    @Override
    public <U> Property<U> property(String metaKey, U metaValue) {
        if (partitionKey) {
            throw new IllegalStateException("the partition key property cannot have meta-properties");
        }
        ElementHelper.validateProperty(metaKey, metaValue);
        checkMetaKey(metaKey);
        if (metaValue == null) {
            property(metaKey).remove();
            return Property.empty();
        }
        ValueCodec.check(metaValue);
        vertex.update(item -> {
            ObjectNode e = current(item, true);
            if (e == null) {
                throw TetraElement.elementAlreadyRemoved(VertexProperty.class, id);
            }
            ValueCodec.put(e, metaKey, metaValue);
        });
        return new TetraProperty<>(this, metaKey, metaValue, () -> removeMeta(metaKey));
    }

    private void removeMeta(String metaKey) {
        vertex.update(item -> {
            ObjectNode e = current(item, true);
            if (e != null) {
                ValueCodec.remove(e, metaKey);
            }
        });
    }

    @Override
    public <U> Iterator<Property<U>> properties(String... propertyKeys) {
        if (partitionKey) {
            return java.util.Collections.emptyIterator();
        }
        ObjectNode e = current(vertex.item(), false);
        if (e == null) {
            e = entry;
        }
        Set<String> wanted = propertyKeys.length == 0 ? null : new java.util.HashSet<>(Arrays.asList(propertyKeys));
        List<Property<U>> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = e.fields(); it.hasNext(); ) {
            String k = it.next().getKey();
            Object value = !ENTRY_FIELDS.contains(k) && (wanted == null || wanted.contains(k)) ? ValueCodec.get(e, k) : null;
            if (value != null) {
                out.add(new TetraProperty<>(this, k, (U) value, () -> removeMeta(k)));
            }
        }
        return out.iterator();
    }

    @Override
    public void remove() {
        if (partitionKey) {
            throw new IllegalStateException("the partition key property of a vertex cannot be removed");
        }
        vertex.update(item -> {
            if (item.get(key) != null) {
                ArrayNode entries = vertex.entries(item, key, true);
                for (int i = 0; i < entries.size(); i++) {
                    if (id.equals(entries.get(i).path(Layout.ID).asText())) {
                        entries.remove(i);
                        break;
                    }
                }
                if (entries.isEmpty()) {
                    item.remove(key);
                }
            }
        });
    }

    @Override
    public boolean equals(Object o) {
        return ElementHelper.areEqual(this, o);
    }

    @Override
    public int hashCode() {
        return ElementHelper.hashCode((org.apache.tinkerpop.gremlin.structure.Element) this);
    }

    @Override
    public String toString() {
        return StringFactory.propertyString(this);
    }
}
