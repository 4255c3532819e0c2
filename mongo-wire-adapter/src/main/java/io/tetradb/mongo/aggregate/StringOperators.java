package io.tetradb.mongo.aggregate;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.query.BsonOrder;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonNull;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * String expression operators counted in code points as MongoDB's {@code CP} variants: {@code $substrCP $strLenCP
 * $split $trim $ltrim $rtrim $regexMatch $indexOfCP}. Null or missing inputs give null (or false for
 * {@code $regexMatch}).
 */
final class StringOperators {
    static final Set<String> NAMES = Set.of("$substrCP", "$substr", "$substrBytes", "$strLenCP", "$strLenBytes",
            "$split", "$trim", "$ltrim", "$rtrim", "$regexMatch", "$indexOfCP", "$indexOfBytes", "$strcasecmp",
            "$replaceOne", "$replaceAll", "$regexFind", "$regexFindAll");

    private StringOperators() {
    }

    static BsonValue apply(String op, BsonValue arg, BsonDocument doc) {
        switch (op) {
            case "$substr", "$substrBytes": {
                List<BsonValue> a = Expressions.args(arg, doc);
                if (a.size() != 3) {
                    throw new MongoError(ErrorCode.WRONG_ARGUMENT_COUNT, "Expression " + op + " takes exactly 3 "
                            + "arguments. " + a.size() + " were passed in.");
                }
                return substrBytes(op, coerceToString(a.get(0)), a.get(1), a.get(2));
            }
            case "$strLenBytes": {
                BsonValue v = Expressions.args(arg, doc).get(0);
                if (v == null || !v.isString()) {
                    throw new MongoError(ErrorCode.STR_LEN_BYTES_NOT_STRING, "$strLenBytes requires a string "
                            + "argument, found: " + (v == null ? "missing" : Expressions.typeName(v)));
                }
                return new BsonInt32(v.asString().getValue().getBytes(StandardCharsets.UTF_8).length);
            }
            case "$substrCP": {
                List<BsonValue> a = Expressions.args(arg, doc);
                if (a.size() != 3) {
                    throw new MongoError(ErrorCode.WRONG_ARGUMENT_COUNT, "Expression " + op + " takes exactly 3 "
                            + "arguments. " + a.size() + " were passed in.");
                }
                String s = coerceToString(a.get(0));
                int cps = s.codePointCount(0, s.length());
                int from = Math.min(cps, Math.max(0, (int) BsonOrder.toDouble(a.get(1))));
                int n = (int) BsonOrder.toDouble(a.get(2));
                int to = n < 0 ? cps : (int) Math.min(cps, (long) from + n);
                return new BsonString(s.substring(s.offsetByCodePoints(0, from), s.offsetByCodePoints(0, to)));
            }
            case "$strLenCP": {
                BsonValue v = Expressions.args(arg, doc).get(0);
                String s = string(op, v);
                return new BsonInt32(s.codePointCount(0, s.length()));
            }
            case "$split": {
                List<BsonValue> a = Expressions.args(arg, doc);
                if (a.get(0) == null || a.get(0).isNull()) {
                    return BsonNull.VALUE;
                }
                String s = string(op, a.get(0));
                String sep = string(op, a.get(1), true);
                if (sep.isEmpty()) {
                    throw new MongoError(ErrorCode.SPLIT_EMPTY_SEPARATOR, "$split requires a non-empty separator");
                }
                BsonArray out = new BsonArray();
                for (String part : s.split(Pattern.quote(sep), -1)) {
                    out.add(new BsonString(part));
                }
                return out;
            }
            case "$trim", "$ltrim", "$rtrim": {
                if (!arg.isDocument() || !arg.asDocument().containsKey("input")) {
                    throw MongoError.badValue(op + " requires an object with an 'input' field");
                }
                BsonValue in = Expressions.eval(arg.asDocument().get("input"), doc);
                if (in == null || in.isNull()) {
                    return BsonNull.VALUE;
                }
                String s = string(op, in);
                BsonValue charsV = arg.asDocument().containsKey("chars")
                        ? Expressions.eval(arg.asDocument().get("chars"), doc) : null;
                String chars = charsV == null || charsV.isNull() ? null : string(op, charsV, true);
                int start = 0;
                int end = s.length();
                if (!op.equals("$rtrim")) {
                    while (start < end && trimmed(s.codePointAt(start), chars)) {
                        start += Character.charCount(s.codePointAt(start));
                    }
                }
                if (!op.equals("$ltrim")) {
                    while (end > start && trimmed(s.codePointBefore(end), chars)) {
                        end -= Character.charCount(s.codePointBefore(end));
                    }
                }
                return new BsonString(s.substring(start, end));
            }
            case "$strcasecmp": {
                List<BsonValue> a = Expressions.args(arg, doc);
                if (a.size() != 2) {
                    throw new MongoError(ErrorCode.WRONG_ARGUMENT_COUNT, "Expression $strcasecmp takes exactly 2 "
                            + "arguments. " + a.size() + " were passed in.");
                }
                int c = coerceToString(a.get(0)).toUpperCase(java.util.Locale.ROOT)
                        .compareTo(coerceToString(a.get(1)).toUpperCase(java.util.Locale.ROOT));
                return new BsonInt32(Integer.signum(c));
            }
            case "$replaceOne", "$replaceAll": {
                if (!arg.isDocument()) {
                    throw new MongoError(ErrorCode.FAILED_TO_PARSE, op + " requires an object as an argument");
                }
                BsonDocument spec = arg.asDocument();
                for (String k : spec.keySet()) {
                    if (!List.of("input", "find", "replacement").contains(k)) {
                        throw new MongoError(ErrorCode.FAILED_TO_PARSE, op + " found an unknown argument: " + k);
                    }
                }
                BsonValue[] v = new BsonValue[3];
                String[] names = {"input", "find", "replacement"};
                for (int i = 0; i < 3; i++) {
                    if (!spec.containsKey(names[i])) {
                        throw new MongoError(ErrorCode.FAILED_TO_PARSE, op + " requires '" + names[i]
                                + "' to be specified");
                    }
                    v[i] = Expressions.eval(spec.get(names[i]), doc);
                }
                for (int i = 0; i < 3; i++) {
                    if (v[i] != null && !v[i].isNull() && !v[i].isString()) {
                        throw new MongoError(ErrorCode.REPLACE_NOT_STRING, op + " requires that '" + names[i]
                                + "' be a string, found: " + Expressions.typeName(v[i]));
                    }
                }
                for (BsonValue x : v) {
                    if (x == null || x.isNull()) {
                        return BsonNull.VALUE;
                    }
                }
                String in = v[0].asString().getValue();
                String find = v[1].asString().getValue();
                String with = v[2].asString().getValue();
                if (op.equals("$replaceAll")) {
                    return new BsonString(find.isEmpty() ? in : in.replace(find, with));
                }
                int at = in.indexOf(find);
                return new BsonString(at < 0 ? in : in.substring(0, at) + with + in.substring(at + find.length()));
            }
            case "$indexOfBytes": {
                List<BsonValue> a = Expressions.args(arg, doc);
                if (a.size() < 2 || a.size() > 4) {
                    throw new MongoError(ErrorCode.WRONG_ARGUMENT_COUNT, "Expression $indexOfBytes takes at least 2 "
                            + "arguments, and at most 4, but " + a.size() + " were passed in.");
                }
                if (a.get(0) == null || a.get(0).isNull()) {
                    return BsonNull.VALUE;
                }
                byte[] s = string(op, a.get(0)).getBytes(StandardCharsets.UTF_8);
                byte[] sub = string(op, a.get(1), true).getBytes(StandardCharsets.UTF_8);
                int from = a.size() > 2 ? (int) BsonOrder.toDouble(a.get(2)) : 0;
                int end = a.size() > 3 ? (int) Math.min(s.length, BsonOrder.toDouble(a.get(3))) : s.length;
                for (int i = Math.max(0, from); i + sub.length <= end; i++) {
                    if (java.util.Arrays.equals(s, i, i + sub.length, sub, 0, sub.length)) {
                        return new BsonInt32(i);
                    }
                }
                return new BsonInt32(-1);
            }
            case "$regexFind", "$regexFindAll": {
                if (!arg.isDocument()) {
                    throw MongoError.badValue(op + " expects an object of named arguments");
                }
                BsonDocument spec = arg.asDocument();
                BsonValue in = Expressions.eval(spec.get("input"), doc);
                BsonValue re = Expressions.eval(spec.get("regex"), doc);
                boolean all = op.equals("$regexFindAll");
                if (in == null || in.isNull() || re == null || re.isNull()) {
                    return all ? new BsonArray() : BsonNull.VALUE;
                }
                String input = string(op, in);
                java.util.regex.Matcher m = regex(op, re, spec, doc).matcher(input);
                BsonArray found = new BsonArray();
                int from = 0;
                while (from <= input.length() && m.find(from)) {
                    BsonArray captures = new BsonArray();
                    for (int g = 1; g <= m.groupCount(); g++) {
                        captures.add(m.group(g) == null ? BsonNull.VALUE : new BsonString(m.group(g)));
                    }
                    found.add(new BsonDocument("match", new BsonString(m.group()))
                            .append("idx", new BsonInt32(input.codePointCount(0, m.start())))
                            .append("captures", captures));
                    if (!all) {
                        break;
                    }
                    from = m.end() > m.start() ? m.end() : m.end() + 1; // an empty match moves on by one
                }
                return all ? found : found.isEmpty() ? BsonNull.VALUE : found.get(0);
            }
            case "$regexMatch": {
                if (!arg.isDocument()) {
                    throw MongoError.badValue("$regexMatch expects an object of named arguments");
                }
                BsonDocument spec = arg.asDocument();
                BsonValue in = Expressions.eval(spec.get("input"), doc);
                BsonValue re = Expressions.eval(spec.get("regex"), doc);
                if (in == null || in.isNull() || re == null || re.isNull()) {
                    return BsonBoolean.FALSE;
                }
                String input = string(op, in);
                return BsonBoolean.valueOf(regex(op, re, spec, doc).matcher(input).find());
            }
            case "$indexOfCP": {
                List<BsonValue> a = Expressions.args(arg, doc);
                if (a.get(0) == null || a.get(0).isNull()) {
                    return BsonNull.VALUE;
                }
                String s = string(op, a.get(0));
                String sub = string(op, a.get(1), true);
                int from = a.size() > 2 ? (int) BsonOrder.toDouble(a.get(2)) : 0;
                int cps = s.codePointCount(0, s.length());
                if (from > cps) {
                    return new BsonInt32(-1);
                }
                int at = s.indexOf(sub, s.offsetByCodePoints(0, from));
                if (a.size() > 3 && at >= 0 && s.codePointCount(0, at + sub.length())
                        > (int) BsonOrder.toDouble(a.get(3))) {
                    at = -1;
                }
                return new BsonInt32(at < 0 ? -1 : s.codePointCount(0, at));
            }
            default:
                throw new IllegalStateException(op);
        }
    }

