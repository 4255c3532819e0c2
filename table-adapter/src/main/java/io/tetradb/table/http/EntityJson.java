package io.tetradb.table.http;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.table.model.DateTimes;
import io.tetradb.table.model.EdmType;
import io.tetradb.table.model.EdmValue;
import io.tetradb.table.model.Entity;
import io.tetradb.table.model.TableException;

import java.io.IOException;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Entities in the Tables JSON format. Reading: a property's type is its {@code Name@odata.type} annotation, else its
 * JSON type (string → String, true/false → Boolean, integer in Int32 range → Int32, other numbers → Double); Int64
 * values come as strings, an Edm.Boolean may come as "true"/"false"; untyped null properties are dropped and typed
 * ones refused (400 InvalidInput), as Azure does. Writing: the annotations the metadata level
 * asks for (minimal: the types JSON cannot tell — Int64, Double, DateTime, Guid, Binary; none: no annotations).
 */
final class EntityJson {
    static final ObjectMapper M = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    private static final String TYPE_SUFFIX = "@odata.type";

    private EntityJson() {
    }

    static ObjectNode parseObject(byte[] body) {
        if (body == null || body.length == 0) {
            throw TableException.invalidInput("the request body is empty; a JSON object is expected");
        }
        try {
            JsonNode n = M.readTree(body);
            if (n == null || !n.isObject()) {
                throw TableException.invalidInput("the request body is not a JSON object");
            }
            return (ObjectNode) n;
        } catch (JsonProcessingException e) {
            throw TableException.invalidInput("the request body is not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw TableException.invalidInput("the request body cannot be read: " + e.getMessage());
        }
    }

    /** The entity of a request body; {@code pk}/{@code rk} from the URL win over the body's (null: from the body). */
    static Entity parse(byte[] body, String pk, String rk) {
        ObjectNode o = parseObject(body);
        String bodyPk = keyOf(o, "PartitionKey");
        String bodyRk = keyOf(o, "RowKey");
        if (pk != null && bodyPk != null && !pk.equals(bodyPk) || rk != null && bodyRk != null && !rk.equals(bodyRk)) {
            throw TableException.invalidInput("the keys in the body differ from the keys in the URL");
        }
        pk = pk != null ? pk : bodyPk;
        rk = rk != null ? rk : bodyRk;
        if (pk == null || rk == null) {
            throw new TableException(400, "PropertiesNeedValue", "PartitionKey and RowKey are required");
        }
        Map<String, EdmValue> props = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String name = f.getKey();
            if (name.endsWith(TYPE_SUFFIX) || name.startsWith("odata.") || name.equals("PartitionKey")
                    || name.equals("RowKey") || name.equals("Timestamp")) {
                continue;
            }
            JsonNode annotation = o.get(name + TYPE_SUFFIX);
            EdmValue v = value(name, f.getValue(), annotation == null ? null : annotation.asText());
            if (v != null) {
                props.put(name, v);
            }
        }
        return new Entity(pk, rk, props);
    }

