package io.tetradb.core.value;

/** MongoDB's MinKey: compares below every other value (see {@link ExtremeKeyNode}). */
public final class MinKeyNode extends ExtremeKeyNode {
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
}
