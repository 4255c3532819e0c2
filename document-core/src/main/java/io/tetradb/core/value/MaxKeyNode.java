package io.tetradb.core.value;

/** MongoDB's MaxKey: compares above every other value (see {@link ExtremeKeyNode}). */
public final class MaxKeyNode extends ExtremeKeyNode {
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
}
