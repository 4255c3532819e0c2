package io.tetradb.core.index;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.value.IndexKeyEncoding;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The composite index terms of an item: one per composite index of the policy, whatever the item holds (undefined
 * components included), so that every item appears exactly once in each composite's order. Unlike single-path
 * terms there is no multikey flattening: an array or object is one value, compared whole, as ORDER BY compares it.
 */
public final class CompositeTerms {
    private CompositeTerms() {
    }

    /** One item's entry in one composite index: its values, in the index's component order. */
    public record CompositeTerm(CompositeIndex index, List<JsonNode> values) {
        /** The value part of the entry's key: the components' encodings, descending ones complemented. */
        public byte[] encoded() {
            return IndexKeyEncoding.encodeComposite(values, index.descending());
        }
    }

    /**
     * The terms of a stored version (see {@link IndexTerms#ofVersion}): {@code _ts} is the version's own timestamp,
     * never a {@code _ts} an item read back and written again still carries; nothing when indexing is off.
     */
    public static List<CompositeTerm> ofVersion(JsonNode item, CompiledIndexingPolicy policy, long ts) {
        List<CompositeIndex> composites = policy.composites();
        if (composites.isEmpty()) {
            return List.of();
        }
        List<CompositeTerm> out = new ArrayList<>(composites.size());
        for (CompositeIndex index : composites) {
            List<JsonNode> values = new ArrayList<>(index.size());
            for (int i = 0; i < index.size(); i++) {
                List<String> path = index.paths().get(i);
                if (path.get(0).equals("_ts")) {
                    // /_ts is the version's timestamp; anything below it is below a number, so undefined
                    values.add(path.size() == 1 ? LongNode.valueOf(ts) : MissingNode.getInstance());
                } else {
                    values.add(index.valueAt(item, i));
                }
            }
            out.add(new CompositeTerm(index, List.copyOf(values)));
        }
        return out;
    }

    /**
     * A value as a composite entry holds it: as it reads back from the stored JSON (so the entries computed at write
     * time equal those recomputed from the stored version), strings cut like single-path terms, also inside arrays
     * and objects.
     */
    static JsonNode indexedForm(JsonNode node) {
        node = IndexTerms.asStored(node);
        if (node.isArray()) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode(node.size());
            for (JsonNode element : node) {
                copy.add(indexedForm(element));
            }
            return copy;
        }
        if (node.isObject()) {
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                copy.set(f.getKey(), indexedForm(f.getValue()));
            }
            return copy;
        }
        return IndexTerms.bounded(node);
    }
}
