package io.tetradb.core.value;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;

/**
 * MongoDB's MaxKey: compares above every other value. JSON view: null (JSON has no such value; no face's
 * bookkeeping such as {@code {"$maxKey":1}} is shown to SQL).
 */
public final class MaxKeyNode extends TypedNode {
    private static final long serialVersionUID = 1L;
    public static final MaxKeyNode INSTANCE = new MaxKeyNode();

    private MaxKeyNode() {
    }

    @Override
    public ValueType valueType() {
        return ValueType.MAX_KEY;
    }

    @Override
    public int typeRank() {
        return ValueOrder.RANK_MAX_KEY;
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
        return o instanceof MaxKeyNode;
    }

    @Override
    public int hashCode() {
        return MAX_KEY_HASH;
    }

    private static final int MAX_KEY_HASH = "MaxKey".hashCode();
}
