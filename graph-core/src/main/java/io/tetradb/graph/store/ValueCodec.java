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

    /**
     * Whether values are written as typed values: only when the core stores items in its binary format (TB1), which
     * keeps them; a store writing JSON text would keep only their JSON views, so values are then written in the old
     * shape ({@link LegacyValueWriter}), which JSON keeps. Like the core's item format, a JVM-wide setting; set by
     * {@code TetraGraph.open} from the core's {@code ItemCodec.writesBinary()}.
     */
    private static volatile boolean typed =
            "binary".equalsIgnoreCase(System.getProperty("tetradb.itemFormat", "json"));

    private ValueCodec() {
    }

    /** Follows the core's item format: typed values when it writes TB1 (see {@link #typed}). */
    public static void useTypedValues(boolean typedValues) {
        typed = typedValues;
    }

    /** True when values are written as the core's typed values. */
    public static boolean typedValues() {
        return typed;
    }

    /** Checks that a value can be stored; a clear error otherwise. */
    public static void check(Object value) {
        if (typed) {
            PropertyValues.toNode(value);
        } else {
            LegacyValueWriter.check(value);
        }
    }

    /** Writes {@code value} into {@code target[key]} as a typed value (in the old shape on a JSON-text store). */
    public static void put(ObjectNode target, String key, Object value) {
        if (!typed) {
            LegacyValueWriter.put(target, key, value);
            return;
        }
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
