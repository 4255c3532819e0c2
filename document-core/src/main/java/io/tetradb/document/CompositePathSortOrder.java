package io.tetradb.document;

/** The order of one path of a composite index, as in azure-cosmos; its JSON form is "ascending" / "descending". */
public enum CompositePathSortOrder {
    ASCENDING("ascending"),
    DESCENDING("descending");

    private final String json;

    CompositePathSortOrder(String json) {
        this.json = json;
    }

    /** The JSON form ("ascending", "descending"). */
    @Override
    public String toString() {
        return json;
    }

    /** From the JSON form, case-insensitive; null when it is neither. */
    static CompositePathSortOrder fromJson(String text) {
        for (CompositePathSortOrder o : values()) {
            if (o.json.equalsIgnoreCase(text)) {
                return o;
            }
        }
        return null;
    }
}
