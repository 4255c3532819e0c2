package io.tetradb.graph.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Property values in an item (an edge, or a vertex property entry {@code {id, _value, <meta>...}}): written as the
 * core's typed values ({@link PropertyValues}), so every face reads them in its own types and no sidecar is kept;
 * read back as the Java values they were written as, whoever wrote them. Items of the earlier shape (a {@code _types}
 * sidecar beside plain numbers, see {@link LegacyValues}) still read, and a write to one of their keys drops that
 * key's sidecar record.
 */
public final class ValueCodec {
    /** The old shape's sidecar field: reserved, read, never written. */
    public static final String TYPES = LegacyValues.TYPES;

    private ValueCodec() {
    }

    /** Checks that a value can be stored; a clear error otherwise. */
    public static void check(Object value) {
        PropertyValues.toNode(value);
    }

    /** Writes {@code value} into {@code target[key]} as a typed value. */
    public static void put(ObjectNode target, String key, Object value) {
        target.set(key, PropertyValues.toNode(value));
        dropSidecar(target, key);
    }

    /** Removes {@code target[key]} (and an old-shape type record of it). */
    public static void remove(ObjectNode target, String key) {
        target.remove(key);
        dropSidecar(target, key);
    }

    /**
     * Reads {@code source[key]} back as a Java value; null when absent, JSON null, or a value TinkerPop has no type
     * for (MinKey / MaxKey): such a property is not shown.
     */
    public static Object get(ObjectNode source, String key) {
        JsonNode node = source.get(key);
        String tag = LegacyValues.sidecarTag(source, key);
        if (tag != null && node != null && node.isNumber()) {
            return LegacyValues.fromSidecar(tag, node);
        }
        return PropertyValues.toJava(node);
    }

    private static void dropSidecar(ObjectNode target, String key) {
        if (target.get(TYPES) instanceof ObjectNode t) {
            t.remove(key);
            if (t.isEmpty()) {
                target.remove(TYPES);
            }
        }
    }
}
