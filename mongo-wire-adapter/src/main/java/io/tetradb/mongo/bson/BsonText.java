package io.tetradb.mongo.bson;

import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.HexFormat;
import java.util.Map;

/**
 * BSON values as MongoDB's server writes them into error messages ({@code BSONObj::toString}): field names bare,
 * strings double-quoted, {@code { a: 1, b: "x" }}, {@code ObjectId('…')}, {@code new Date(ms)}, doubles with a
 * fraction ({@code 5.0}). Used for the E11000 text and update-parse errors, so clients matching on them see MongoDB's.
 */
public final class BsonText {
    private BsonText() {
    }

    public static String of(BsonValue v) {
        StringBuilder sb = new StringBuilder();
        append(sb, v);
        return sb.toString();
    }

    private static void append(StringBuilder sb, BsonValue v) {
        switch (v.getBsonType()) {
            case DOCUMENT -> {
                BsonDocument d = v.asDocument();
                if (d.isEmpty()) {
                    sb.append("{}");
                    return;
                }
                sb.append("{ ");
                boolean first = true;
                for (Map.Entry<String, BsonValue> e : d.entrySet()) {
                    if (!first) {
                        sb.append(", ");
                    }
                    first = false;
                    sb.append(e.getKey()).append(": ");
                    append(sb, e.getValue());
                }
                sb.append(" }");
            }
            case ARRAY -> {
                if (v.asArray().isEmpty()) {
                    sb.append("[]");
                    return;
                }
                sb.append("[ ");
                boolean first = true;
                for (BsonValue x : v.asArray()) {
                    if (!first) {
                        sb.append(", ");
                    }
                    first = false;
                    append(sb, x);
                }
                sb.append(" ]");
            }
            case STRING -> quoted(sb, v.asString().getValue());
            case SYMBOL -> quoted(sb, v.asSymbol().getSymbol());
            case INT32 -> sb.append(v.asInt32().getValue());
            case INT64 -> sb.append(v.asInt64().getValue());
            case DOUBLE -> sb.append(doubleText(v.asDouble().getValue()));
            case DECIMAL128 -> sb.append("NumberDecimal(\"").append(v.asDecimal128().getValue()).append("\")");
            case BOOLEAN -> sb.append(v.asBoolean().getValue());
            case NULL -> sb.append("null");
            case UNDEFINED -> sb.append("undefined");
            case MIN_KEY -> sb.append("MinKey");
            case MAX_KEY -> sb.append("MaxKey");
            case OBJECT_ID -> sb.append("ObjectId('").append(v.asObjectId().getValue().toHexString()).append("')");
            case DATE_TIME -> sb.append("new Date(").append(v.asDateTime().getValue()).append(')');
            case TIMESTAMP -> sb.append("Timestamp(").append(v.asTimestamp().getTime()).append(", ")
                    .append(v.asTimestamp().getInc()).append(')');
            case REGULAR_EXPRESSION -> sb.append('/').append(v.asRegularExpression().getPattern()).append('/')
                    .append(v.asRegularExpression().getOptions());
            case BINARY -> sb.append("BinData(").append(v.asBinary().getType()).append(", ")
                    .append(HexFormat.of().withUpperCase().formatHex(v.asBinary().getData())).append(')');
            case JAVASCRIPT -> sb.append(v.asJavaScript().getCode());
            default -> sb.append(v);
        }
    }

    private static void quoted(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\');
            }
            sb.append(c);
        }
        sb.append('"');
    }

    private static String doubleText(double d) {
        if (Double.isNaN(d)) {
            return "nan.0";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf.0" : "-inf.0";
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return (long) d + ".0";
        }
        return Double.toString(d);
    }
}
