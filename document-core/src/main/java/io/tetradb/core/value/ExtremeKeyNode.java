package io.tetradb.core.value;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;

/**
 * What MongoDB's MinKey and MaxKey share: one value each (equal only to itself), no key body beyond its type rank,
 * and null as the JSON view (JSON has no such value; no face's bookkeeping such as {@code {"$minKey":1}} is shown to
 * SQL).
 */
abstract class ExtremeKeyNode extends TypedNode {
    private static final long serialVersionUID = 1L;

    @Override
    public JsonNode jsonView() {
        return NullNode.getInstance();
    }

    @Override
    int compareSameRank(TypedNode other) {
        return 0;
    }

    @Override
    byte[] keyBody() {
        return new byte[0];
    }

    @Override
    public boolean equals(Object o) {
        return o != null && o.getClass() == getClass();
    }

    @Override
    public int hashCode() {
        return valueType().name().hashCode(); // stable across runs, unlike an enum's identity hash
    }
}
