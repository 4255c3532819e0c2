package io.tetradb.core.value;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;

/**
 * MongoDB's MinKey: compares below every other value. JSON view: null (JSON has no such value; no face's
 * bookkeeping such as {@code {"$minKey":1}} is shown to SQL).
 */
public final class MinKeyNode extends TypedNode {
    private static final long serialVersionUID = 1L;
    public static final MinKeyNode INSTANCE = new MinKeyNode();

    private MinKeyNode() {
    }

    @Override
    public ValueType valueType() {
        return ValueType.MIN_KEY;
    }

    @Override
    public int typeRank() {
        return ValueOrder.RANK_MIN_KEY;
    }

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
        return o instanceof MinKeyNode;
    }

    @Override
    public int hashCode() {
        return MIN_KEY_HASH;
    }

    private static final int MIN_KEY_HASH = "MinKey".hashCode();
}
