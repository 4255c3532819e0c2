package io.tetradb.mongo.validation;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.query.BsonOrder;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.BsonType;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * MongoDB's {@code $jsonSchema} (JSON Schema draft 4 plus {@code bsonType}, as MongoDB's manual lists its keywords),
 * compiled once and checked against documents. A failed check answers the rules not satisfied in MongoDB's
 * {@code errInfo.details} shape ({@code operatorName}, {@code specifiedAs}, {@code reason}, {@code consideredValue},
 * {@code propertiesNotSatisfied}, {@code missingProperties}, …). Keywords MongoDB does not support are refused as it
 * refuses them: 9 FailedToParse, "is not currently supported" for the draft-4 ones it leaves out, "Unknown $jsonSchema
 * keyword" for the rest. As in JSON Schema, a keyword about one type (minimum, minLength, items, required, …)
 * holds for values of other types.
 */
public final class JsonSchema {
    private static final Set<String> KEYWORDS = Set.of("bsonType", "type", "required", "properties",
            "additionalProperties", "patternProperties", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
            "minLength", "maxLength", "pattern", "enum", "items", "additionalItems", "minItems", "maxItems",
            "uniqueItems", "minProperties", "maxProperties", "allOf", "anyOf", "oneOf", "not", "description", "title",
            "multipleOf", "dependencies", "encrypt", "encryptMetadata");
    private static final Set<String> NOT_SUPPORTED = Set.of("$ref", "$schema", "default", "definitions", "format",
            "id");
    private static final Set<String> JSON_TYPES = Set.of("object", "array", "number", "boolean", "string", "null");

    private final BsonDocument schema;
    private final Map<String, JsonSchema> properties = new java.util.LinkedHashMap<>();
    private final Map<Pattern, JsonSchema> patternProperties = new java.util.LinkedHashMap<>();
    private final Map<String, String> patternSources = new java.util.HashMap<>();
    private JsonSchema additionalProperties;
    private JsonSchema items;
    private final List<JsonSchema> tupleItems = new ArrayList<>();
    private JsonSchema additionalItems;
    private final List<JsonSchema> allOf = new ArrayList<>();
    private final List<JsonSchema> anyOf = new ArrayList<>();
    private final List<JsonSchema> oneOf = new ArrayList<>();
    private JsonSchema not;
    private final Map<String, JsonSchema> schemaDependencies = new java.util.LinkedHashMap<>();
    private Pattern pattern;

    private JsonSchema(BsonDocument schema) {
        this.schema = schema;
        for (Map.Entry<String, BsonValue> e : schema.entrySet()) {
            parse(e.getKey(), e.getValue());
        }
        for (String[] pair : new String[][]{{"exclusiveMaximum", "maximum"}, {"exclusiveMinimum", "minimum"}}) {
            if (schema.containsKey(pair[0]) && !schema.containsKey(pair[1])) {
                throw parseError("$jsonSchema keyword '" + pair[1] + "' must be a present if " + pair[0]
                        + " is present");
            }
        }
        if (schema.containsKey("type") && schema.containsKey("bsonType")) {
            throw parseError("Cannot specify both $jsonSchema keywords 'type' and 'bsonType'");
        }
    }

    /** Compiles a schema; FailedToParse (9) or TypeMismatch (14) as MongoDB answers a bad one. */
    public static JsonSchema compile(BsonValue schema) {
        if (!schema.isDocument()) {
            throw new MongoError(ErrorCode.TYPE_MISMATCH, "$jsonSchema must be an object");
        }
        return new JsonSchema(schema.asDocument());
    }

    private static MongoError parseError(String message) {
        return new MongoError(ErrorCode.FAILED_TO_PARSE, message);
    }

    private static MongoError typeError(String keyword, String what) {
        return new MongoError(ErrorCode.TYPE_MISMATCH, "$jsonSchema keyword '" + keyword + "' must be " + what);
    }

