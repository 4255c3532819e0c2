package io.tetradb.table.model;

/** The property types of Azure Tables (the Entity Data Model primitive types the service accepts). */
public enum EdmType {
    STRING("Edm.String"),
    INT32("Edm.Int32"),
    INT64("Edm.Int64"),
    DOUBLE("Edm.Double"),
    BOOLEAN("Edm.Boolean"),
    DATETIME("Edm.DateTime"),
    GUID("Edm.Guid"),
    BINARY("Edm.Binary");

    private final String odataName;

    EdmType(String odataName) {
        this.odataName = odataName;
    }

    /** The name in {@code @odata.type} annotations, e.g. {@code Edm.Int64}. */
    public String odataName() {
        return odataName;
    }

    /** The type of an {@code @odata.type} annotation, or null when the name is no Tables type. */
    public static EdmType ofOdataName(String name) {
        for (EdmType t : values()) {
            if (t.odataName.equals(name)) {
                return t;
            }
        }
        return null;
    }
}
