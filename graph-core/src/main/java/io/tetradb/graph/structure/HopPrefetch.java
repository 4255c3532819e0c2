package io.tetradb.graph.structure;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.tinkerpop.gremlin.structure.Element;

import java.util.ArrayList;
import java.util.List;

/**
 * Loads the items of the elements one hop reached in one go ({@code GraphStore.readMany}: cached items from the
 * exact cache, the rest in one core multi-get) and gives each element its snapshot, so reading their properties
 * next costs no read per element. A snapshot is taken with the element's write count read before the items are, as
 * {@link TetraElement#item()} does, so a write meanwhile still makes the element read again.
 */
public final class HopPrefetch {
    private HopPrefetch() {
    }

    /** Loads the items of those of {@code elements} that are TetraGraph elements without a current snapshot. */
    public static void load(List<? extends Element> elements) {
        List<TetraElement> wanted = new ArrayList<>();
        List<Object> pks = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        List<Long> versions = new ArrayList<>();
        for (Element e : elements) {
            if (e instanceof TetraElement t) {
                long version = t.store().version(t.pk, t.key);
                if (t.needsItem(version)) {
                    wanted.add(t);
                    pks.add(t.pk);
                    ids.add(t.key);
                    versions.add(version);
                }
            }
        }
        if (wanted.size() < 2) {
            return; // one element reads itself as fast
        }
        List<ObjectNode> items = wanted.get(0).store().readMany(pks, ids);
        for (int i = 0; i < wanted.size(); i++) {
            if (items.get(i) != null) {
                wanted.get(i).prime(items.get(i), versions.get(i));
            }
        }
    }
}
