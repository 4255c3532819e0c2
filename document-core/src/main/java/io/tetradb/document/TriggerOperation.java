package io.tetradb.document;

/** Which writes a trigger may be included in, as in azure-cosmos (UPDATE: replace and upsert). */
public enum TriggerOperation {
    ALL("All"), CREATE("Create"), UPDATE("Update"), DELETE("Delete"), REPLACE("Replace"), UPSERT("Upsert");

    private final String wire;

    TriggerOperation(String wire) {
        this.wire = wire;
    }

    /** The REST value ({@code triggerOperation}). */
    public String toString() {
        return wire;
    }

    static TriggerOperation of(String wire) {
        for (TriggerOperation t : values()) {
            if (t.wire.equalsIgnoreCase(wire)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown trigger operation " + wire);
    }
}
