package io.tetradb.core.index;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads and validates the {@code compositeIndexes} of a policy's JSON, Cosmos DB's shape:
 * {@code [[{"path":"/name","order":"ascending"},{"path":"/age","order":"descending"}], ...]}. Anything else is
 * refused with 400 when the container is created, so a stored policy always compiles.
 */
final class CompositeIndexes {
    private CompositeIndexes() {
    }

    static List<CompositeIndex> parse(JsonNode json) {
        if (json == null || json.isMissingNode() || json.isNull()) {
            return List.of();
        }
        if (!json.isArray()) {
            throw invalid("compositeIndexes must be an array of composite indexes, not " + json);
        }
        // the same composite listed twice is one index (it would have the same name and entries)
        Map<String, CompositeIndex> byName = new LinkedHashMap<>();
        for (JsonNode composite : json) {
            CompositeIndex index = composite(composite);
            byName.putIfAbsent(index.name(), index);
        }
        return List.copyOf(byName.values());
    }

    private static CompositeIndex composite(JsonNode composite) {
        if (!composite.isArray()) {
            throw invalid("a composite index must be an array of {path, order}, not " + composite);
        }
        if (composite.size() < CompositeIndex.MIN_PATHS || composite.size() > CompositeIndex.MAX_PATHS) {
            throw invalid("a composite index has " + CompositeIndex.MIN_PATHS + " to " + CompositeIndex.MAX_PATHS
                    + " paths, this one has " + composite.size() + ": " + composite);
        }
        List<List<String>> paths = new ArrayList<>();
        boolean[] descending = new boolean[composite.size()];
        for (JsonNode component : composite) {
            if (!component.isObject() || !component.path("path").isTextual()) {
                throw invalid("a composite index path must be {\"path\": \"/name\", \"order\": ...}, not " + component);
            }
            String text = component.path("path").textValue();
            List<String> path = path(text);
            if (paths.contains(path)) {
                throw invalid("the composite index " + composite + " lists the path " + text + " twice");
            }
            descending[paths.size()] = descending(component.path("order"));
            paths.add(path);
        }
        return CompositeIndex.of(paths, descending);
    }

    /** A plain property path: {@code /name}, {@code /location/city}, {@code /"pub-id"}; no {@code ? * []}. */
    private static List<String> path(String text) {
        if (text.isEmpty() || text.charAt(0) != '/' || text.length() == 1) {
            throw invalidPath(text);
        }
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (!quoted && (c == '?' || c == '*' || c == '[' || c == ']')) {
                throw invalidPath(text);
            }
        }
        try {
            return PathPattern.split(text);
        } catch (StoreException e) {
            throw invalidPath(text);
        }
    }

    private static boolean descending(JsonNode order) {
        if (order.isMissingNode() || order.isNull()) {
            return false; // Cosmos' default
        }
        String o = order.asText();
        if (order.isTextual() && o.equalsIgnoreCase("ascending")) {
            return false;
        }
        if (order.isTextual() && o.equalsIgnoreCase("descending")) {
            return true;
        }
        throw invalid("a composite index order is \"ascending\" or \"descending\", not " + order);
    }

    private static StoreException invalidPath(String text) {
        return invalid("invalid composite index path '" + text
                + "': it must be a property path such as /name or /location/city (no /?, /*, [] or wildcards)");
    }

    private static StoreException invalid(String why) {
        return new StoreException(Status.BAD_REQUEST, why);
    }
}
