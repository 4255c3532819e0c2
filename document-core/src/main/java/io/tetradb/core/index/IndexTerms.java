package io.tetradb.core.index;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Extracts the index terms of an item under a policy. Strings are indexed by their first {@value #MAX_STRING_CHARS}
 * characters (as Cosmos DB and MongoDB bound index keys): an entry then stands for every string with that prefix, so
 * a query always re-checks its predicate on the items an index seek returns.
 */
public final class IndexTerms {
    public static final int MAX_STRING_CHARS = 256;

    /** Stored system properties that are never indexed ({@code _ts} is, and {@code _etag} only if a policy asks). */
    private static final Set<String> NOT_INDEXED = Set.of("_rid", "_self", "_attachments");

    private IndexTerms() {
    }

    /** The distinct terms of {@code item}, in document order. */
    public static List<IndexTerm> of(JsonNode item, CompiledIndexingPolicy policy) {
        return List.copyOf(new LinkedHashSet<>(of(item, policy, NOT_INDEXED, null)));
    }

    /**
     * The terms of a stored version: its user properties, and {@code _ts} with the version's own timestamp (an item
     * written back after a read carries the old system properties, which must not be indexed). A value repeated in
     * an array gives repeated terms: callers that need distinct entries compare their keys.
     */
    public static List<IndexTerm> ofVersion(JsonNode item, CompiledIndexingPolicy policy, long ts) {
        return of(item, policy, SYSTEM, com.fasterxml.jackson.databind.node.LongNode.valueOf(ts));
    }

    private static final Set<String> SYSTEM = Set.of("_rid", "_self", "_etag", "_attachments", "_ts");

    private static List<IndexTerm> of(JsonNode item, CompiledIndexingPolicy policy, Set<String> skipped, JsonNode ts) {
        if (!policy.enabled()) {
            return List.of();
        }
        List<IndexTerm> terms = new ArrayList<>(32); // a typical item has a few dozen terms: no regrowth
        List<String> concrete = new ArrayList<>();
        if (ts != null && policy.indexes(List.of("_ts"))) {
            terms.add(new IndexTerm("/_ts", ts));
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = item.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (skipped.contains(f.getKey())) {
                continue;
            }
            concrete.add(f.getKey());
            if (policy.mayIndexUnder(concrete)) {
                walk(f.getValue(), concrete, child("", f.getKey()), policy, terms, false);
            }
            concrete.remove(concrete.size() - 1);
        }
        return terms;
    }

    private static void walk(JsonNode node, List<String> concrete, String flat, CompiledIndexingPolicy policy,
                             List<IndexTerm> out, boolean underArray) {
        node = asStored(node);
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                concrete.add(f.getKey());
                if (policy.mayIndexUnder(concrete)) {
                    walk(f.getValue(), concrete, child(flat, f.getKey()), policy, out, underArray);
                }
                concrete.remove(concrete.size() - 1);
            }
        } else if (node.isArray()) {
            concrete.add(PathPattern.ARRAY);
            for (JsonNode element : node) {
                walk(element, concrete, flat, policy, out, true);
            }
            concrete.remove(concrete.size() - 1);
        } else if (!node.isMissingNode() && policy.indexes(concrete)) {
            out.add(new IndexTerm(flat, bounded(node), underArray));
        }
    }

    /**
     * The indexed values of one flat path in an item, as its entries hold them: array elements at any level are
     * walked through (multikey), strings bounded. Used to tell which of an item's entries an index reader met first.
     */
    public static List<JsonNode> valuesAt(JsonNode item, List<String> names) {
        List<JsonNode> out = new ArrayList<>();
        collect(item, names, 0, out);
        return out;
    }

    private static void collect(JsonNode node, List<String> names, int depth, List<JsonNode> out) {
        node = asStored(node);
        if (node.isArray()) {
            for (JsonNode element : node) {
                collect(element, names, depth, out);
            }
        } else if (depth == names.size()) {
            if (!node.isMissingNode() && !node.isObject()) {
                out.add(bounded(node));
            }
        } else if (node.isObject()) {
            JsonNode child = node.get(names.get(depth));
            if (child != null) {
                collect(child, names, depth + 1, out);
            }
        }
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper POJOS = new com.fasterxml.jackson.databind.ObjectMapper();

    /**
     * A value as it reads back from the stored item, so that the entries computed when a version is written equal
     * the ones computed from the stored version when it is replaced: binary as base64 text, embedded POJOs as their
     * JSON (both formats store them so). Numbers of every type are indexed exactly (Float, BigDecimal, Decimal128,
     * Int64 as their own value, which a binary item keeps); a version written as JSON text is first brought to the
     * form JSON text reads back as ({@link JsonTextForm}, doubles).
     */
    static JsonNode asStored(JsonNode node) {
        if (node instanceof io.tetradb.core.value.TypedNode typed) {
            // SQL sees a typed value (DateTime, ObjectId, ...) as its JSON view, which is also what JSON text stores
            return typed.jsonView();
        }
        if (node instanceof com.fasterxml.jackson.databind.node.BinaryNode) { // not isBinary(): a megamorphic call per value
            try {
                return com.fasterxml.jackson.databind.node.TextNode.valueOf(
                        java.util.Base64.getEncoder().encodeToString(node.binaryValue()));
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        }
        if (node instanceof com.fasterxml.jackson.databind.node.POJONode pojo) { // not a typed value (TypedNode)
            return POJOS.valueToTree(pojo.getPojo());
        }
        return node;
    }

    /** Hook for the TB1 term walker (BinaryIndexTerms): a scalar as the index keys it (stored form, bounded). */
    public static JsonNode indexedForm(JsonNode scalar) {
        return bounded(asStored(scalar));
    }

    /** Hook for the TB1 term walker (BinaryIndexTerms): the flat path of {@code name} under {@code parent}. */
    public static String childPath(String parent, String name) {
        return child(parent, name);
    }

    /** The indexed form of a scalar: long strings cut to their first characters (never inside a surrogate pair). */
    public static JsonNode bounded(JsonNode value) {
        if (!value.isTextual() || value.textValue().length() <= MAX_STRING_CHARS) {
            return value;
        }
        String s = value.textValue();
        int end = Character.isHighSurrogate(s.charAt(MAX_STRING_CHARS - 1)) ? MAX_STRING_CHARS - 1 : MAX_STRING_CHARS;
        return com.fasterxml.jackson.databind.node.TextNode.valueOf(s.substring(0, end));
    }

    /**
     * Flat child paths, built once: parent paths come from this cache and property names from Jackson's interned
     * names, so lookups hash cached values. Bounded, because property names are user data.
     */
    private static final Map<String, Map<String, String>> CHILDREN = new java.util.concurrent.ConcurrentHashMap<>();
    private static final int MAX_CACHED_PARENTS = 100_000;

    private static String child(String parent, String name) {
        Map<String, String> children = CHILDREN.get(parent);
        if (children == null) {
            if (CHILDREN.size() >= MAX_CACHED_PARENTS) {
                return parent + "/" + escape(name);
            }
            children = CHILDREN.computeIfAbsent(parent, k -> new java.util.concurrent.ConcurrentHashMap<>());
        }
        String path = children.get(name);
        if (path == null) {
            path = parent + "/" + escape(name);
            if (children.size() < MAX_CACHED_PARENTS) {
                children.put(name, path);
            }
        }
        return path;
    }

    /** A property name as it appears in an index path (JSON-pointer escaping). */
    public static String escape(String name) {
        return name.indexOf('~') < 0 && name.indexOf('/') < 0 ? name : name.replace("~", "~0").replace("/", "~1");
    }
}
