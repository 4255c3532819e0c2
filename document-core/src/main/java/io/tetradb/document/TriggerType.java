package io.tetradb.document;

/** When a trigger runs, as in azure-cosmos: before the write (PRE) or after it, in its transaction (POST). */
public enum TriggerType {
    PRE("Pre"), POST("Post");

    private final String wire;

    TriggerType(String wire) {
        this.wire = wire;
    }

    /** The REST value ({@code triggerType}). */
    public String toString() {
        return wire;
    }

    static TriggerType of(String wire) {
        for (TriggerType t : values()) {
            if (t.wire.equalsIgnoreCase(wire)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown trigger type " + wire);
    }
}