    private void parse(String keyword, BsonValue arg) {
        if (NOT_SUPPORTED.contains(keyword)) {
            throw parseError("$jsonSchema keyword '" + keyword + "' is not currently supported");
        }
        if (!KEYWORDS.contains(keyword)) {
            throw parseError("Unknown $jsonSchema keyword: " + keyword);
        }
        switch (keyword) {
            case "bsonType" -> {
                for (BsonValue t : arg.isArray() ? arg.asArray().getValues() : List.of(arg)) {
                    if (!t.isString() || TypeAliases.test(t.asString().getValue()) == null) {
                        throw new MongoError(ErrorCode.BAD_VALUE, "Unknown type name alias: " + t);
                    }
                }
            }
            case "type" -> {
                for (BsonValue t : arg.isArray() ? arg.asArray().getValues() : List.of(arg)) {
                    if (!t.isString()) {
                        throw typeError("type", "either a string or an array of strings");
                    }
                    if (t.asString().getValue().equals("integer")) {
                        throw parseError("$jsonSchema type 'integer' is not currently supported.");
                    }
                    if (!JSON_TYPES.contains(t.asString().getValue())) {
                        throw new MongoError(ErrorCode.BAD_VALUE, "Unknown type name alias: "
                                + t.asString().getValue());
                    }
                }
            }
            case "required" -> {
                if (!arg.isArray() || arg.asArray().stream().anyMatch(v -> !v.isString())) {
                    throw typeError("required", "an array of strings");
                }
                if (arg.asArray().isEmpty()) {
                    throw parseError("$jsonSchema keyword 'required' cannot be an empty array");
                }
            }
            case "properties" -> {
                for (Map.Entry<String, BsonValue> p : document(keyword, arg).entrySet()) {
                    properties.put(p.getKey(), compile(p.getValue()));
                }
            }
            case "patternProperties" -> {
                for (Map.Entry<String, BsonValue> p : document(keyword, arg).entrySet()) {
                    Pattern re = Pattern.compile(p.getKey());
                    patternProperties.put(re, compile(p.getValue()));
                    patternSources.put(re.pattern(), p.getKey());
                }
            }
            case "additionalProperties" -> additionalProperties = booleanOrSchema(keyword, arg);
            case "additionalItems" -> additionalItems = booleanOrSchema(keyword, arg);
            case "items" -> {
                if (arg.isArray()) {
                    for (BsonValue s : arg.asArray()) {
                        tupleItems.add(compile(s));
                    }
                } else {
                    items = compile(arg);
                }
            }
            case "allOf", "anyOf", "oneOf" -> {
                if (!arg.isArray() || arg.asArray().isEmpty()) {
                    throw typeError(keyword, "a nonempty array");
                }
                List<JsonSchema> into = keyword.equals("allOf") ? allOf : keyword.equals("anyOf") ? anyOf : oneOf;
                for (BsonValue s : arg.asArray()) {
                    into.add(compile(s));
                }
            }
            case "not" -> not = compile(arg);
            case "minimum", "maximum", "multipleOf" -> {
                if (!BsonOrder.isNumber(arg)) {
                    throw typeError(keyword, "a number");
                }
            }
            case "exclusiveMinimum", "exclusiveMaximum", "uniqueItems" -> {
                if (!arg.isBoolean()) {
                    throw typeError(keyword, "a boolean");
                }
            }
            case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties" -> {
                if (!BsonOrder.isNumber(arg) || BsonOrder.toDouble(arg) < 0
                        || BsonOrder.toDouble(arg) != Math.floor(BsonOrder.toDouble(arg))) {
                    throw typeError(keyword, "a representable as a non-negative integer");
                }
            }
            case "pattern" -> {
                if (!arg.isString()) {
                    throw typeError(keyword, "a string");
                }
                pattern = Pattern.compile(arg.asString().getValue());
            }
            case "enum" -> {
                if (!arg.isArray() || arg.asArray().isEmpty()) {
                    throw typeError(keyword, "a nonempty array");
                }
            }
            case "description", "title" -> {
                if (!arg.isString()) {
                    throw typeError(keyword, "of type string");
                }
            }
            case "dependencies" -> {
                for (Map.Entry<String, BsonValue> d : document(keyword, arg).entrySet()) {
                    if (d.getValue().isDocument()) {
                        schemaDependencies.put(d.getKey(), compile(d.getValue()));
                    } else if (!d.getValue().isArray()) {
                        throw typeError(keyword, "an object whose values are objects or arrays of strings");
                    }
                }
            }
            case "encrypt", "encryptMetadata" -> throw parseError("$jsonSchema keyword '" + keyword
                    + "' is not currently supported");
            default -> { }
        }
    }

    private static BsonDocument document(String keyword, BsonValue arg) {
        if (!arg.isDocument()) {
            throw typeError(keyword, "an object");
        }
        return arg.asDocument();
    }

    private static JsonSchema booleanOrSchema(String keyword, BsonValue arg) {
        if (arg.isBoolean()) {
            return arg.asBoolean().getValue() ? null : new JsonSchema(new BsonDocument("not", new BsonDocument()));
        }
        if (!arg.isDocument()) {
            throw typeError(keyword, "either an object or a boolean");
        }
        return compile(arg);
    }

    /** The rules {@code value} does not satisfy (empty when it is valid). */
    public List<BsonDocument> failures(BsonValue value) {
        List<BsonDocument> out = new ArrayList<>();
        for (Map.Entry<String, BsonValue> e : schema.entrySet()) {
            BsonDocument f = check(e.getKey(), e.getValue(), value);
            if (f != null) {
                out.add(f);
            }
        }
        return out;
    }

    public boolean valid(BsonValue value) {
        return failures(value).isEmpty();
    }

    private BsonDocument rule(String keyword, String reason, BsonValue considered) {
        BsonDocument d = new BsonDocument("operatorName", new BsonString(keyword))
                .append("specifiedAs", new BsonDocument(keyword, schema.get(keyword)));
        if (reason != null) {
            d.append("reason", new BsonString(reason));
        }
        if (considered != null) {
            d.append("consideredValue", considered);
        }
        return d;
    }

    private BsonDocument check(String keyword, BsonValue arg, BsonValue v) {
        boolean number = BsonOrder.isNumber(v);
        switch (keyword) {
            case "bsonType", "type" -> {
                boolean ok = false;
                for (BsonValue t : arg.isArray() ? arg.asArray().getValues() : List.of(arg)) {
                    String name = t.asString().getValue();
                    ok |= keyword.equals("type") ? jsonType(name, v) : TypeAliases.test(name).test(v);
                }
                return ok ? null : rule(keyword, "type did not match", v)
                        .append("consideredType", new BsonString(TypeAliases.name(v)));
            }
            case "required" -> {
                if (!v.isDocument()) {
                    return null;
                }
                BsonArray missing = new BsonArray();
                for (BsonValue name : arg.asArray()) {
                    if (!v.asDocument().containsKey(name.asString().getValue())) {
                        missing.add(name);
                    }
                }
                return missing.isEmpty() ? null : rule(keyword, null, null).append("missingProperties", missing);
            }
            case "properties" -> {
                if (!v.isDocument()) {
                    return null;
                }
                BsonArray failed = new BsonArray();
                for (Map.Entry<String, JsonSchema> p : properties.entrySet()) {
                    BsonValue pv = v.asDocument().get(p.getKey());
                    if (pv != null) {
                        List<BsonDocument> details = p.getValue().failures(pv);
                        if (!details.isEmpty()) {
                            failed.add(property(p.getKey(), p.getValue(), details));
                        }
                    }
                }
                return failed.isEmpty() ? null : new BsonDocument("operatorName", new BsonString(keyword))
                        .append("propertiesNotSatisfied", failed);
            }
            case "patternProperties" -> {
                if (!v.isDocument()) {
                    return null;
                }
                BsonArray failed = new BsonArray();
                for (Map.Entry<String, BsonValue> field : v.asDocument().entrySet()) {
                    for (Map.Entry<Pattern, JsonSchema> p : patternProperties.entrySet()) {
                        if (p.getKey().matcher(field.getKey()).find()) {
                            List<BsonDocument> details = p.getValue().failures(field.getValue());
                            if (!details.isEmpty()) {
                                failed.add(new BsonDocument("propertyName", new BsonString(field.getKey()))
                                        .append("regexMatched",
                                                new BsonString(patternSources.get(p.getKey().pattern())))
                                        .append("details", new BsonArray(details)));
                            }
                        }
                    }
                }
                return failed.isEmpty() ? null : new BsonDocument("operatorName", new BsonString(keyword))
                        .append("details", failed);
            }
            case "additionalProperties" -> {
                if (!v.isDocument() || additionalProperties == null) {
                    return null;
                }
                BsonArray extra = new BsonArray();
                BsonArray details = new BsonArray();
                for (Map.Entry<String, BsonValue> field : v.asDocument().entrySet()) {
                    String name = field.getKey();
                    if (properties.containsKey(name)
                            || patternProperties.keySet().stream().anyMatch(p -> p.matcher(name).find())) {
                        continue;
                    }
                    List<BsonDocument> f = additionalProperties.failures(field.getValue());
                    if (!f.isEmpty()) {
                        extra.add(new BsonString(name));
                        details.add(new BsonDocument("propertyName", new BsonString(name))
                                .append("details", new BsonArray(f)));
                    }
                }
                if (extra.isEmpty()) {
                    return null;
                }
                BsonDocument d = rule(keyword, null, null);
                return arg.isBoolean() ? d.append("additionalProperties", extra) : d.append("details", details);
            }
            case "minimum", "maximum" -> {
                if (!number) {
                    return null;
                }
                int c = BsonOrder.INSTANCE.compare(v, arg);
                boolean exclusive = schema.getBoolean(keyword.equals("minimum") ? "exclusiveMinimum"
                        : "exclusiveMaximum", BsonBoolean.FALSE).getValue();
                boolean ok = keyword.equals("minimum") ? (exclusive ? c > 0 : c >= 0) : (exclusive ? c < 0 : c <= 0);
                return ok ? null : rule(keyword, "comparison failed", v);
            }
            case "multipleOf" -> {
                if (!number) {
                    return null;
                }
                double x = BsonOrder.toDouble(v);
                double m = BsonOrder.toDouble(arg);
                double q = x / m;
                return q == Math.rint(q) ? null : rule(keyword, "considered value is not a multiple of the "
                        + "specified value", v);
            }
            case "minLength", "maxLength" -> {
                if (!v.isString()) {
                    return null;
                }
                String s = v.asString().getValue();
                long n = s.codePointCount(0, s.length());
                long bound = (long) BsonOrder.toDouble(arg);
                boolean ok = keyword.equals("minLength") ? n >= bound : n <= bound;
                return ok ? null : rule(keyword, "specified string length was not satisfied", v);
            }
            case "pattern" -> {
                if (!v.isString() || pattern.matcher(v.asString().getValue()).find()) {
                    return null;
                }
                return rule(keyword, "regular expression did not match", v);
            }
            case "enum" -> {
                for (BsonValue option : arg.asArray()) {
                    if (BsonOrder.equal(option, v)) {
                        return null;
                    }
                }
                return rule(keyword, "value was not found in enum", v);
            }
            case "items", "additionalItems" -> {
                if (!v.isArray()) {
                    return null;
                }
                List<BsonValue> elements = v.asArray().getValues();
                if (keyword.equals("items") && items != null) {
                    for (int i = 0; i < elements.size(); i++) {
                        List<BsonDocument> f = items.failures(elements.get(i));
                        if (!f.isEmpty()) {
                            return new BsonDocument("operatorName", new BsonString("items"))
                                    .append("reason", new BsonString("At least one item did not match the sub-schema"))
                                    .append("itemIndex", new BsonInt32(i)).append("details", new BsonArray(f));
                        }
                    }
                    return null;
                }
                if (keyword.equals("items")) {
                    for (int i = 0; i < Math.min(tupleItems.size(), elements.size()); i++) {
                        List<BsonDocument> f = tupleItems.get(i).failures(elements.get(i));
                        if (!f.isEmpty()) {
                            return new BsonDocument("operatorName", new BsonString("items"))
                                    .append("details", new BsonArray(List.of(new BsonDocument("index",
                                            new BsonInt32(i)).append("details", new BsonArray(f)))));
                        }
                    }
                    return null;
                }
                if (additionalItems == null || tupleItems.isEmpty()) {
                    return null;
                }
                for (int i = tupleItems.size(); i < elements.size(); i++) {
                    List<BsonDocument> f = additionalItems.failures(elements.get(i));
                    if (!f.isEmpty()) {
                        return rule(keyword, "At least one additional item did not match the sub-schema", null)
                                .append("itemIndex", new BsonInt32(i)).append("details", new BsonArray(f));
                    }
                }
                return null;
            }
            case "minItems", "maxItems" -> {
                if (!v.isArray()) {
                    return null;
                }
                long bound = (long) BsonOrder.toDouble(arg);
                int n = v.asArray().size();
                boolean ok = keyword.equals("minItems") ? n >= bound : n <= bound;
                return ok ? null : rule(keyword, "array did not match specified length", v);
            }
            case "uniqueItems" -> {
                if (!v.isArray() || !arg.asBoolean().getValue()) {
                    return null;
                }
                List<BsonValue> seen = new ArrayList<>();
                for (BsonValue x : v.asArray()) {
                    if (seen.stream().anyMatch(y -> BsonOrder.equal(x, y))) {
                        return rule(keyword, "found a duplicate item", v).append("duplicatedValue", x);
                    }
                    seen.add(x);
                }
                return null;
            }
            case "minProperties", "maxProperties" -> {
                if (!v.isDocument()) {
                    return null;
                }
                long bound = (long) BsonOrder.toDouble(arg);
                int n = v.asDocument().size();
                boolean ok = keyword.equals("minProperties") ? n >= bound : n <= bound;
                return ok ? null : rule(keyword, "specified number of properties was not satisfied", null)
                        .append("numberOfProperties", new BsonInt32(n));
            }
            case "allOf", "anyOf", "oneOf" -> {
                List<JsonSchema> subs = keyword.equals("allOf") ? allOf : keyword.equals("anyOf") ? anyOf : oneOf;
                BsonArray notSatisfied = new BsonArray();
                BsonArray matching = new BsonArray();
                for (int i = 0; i < subs.size(); i++) {
                    List<BsonDocument> f = subs.get(i).failures(v);
                    if (f.isEmpty()) {
                        matching.add(new BsonInt32(i));
                    } else {
                        notSatisfied.add(new BsonDocument("index", new BsonInt32(i))
                                .append("details", new BsonArray(f)));
                    }
                }
                boolean ok = switch (keyword) {
                    case "allOf" -> notSatisfied.isEmpty();
                    case "anyOf" -> !matching.isEmpty();
                    default -> matching.size() == 1;
                };
                if (ok) {
                    return null;
                }
                if (keyword.equals("oneOf") && matching.size() > 1) {
                    return new BsonDocument("operatorName", new BsonString(keyword))
                            .append("reason", new BsonString("more than one subschema matched"))
                            .append("matchingSchemaIndexes", matching);
                }
                return new BsonDocument("operatorName", new BsonString(keyword))
                        .append("schemasNotSatisfied", notSatisfied);
            }
            case "not" -> {
                return not.valid(v) ? new BsonDocument("operatorName", new BsonString("not"))
                        .append("reason", new BsonString("child expression matched")) : null;
            }
            case "dependencies" -> {
                if (!v.isDocument()) {
                    return null;
                }
                BsonArray failed = new BsonArray();
                for (Map.Entry<String, BsonValue> d : arg.asDocument().entrySet()) {
                    if (!v.asDocument().containsKey(d.getKey())) {
                        continue;
                    }
                    if (d.getValue().isArray()) {
                        BsonArray missing = new BsonArray();
                        for (BsonValue name : d.getValue().asArray()) {
                            if (!v.asDocument().containsKey(name.asString().getValue())) {
                                missing.add(name);
                            }
                        }
                        if (!missing.isEmpty()) {
                            failed.add(new BsonDocument("conditionalProperty", new BsonString(d.getKey()))
                                    .append("missingProperties", missing));
                        }
                    } else {
                        List<BsonDocument> f = schemaDependencies.get(d.getKey()).failures(v);
                        if (!f.isEmpty()) {
                            failed.add(new BsonDocument("conditionalProperty", new BsonString(d.getKey()))
                                    .append("details", new BsonArray(f)));
                        }
                    }
                }
                return failed.isEmpty() ? null : new BsonDocument("operatorName", new BsonString(keyword))
                        .append("failingDependencies", failed);
            }
            default -> {
                return null; // description, title: annotations
            }
        }
    }

    private static BsonDocument property(String name, JsonSchema sub, List<BsonDocument> details) {
        BsonDocument d = new BsonDocument("propertyName", new BsonString(name));
        BsonValue description = sub.schema.get("description");
        if (description != null) {
            d.append("description", description);
        }
        return d.append("details", new BsonArray(details));
    }

    private static boolean jsonType(String name, BsonValue v) {
        return switch (name) {
            case "object" -> v.isDocument();
            case "array" -> v.isArray();
            case "number" -> BsonOrder.isNumber(v);
            case "boolean" -> v.isBoolean();
            case "string" -> v.isString();
            case "null" -> v.getBsonType() == BsonType.NULL;
            default -> false;
        };
    }
}
