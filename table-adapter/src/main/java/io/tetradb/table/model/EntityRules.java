package io.tetradb.table.model;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * Azure Tables' limits on names, keys and sizes, with the error codes the service answers.
 *
 * <p>One deliberate difference: a RowKey has at most 255 characters (Azure Table storage allows 1 KiB). The RowKey
 * is the core item's id, and ids have at most 255 characters — the RowKey limit of Azure Cosmos DB for Table, which
 * is what this face is built like.
 */
public final class EntityRules {
    public static final int MAX_USER_PROPERTIES = 252;
    public static final int MAX_PROPERTY_NAME = 255;
    public static final int MAX_ENTITY_BYTES = 1024 * 1024;
    public static final int MAX_PARTITION_KEY_BYTES = 1024;
    public static final int MAX_ROW_KEY_CHARS = 255;
    /** A String or Binary property holds at most 64 KiB (a string: 32 Ki UTF-16 characters). */
    public static final int MAX_VALUE_BYTES = 64 * 1024;

    private static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9]{2,62}");
    /** C#-identifier-like, as Azure asks of property names. */
    private static final Pattern PROPERTY_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private EntityRules() {
    }

    public static void checkTableName(String name) {
        if (name == null || !TABLE_NAME.matcher(name).matches() || name.equalsIgnoreCase("tables")) {
            throw new TableException(400, "InvalidResourceName",
                    "The specifed resource name contains invalid characters: table names match "
                            + "^[A-Za-z][A-Za-z0-9]{2,62}$ (got '" + name + "')");
        }
    }

    public static void checkKeys(String partitionKey, String rowKey) {
        checkKey("PartitionKey", partitionKey);
        checkKey("RowKey", rowKey);
        if (2L * partitionKey.length() > MAX_PARTITION_KEY_BYTES) { // its UTF-16 bytes, without encoding it
            throw new TableException(400, "KeyValueTooLarge", "The PartitionKey is larger than 1 KiB");
        }
        if (rowKey.length() > MAX_ROW_KEY_CHARS) {
            throw new TableException(400, "KeyValueTooLarge", "The RowKey has " + rowKey.length()
                    + " characters; at most " + MAX_ROW_KEY_CHARS + " are allowed");
        }
    }

    private static void checkKey(String which, String key) {
        if (key == null) {
            throw new TableException(400, "PropertiesNeedValue", "The " + which + " is missing");
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c == '/' || c == '\\' || c == '#' || c == '?' || c < 0x20 || (c >= 0x7F && c <= 0x9F)) {
                throw new TableException(400, "OutOfRangeInput", "The " + which + " '" + printable(key)
                        + "' contains a character that is not allowed in keys (/ \\ # ? or a control character)");
            }
        }
    }

    public static void checkPropertyName(String name) {
        if (name.length() > MAX_PROPERTY_NAME) {
            throw new TableException(400, "PropertyNameTooLong", "The property name '" + name.substring(0, 40)
                    + "...' is longer than 255 characters");
        }
        if (!PROPERTY_NAME.matcher(name).matches()) {
            throw new TableException(400, "PropertyNameInvalid", "The property name '" + printable(name)
                    + "' is invalid: names start with a letter or '_' and hold letters, digits and '_'");
        }
    }

    /** Names, counts, value sizes and the whole entity's size (Azure's size formula). */
    public static void checkEntity(Entity e) {
        checkKeys(e.partitionKey(), e.rowKey());
        Map<String, EdmValue> props = e.properties();
        if (props.size() > MAX_USER_PROPERTIES) {
            throw new TableException(400, "TooManyProperties", "The entity has " + props.size()
                    + " properties; at most " + MAX_USER_PROPERTIES + " are allowed");
        }
        long size = 4 + 2L * e.partitionKey().length() + 2L * e.rowKey().length();
        for (Map.Entry<String, EdmValue> p : props.entrySet()) {
            checkPropertyName(p.getKey());
            long value = valueBytes(p.getValue());
            if ((p.getValue().type() == EdmType.STRING || p.getValue().type() == EdmType.BINARY)
                    && value - 4 > MAX_VALUE_BYTES) {
                throw new TableException(400, "PropertyValueTooLarge", "The property '" + p.getKey()
                        + "' is larger than 64 KiB");
            }
            size += 8 + 2L * p.getKey().length() + value;
        }
        if (size > MAX_ENTITY_BYTES) {
            throw new TableException(400, "EntityTooLarge", "The entity is " + size
                    + " bytes; the largest entity allowed is 1 MiB");
        }
    }

    private static long valueBytes(EdmValue v) {
        return switch (v.type()) {
            case STRING -> 4 + 2L * ((String) v.value()).length();
            case BINARY -> 4 + ((byte[]) v.value()).length;
            case BOOLEAN -> 1;
            case INT32 -> 4;
            case INT64, DOUBLE, DATETIME -> 8;
            case GUID -> 16;
        };
    }

    private static String printable(String s) {
        StringBuilder b = new StringBuilder();
        s.codePoints().limit(80).forEach(c -> {
            if (c < 0x20 || c == 0x7F) {
                b.append(String.format("\\u%04x", c));
            } else {
                b.appendCodePoint(c);
            }
        });
        return b.toString();
    }
}
