package io.tetradb.graph.structure;

import org.apache.tinkerpop.gremlin.structure.Element;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * Element ids are {@code [partitionKeyValue, id]} (a List of two values). This class turns the many forms users
 * pass ({@code [pk, id]}, a bare id, an element, several of those) into {@link Address}es or bare ids.
 */
public final class ElementIds {
    private ElementIds() {
    }

    /** Where an element lives: its logical partition and its id there. */
    public record Address(Object pk, String id) {
        public List<Object> asId() {
            return Arrays.asList(pk, id);
        }
    }

    /** A parsed id argument: an address when the partition is known, else a bare id to look up everywhere. */
    public record Lookup(Address address, String bareId) {
    }

    /** The id of the element at (pk, id). */
    public static List<Object> of(Object pk, String id) {
        return Arrays.asList(pk, id);
    }

    /** A partition key value: what Cosmos DB allows (string, number, boolean). */
    public static boolean isPartitionKeyValue(Object v) {
        return v instanceof String || v instanceof Number || v instanceof Boolean;
    }

    /** Parses one id argument (an element, a {@code [pk, id]} list, or a bare id). */
    public static Lookup parse(Object id) {
        if (id instanceof Element e) {
            return parse(e.id());
        }
        if (id instanceof Collection<?> c) {
            if (c.size() == 2) {
                List<?> l = new ArrayList<>(c);
                if (isPartitionKeyValue(l.get(0)) && isIdValue(l.get(1))) {
                    return new Lookup(new Address(l.get(0), l.get(1).toString()), null);
                }
            }
            throw new IllegalArgumentException("a TetraGraph element id is [partitionKey, id], not " + id);
        }
        if (id instanceof String s && s.startsWith("[") && s.endsWith("]") && s.contains(", ")) {
            // the string form of an id (List.toString()), as clients that only keep strings send it back
            int comma = s.indexOf(", ");
            return new Lookup(new Address(s.substring(1, comma), s.substring(comma + 2, s.length() - 1)), null);
        }
        if (isIdValue(id)) {
            return new Lookup(null, id.toString());
        }
        throw new IllegalArgumentException("not a TetraGraph element id: " + id
                + (id == null ? "" : " (" + id.getClass().getSimpleName() + ")"));
    }

    /**
     * Parses the id given with {@code T.id} when an element is created: a string (the id inside the partition, as
     * Cosmos DB users write it) or {@code [pk, string]}; any other type is refused with TinkerPop's exception.
     */
    public static Lookup parseForCreate(Object id, java.util.function.Supplier<RuntimeException> unsupported) {
        if (id instanceof String s) {
            return new Lookup(null, s);
        }
        if (id instanceof List<?> l && l.size() == 2 && isPartitionKeyValue(l.get(0)) && l.get(1) instanceof String s) {
            return new Lookup(new Address(l.get(0), s), null);
        }
        throw unsupported.get();
    }

    /** Ids are strings in the core; numbers and UUIDs are accepted and used by their string form. */
    public static boolean isIdValue(Object v) {
        return v instanceof String || v instanceof Number || v instanceof java.util.UUID;
    }

    /**
     * True when {@code ids} may be one {@code [pk, id]} that stock {@code GraphStep} flattened into two arguments
     * ({@code g.V(['USA','Seattle'])} arrives as {@code ('USA', 'Seattle')}).
     */
    public static boolean mayBeFlattenedPair(Object[] ids) {
        return ids.length == 2 && isPartitionKeyValue(ids[0]) && isIdValue(ids[1]);
    }
}