    /**
     * {@code $substrBytes}: {@code n} UTF-8 bytes from byte {@code from} (a negative or too large {@code n}: to the
     * end); a range that splits a character is refused as in MongoDB.
     */
    private static BsonValue substrBytes(String op, String s, BsonValue fromV, BsonValue nV) {
        if (fromV == null || !BsonOrder.isNumber(fromV)) {
            throw MongoError.badValue(op + ":  starting index must be a numeric type (is BSON type "
                    + (fromV == null ? "missing" : Expressions.typeName(fromV)) + ")");
        }
        if (nV == null || !BsonOrder.isNumber(nV)) {
            throw MongoError.badValue(op + ":  length must be a numeric type (is BSON type "
                    + (nV == null ? "missing" : Expressions.typeName(nV)) + ")");
        }
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        double fromD = BsonOrder.toDouble(fromV);
        if (fromD < 0) {
            throw MongoError.badValue(op + ": starting index must be non-negative (got: " + (long) fromD + ")");
        }
        int from = (int) Math.min(bytes.length, fromD);
        double nD = BsonOrder.toDouble(nV);
        int to = nD < 0 ? bytes.length : (int) Math.min(bytes.length, from + nD);
        if (from < bytes.length && (bytes[from] & 0xC0) == 0x80) {
            throw new MongoError(ErrorCode.SUBSTR_BYTES_START, op + ":  Invalid range, starting index is a UTF-8 "
                    + "continuation byte.");
        }
        if (to < bytes.length && (bytes[to] & 0xC0) == 0x80) {
            throw new MongoError(ErrorCode.SUBSTR_BYTES_END, op + ":  Invalid range, ending index is in the middle "
                    + "of a UTF-8 character.");
        }
        return new BsonString(new String(bytes, from, to - from, StandardCharsets.UTF_8));
    }

