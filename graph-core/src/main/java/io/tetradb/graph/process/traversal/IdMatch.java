package io.tetradb.graph.process.traversal;

import io.tetradb.graph.structure.ElementIds;
import org.apache.tinkerpop.gremlin.process.traversal.PBiPredicate;
import org.apache.tinkerpop.gremlin.structure.Element;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code hasId(...)} against {@code [pk, id]} ids. Gremlin flattens a list given to {@code hasId} (so
 * {@code hasId(['USA','Seattle'])} arrives as {@code within('USA','Seattle')}) and compares string-valued ids by
 * {@code toString()}; this predicate accepts, for the values given: whole {@code [pk, id]} ids, bare ids (matching
 * the id inside any partition), elements, and two flattened values as one {@code [pk, id]}.
 */
public enum IdMatch implements PBiPredicate<Object, Object> {
    ANY_OF {
        @Override
        public boolean test(Object elementId, Object accepted) {
            return ((Accepted) accepted).matches(elementId);
        }

        @Override
        public IdMatch negate() {
            return NONE_OF;
        }
    },
    NONE_OF {
        @Override
        public boolean test(Object elementId, Object accepted) {
            return !((Accepted) accepted).matches(elementId);
        }

        @Override
        public IdMatch negate() {
            return ANY_OF;
        }
    };

    @Override
    public abstract IdMatch negate();

    /** The accepted ids; deliberately not a Collection, so HasContainer does not compare ids as strings. */
    public static final class Accepted {
        private final Set<List<Object>> addresses = new HashSet<>();
        private final Set<String> bareIds = new HashSet<>();
        /**
         * The values given but elements, by their string form: what a vertex property's own (string) id is compared
         * with, as TinkerGraph compares ids (an element given is not its id there).
         */
        private final Set<String> plainIds = new HashSet<>();
        private final String text;

        public Accepted(Collection<?> values) {
            this.text = values.toString();
            Object[] all = values.toArray();
            if (ElementIds.mayBeFlattenedPair(all)) {
                addresses.add(ElementIds.of(all[0], all[1].toString()));
            }
            for (Object v : all) {
                if (!(v instanceof Element)) {
                    plainIds.add(String.valueOf(v));
                }
                try {
                    ElementIds.Lookup l = ElementIds.parse(v instanceof Element e ? e.id() : v);
                    if (l.address() != null) {
                        addresses.add(l.address().asId());
                    } else {
                        bareIds.add(l.bareId());
                    }
                } catch (IllegalArgumentException e) {
                    // an id no element has
                }
            }
        }

        boolean matches(Object elementId) {
            if (elementId instanceof List<?> id && id.size() == 2) {
                return addresses.contains(id) || bareIds.contains(String.valueOf(id.get(1)));
            }
            // a vertex property's id is not [pk, id] but its own string (g.V().properties('code').hasId(x))
            return elementId != null && plainIds.contains(elementId.toString());
        }

        @Override
        public String toString() {
            return text;
        }
    }
}
