package io.tetradb.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

/** A container's unique keys (as azure-cosmos): set at creation, enforced by the core per logical partition. */
public final class UniqueKeyPolicy {
    private List<UniqueKey> uniqueKeys = new ArrayList<>();

    public List<UniqueKey> getUniqueKeys() {
        return uniqueKeys;
    }

    public UniqueKeyPolicy setUniqueKeys(List<UniqueKey> keys) {
        this.uniqueKeys = new ArrayList<>(keys);
        return this;
    }

    JsonNode toJson() {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        var list = n.putArray("uniqueKeys");
        for (UniqueKey k : uniqueKeys) {
            k.getPaths().forEach(list.addObject().putArray("paths")::add);
        }
        return n;
    }

    static UniqueKeyPolicy fromJson(JsonNode n) {
        UniqueKeyPolicy p = new UniqueKeyPolicy();
        if (n != null) {
            for (JsonNode k : n.path("uniqueKeys")) {
                List<String> paths = new ArrayList<>();
                k.path("paths").forEach(x -> paths.add(x.asText()));
                p.uniqueKeys.add(new UniqueKey(paths));
            }
        }
        return p;
    }
}