    /** MongoDB's string coercion of the substring operators: numbers and dates as text, null and missing as "". */
    static String coerceToString(BsonValue v) {
        if (v == null || v.isNull() || v.getBsonType() == org.bson.BsonType.UNDEFINED) {
            return "";
        }
        return switch (v.getBsonType()) {
            case STRING, INT32, INT64, DOUBLE, DECIMAL128, DATE_TIME -> Conversions.string(v);
            case SYMBOL -> v.asSymbol().getSymbol();
            case TIMESTAMP -> "Timestamp(" + v.asTimestamp().getTime() + ", " + v.asTimestamp().getInc() + ")";
            default -> throw new MongoError(ErrorCode.COERCE_TO_STRING, "can't convert from BSON type "
                    + Expressions.typeName(v) + " to String");
        };
    }

    /** MongoDB's default trim set: whitespace and the null character. */
    private static boolean trimmed(int cp, String chars) {
        return chars == null ? cp == 0 || Character.isWhitespace(cp) || Character.isSpaceChar(cp)
                : chars.codePoints().anyMatch(c -> c == cp);
    }

    static Pattern compile(String pattern, String options) {
        return Pattern.compile(pattern, io.tetradb.mongo.query.RegexOptions.flags(options, "imsx", "$regexMatch: "));
    }

