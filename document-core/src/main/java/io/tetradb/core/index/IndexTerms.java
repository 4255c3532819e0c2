package io.tetradb.core.index;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Extracts the index terms of an item under a policy. */
public final class IndexTerms {
    /** Stored system properties that are never indexed ({@code _ts} is, and {@code _etag} only if a policy asks). */
    private static final Set<String> NOT_INDEXED = Set.of("_rid", "_self", "_attachments");

    private IndexTerms() {
    }

    /** The distinct terms of {@code item}, in document order. */
    public static List<IndexTerm> of(JsonNode item, CompiledIndexingPolicy policy) {
        if (!policy.enabled()) {
            return List.of();
        }
        Set<IndexTerm> terms = new LinkedHashSet<>();
        List<String> concrete = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = item.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (NOT_INDEXED.contains(f.getKey())) {
                continue;
            }
            concrete.add(f.getKey());
            walk(f.getValue(), concrete, "/" + escape(f.getKey()), policy, terms);
            concrete.remove(concrete.size() - 1);
        }
        return List.copyOf(terms);
    }

    private static void walk(JsonNode node, List<String> concrete, String flat, CompiledIndexingPolicy policy,
                             Set<IndexTerm> out) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                concrete.add(f.getKey());
                walk(f.getValue(), concrete, flat + "/" + escape(f.getKey()), policy, out);
                concrete.remove(concrete.size() - 1);
            }
        } else if (node.isArray()) {
            concrete.add(PathPattern.ARRAY);
            for (JsonNode element : node) {
                walk(element, concrete, flat, policy, out);
            }
            concrete.remove(concrete.size() - 1);
        } else if (!node.isMissingNode() && policy.indexes(concrete)) {
            out.add(new IndexTerm(flat, node));
        }
    }

    static String escape(String name) {
        return name.indexOf('~') < 0 && name.indexOf('/') < 0 ? name : name.replace("~", "~0").replace("/", "~1");
    }
}