    private static String keyOf(ObjectNode o, String name) {
        JsonNode n = o.get(name);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isTextual()) {
            throw TableException.invalidInput("the " + name + " must be a string");
        }
        return n.textValue();
    }

    private static EdmValue value(String name, JsonNode n, String annotation) {
        if (n.isNull()) {
            if (annotation != null) {
                // Azure refuses a typed null rather than storing or dropping it
                throw TableException.invalidInput("the property " + name + " is null but typed " + annotation
                        + "; a null property carries no type");
            }
            return null;
        }
        if (annotation != null) {
            EdmType t = EdmType.ofOdataName(annotation);
            if (t == null) {
                throw new TableException(400, "InvalidInput", "unknown type '" + annotation + "' of property " + name);
            }
            return typed(name, t, n);
        }
        if (n.isTextual()) {
            return EdmValue.string(n.textValue());
        } else if (n.isBoolean()) {
            return EdmValue.bool(n.booleanValue());
        } else if (n.isIntegralNumber() && n.canConvertToInt()) {
            return EdmValue.int32(n.intValue());
        } else if (n.isNumber()) {
            return EdmValue.dbl(n.doubleValue());
        }
        throw TableException.invalidInput("the property " + name + " has a value of no Tables type: " + abbreviate(n));
    }

    private static EdmValue typed(String name, EdmType t, JsonNode n) {
        try {
            switch (t) {
                case STRING:
                    if (n.isTextual()) {
                        return EdmValue.string(n.textValue());
                    }
                    break;
                case BOOLEAN:
                    if (n.isBoolean()) {
                        return EdmValue.bool(n.booleanValue());
                    }
                    if (n.isTextual() && (n.textValue().equalsIgnoreCase("true")
                            || n.textValue().equalsIgnoreCase("false"))) {
                        return EdmValue.bool(n.textValue().equalsIgnoreCase("true"));
                    }
                    break;
                case INT32:
                    if (n.isIntegralNumber() && n.canConvertToInt()) {
                        return EdmValue.int32(n.intValue());
                    }
                    if (n.isTextual()) {
                        return EdmValue.int32(Integer.parseInt(n.textValue()));
                    }
                    break;
                case INT64:
                    if (n.isTextual()) {
                        return EdmValue.int64(Long.parseLong(n.textValue()));
                    }
                    if (n.isIntegralNumber() && n.canConvertToLong()) {
                        return EdmValue.int64(n.longValue());
                    }
                    break;
                case DOUBLE:
                    if (n.isNumber()) {
                        return EdmValue.dbl(n.doubleValue());
                    }
                    if (n.isTextual()) {
                        return EdmValue.dbl(switch (n.textValue()) {
                            case "NaN" -> Double.NaN;
                            case "Infinity", "INF" -> Double.POSITIVE_INFINITY;
                            case "-Infinity", "-INF" -> Double.NEGATIVE_INFINITY;
                            default -> Double.parseDouble(n.textValue());
                        });
                    }
                    break;
                case DATETIME:
                    if (n.isTextual()) {
                        return EdmValue.dateTime(DateTimes.parse(n.textValue()));
                    }
                    break;
                case GUID:
                    if (n.isTextual()) {
                        return EdmValue.guid(UUID.fromString(n.textValue()));
                    }
                    break;
                case BINARY:
                    if (n.isTextual()) {
                        return EdmValue.binary(Base64.getDecoder().decode(n.textValue()));
                    }
                    break;
                default:
                    break;
            }
        } catch (TableException e) {
            throw e;
        } catch (RuntimeException e) {
            // falls through to the error below
        }
        throw TableException.invalidInput("the value " + abbreviate(n) + " of property " + name + " is not a valid "
                + t.odataName());
    }

    private static String abbreviate(JsonNode n) {
        String s = n.toString();
        return s.length() > 60 ? s.substring(0, 60) + "..." : s;
    }

    /**
     * An entity as JSON at a metadata level; {@code select} (null: everything) limits the user properties. The
     * {@code odata.*} properties name the table's metadata document under {@code baseUrl}.
     */
    static ObjectNode write(Entity e, MetadataLevel level, Set<String> select, String baseUrl, String table,
                            boolean single) {
        ObjectNode o = M.createObjectNode();
        if (level != MetadataLevel.NONE) {
            if (single) {
                o.put("odata.metadata", baseUrl + "/$metadata#" + table + "/@Element");
            }
            if (level == MetadataLevel.FULL) {
                String self = baseUrl + "/" + table + "(PartitionKey='" + escapeKey(e.partitionKey())
                        + "',RowKey='" + escapeKey(e.rowKey()) + "')";
                o.put("odata.type", accountOf(baseUrl) + "." + table);
                o.put("odata.id", self);
                o.put("odata.editLink", self.substring(baseUrl.length() + 1));
            }
            o.put("odata.etag", e.etag());
        }
        if (select == null || select.contains("PartitionKey")) {
            o.put("PartitionKey", e.partitionKey());
        }
        if (select == null || select.contains("RowKey")) {
            o.put("RowKey", e.rowKey());
        }
        if (e.timestamp() != null && (select == null || select.contains("Timestamp"))) {
            if (level == MetadataLevel.FULL) { // minimal metadata leaves it out: Timestamp is always a DateTime
                o.put("Timestamp" + TYPE_SUFFIX, EdmType.DATETIME.odataName());
            }
            o.put("Timestamp", DateTimes.format(e.timestamp()));
        }
        for (Map.Entry<String, EdmValue> p : e.properties().entrySet()) {
            if (select != null && !select.contains(p.getKey())) {
                continue;
            }
            EdmValue v = p.getValue();
            if (annotated(v, level)) {
                o.put(p.getKey() + TYPE_SUFFIX, v.type().odataName());
            }
            switch (v.type()) {
                case STRING -> o.put(p.getKey(), (String) v.value());
                case INT32 -> o.put(p.getKey(), (Integer) v.value());
                case BOOLEAN -> o.put(p.getKey(), (Boolean) v.value());
                case DOUBLE -> {
                    double d = (Double) v.value();
                    if (Double.isFinite(d)) {
                        o.put(p.getKey(), d);
                    } else {
                        o.put(p.getKey(), v.wireText());
                    }
                }
                default -> o.put(p.getKey(), v.wireText());
            }
        }
        return o;
    }

    /**
     * Writes the object {@link #write(Entity, MetadataLevel, Set, String, String, boolean)} builds straight to
     * {@code g}, without the tree (a query page writes up to 1000 entities). Property names that could repeat a
     * name the writer adds ({@code odata.*}, {@code ...@odata.type}; only other faces store such names) go through
     * the tree, whose later value replaces the earlier.
     */
    static void write(JsonGenerator g, Entity e, MetadataLevel level, Set<String> select, String baseUrl,
                      String table, boolean single) throws IOException {
        for (String name : e.properties().keySet()) {
            if (name.startsWith("odata.") || name.contains("@")) {
                M.writeTree(g, write(e, level, select, baseUrl, table, single));
                return;
            }
        }
        g.writeStartObject();
        if (level != MetadataLevel.NONE) {
            if (single) {
                g.writeStringField("odata.metadata", baseUrl + "/$metadata#" + table + "/@Element");
            }
            if (level == MetadataLevel.FULL) {
                String self = baseUrl + "/" + table + "(PartitionKey='" + escapeKey(e.partitionKey())
                        + "',RowKey='" + escapeKey(e.rowKey()) + "')";
                g.writeStringField("odata.type", accountOf(baseUrl) + "." + table);
                g.writeStringField("odata.id", self);
                g.writeStringField("odata.editLink", self.substring(baseUrl.length() + 1));
            }
            g.writeStringField("odata.etag", e.etag());
        }
        if (select == null || select.contains("PartitionKey")) {
            g.writeStringField("PartitionKey", e.partitionKey());
        }
        if (select == null || select.contains("RowKey")) {
            g.writeStringField("RowKey", e.rowKey());
        }
        if (e.timestamp() != null && (select == null || select.contains("Timestamp"))) {
            if (level == MetadataLevel.FULL) {
                g.writeStringField("Timestamp" + TYPE_SUFFIX, EdmType.DATETIME.odataName());
            }
            g.writeStringField("Timestamp", DateTimes.format(e.timestamp()));
        }
        for (Map.Entry<String, EdmValue> p : e.properties().entrySet()) {
            if (select != null && !select.contains(p.getKey())) {
                continue;
            }
            EdmValue v = p.getValue();
            if (annotated(v, level)) {
                g.writeStringField(p.getKey() + TYPE_SUFFIX, v.type().odataName());
            }
            g.writeFieldName(p.getKey());
            switch (v.type()) {
                case STRING -> g.writeString((String) v.value());
                case INT32 -> g.writeNumber((Integer) v.value());
                case BOOLEAN -> g.writeBoolean((Boolean) v.value());
                case DOUBLE -> {
                    double d = (Double) v.value();
                    if (Double.isFinite(d)) {
                        g.writeNumber(d);
                    } else {
                        g.writeString(v.wireText());
                    }
                }
                default -> g.writeString(v.wireText());
            }
        }
        g.writeEndObject();
    }

    /** Whether a value's JSON carries its type annotation at {@code level}: where JSON cannot tell the type. */
    private static boolean annotated(EdmValue v, MetadataLevel level) {
        boolean annotate = switch (v.type()) {
            case STRING, BOOLEAN -> false;
            case INT32 -> level == MetadataLevel.FULL;
            default -> true;
        };
        return annotate && level != MetadataLevel.NONE;
    }

    /** The account of a base URL: its last path segment (path-style) or its host's first label (host-style). */
    private static String accountOf(String baseUrl) {
        String rest = baseUrl.substring(baseUrl.indexOf("//") + 2);
        int slash = rest.lastIndexOf('/');
        if (slash >= 0) {
            return rest.substring(slash + 1);
        }
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    /** A key as it stands in an entity URL: quotes doubled (and left as quotes, as Azure writes them), the rest percent-encoded. */
    static String escapeKey(String key) {
        return java.net.URLEncoder.encode(key.replace("'", "''"), java.nio.charset.StandardCharsets.UTF_8)
                .replace("+", "%20").replace("%27", "'");
    }

}