    /** The string argument {@code v} (the first, or the {@code second}) of {@code op}, else MongoDB's error. */
    private static String string(String op, BsonValue v) {
        return string(op, v, false);
    }

    private static String string(String op, BsonValue v, boolean second) {
        if (v != null && v.isString()) {
            return v.asString().getValue();
        }
        String type = v == null ? "missing" : Expressions.typeName(v);
        throw switch (op) {
            case "$strLenCP" -> new MongoError(ErrorCode.STR_LEN_CP_NOT_STRING, "$strLenCP requires a string argument, "
                    + "found: " + type);
            case "$split" -> second ? new MongoError(ErrorCode.SPLIT_SEPARATOR, "$split requires an expression that "
                    + "evaluates to a string as a second argument, found: " + type)
                    : new MongoError(ErrorCode.SPLIT_INPUT, "$split requires an expression that evaluates to a string "
                    + "as a first argument, found: " + type);
            case "$indexOfCP", "$indexOfBytes" -> new MongoError(op.equals("$indexOfCP")
                    ? (second ? ErrorCode.INDEX_OF_CP_SUBSTRING : ErrorCode.INDEX_OF_CP_INPUT)
                    : (second ? ErrorCode.INDEX_OF_BYTES_SUBSTRING : ErrorCode.INDEX_OF_BYTES_INPUT),
                    op + " requires a string as the " + (second ? "second" : "first") + " argument, found: " + type);
            case "$trim", "$ltrim", "$rtrim" -> second ? new MongoError(ErrorCode.TRIM_CHARS, op + " requires 'chars' "
                    + "to be a string, got " + type + " instead.") : new MongoError(ErrorCode.TRIM_INPUT, op
                    + " requires its input to be a string, got " + type + " instead.");
            case "$regexMatch", "$regexFind", "$regexFindAll" -> second ? new MongoError(ErrorCode.REGEX_REGEX, op
                    + " needs 'regex' to be of type string or regex") : new MongoError(ErrorCode.REGEX_INPUT, op
                    + " needs 'input' to be of type string");
            default -> MongoError.badValue(op + " requires a string argument, found: " + type);
        };
    }

    /** The pattern of a $regex* expression: a regex value's pattern and flags, or a string, plus its options. */
    private static java.util.regex.Pattern regex(String op, BsonValue re, BsonDocument spec, BsonDocument doc) {
        String pattern;
        String options = "";
        if (re.isRegularExpression()) {
            pattern = re.asRegularExpression().getPattern();
            options = re.asRegularExpression().getOptions();
        } else {
            pattern = string(op, re, true);
        }
        if (spec.containsKey("options")) {
            options += string(op, Expressions.eval(spec.get("options"), doc));
        }
        return compile(pattern, options);
    }
}
