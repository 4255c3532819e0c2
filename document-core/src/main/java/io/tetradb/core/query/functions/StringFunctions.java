package io.tetradb.core.query.functions;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import static io.tetradb.core.query.functions.Args.UNDEFINED;
import static io.tetradb.core.query.functions.Args.allStrings;
import static io.tetradb.core.query.functions.Args.bool;
import static io.tetradb.core.query.functions.Args.integer;
import static io.tetradb.core.query.functions.Args.isNumber;
import static io.tetradb.core.query.functions.Args.isString;
import static io.tetradb.core.query.functions.Args.optBool;
import static io.tetradb.core.query.functions.Args.text;

/**
 * String functions (https://learn.microsoft.com/azure/cosmos-db/nosql/query/ → "String functions"). Every function
 * returns undefined when a string argument is not a string or a numeric argument not a number. Lengths and indexes
 * count UTF-16 code units (Java {@code String} indexes).
 */
public final class StringFunctions {
    /** REPLICATE results longer than this are undefined, as in Cosmos. */
    static final int MAX_REPLICATE_LENGTH = 10_000;

    private static final ObjectMapper STRICT_JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private StringFunctions() {
    }

    public static void registerAll(FunctionRegistry r) {
        r.register("CONCAT", 2, Integer.MAX_VALUE, (a, c) -> {
            if (!allStrings(a, 0, a.size())) {
                return UNDEFINED;
            }
            StringBuilder sb = new StringBuilder();
            a.forEach(v -> sb.append(v.textValue()));
            return text(sb.toString());
        });
        r.register("CONTAINS", 2, 3, (a, c) -> stringPredicate(a, (s, t) -> s.contains(t)));
        r.register("STARTSWITH", 2, 3, (a, c) -> stringPredicate(a, (s, t) -> s.startsWith(t)));
        r.register("ENDSWITH", 2, 3, (a, c) -> stringPredicate(a, (s, t) -> s.endsWith(t)));
        r.register("StringEquals", 2, 3, (a, c) -> stringPredicate(a, String::equals));
        r.register("INDEX_OF", 2, 3, (a, c) -> {
            if (!allStrings(a, 0, 2)) {
                return UNDEFINED;
            }
            int start = 0;
            if (a.size() > 2) {
                if (!isNumber(a.get(2))) {
                    return UNDEFINED;
                }
                start = clampToInt(a.get(2).doubleValue());
            }
            String s = a.get(0).textValue();
            if (start < 0 || start > s.length()) {
                return integer(-1);
            }
            return integer(s.indexOf(a.get(1).textValue(), start));
        });
        r.register("LEFT", 2, 2, (a, c) -> {
            if (!isString(a.get(0)) || !isNumber(a.get(1))) {
                return UNDEFINED;
            }
            String s = a.get(0).textValue();
            int n = Math.max(0, Math.min(s.length(), clampToInt(a.get(1).doubleValue())));
            return text(s.substring(0, n));
        });
        r.register("RIGHT", 2, 2, (a, c) -> {
            if (!isString(a.get(0)) || !isNumber(a.get(1))) {
                return UNDEFINED;
            }
            String s = a.get(0).textValue();
            int n = Math.max(0, Math.min(s.length(), clampToInt(a.get(1).doubleValue())));
            return text(s.substring(s.length() - n));
        });
        r.register("SUBSTRING", 3, 3, (a, c) -> {
            if (!isString(a.get(0)) || !isNumber(a.get(1)) || !isNumber(a.get(2))) {
                return UNDEFINED;
            }
            String s = a.get(0).textValue();
            int start = Math.max(0, clampToInt(a.get(1).doubleValue()));
            int length = clampToInt(a.get(2).doubleValue());
            if (start >= s.length() || length <= 0) {
                return text("");
            }
            return text(s.substring(start, (int) Math.min(s.length(), (long) start + length)));
        });
        r.register("LENGTH", 1, 1, (a, c) -> isString(a.get(0)) ? integer(a.get(0).textValue().length()) : UNDEFINED);
        r.register("LOWER", 1, 1, (a, c) -> mapString(a, s -> s.toLowerCase(Locale.ROOT)));
        r.register("UPPER", 1, 1, (a, c) -> mapString(a, s -> s.toUpperCase(Locale.ROOT)));
        r.register("REVERSE", 1, 1, (a, c) -> mapString(a, s -> new StringBuilder(s).reverse().toString()));
        r.register("LTRIM", 1, 2, (a, c) -> trim(a, true, false));
        r.register("RTRIM", 1, 2, (a, c) -> trim(a, false, true));
        r.register("TRIM", 1, 2, (a, c) -> trim(a, true, true));
        r.register("REPLACE", 3, 3, (a, c) -> {
            if (!allStrings(a, 0, 3)) {
                return UNDEFINED;
            }
            String find = a.get(1).textValue();
            if (find.isEmpty()) {
                return a.get(0);
            }
            return text(a.get(0).textValue().replace(find, a.get(2).textValue()));
        });
        r.register("REPLICATE", 2, 2, (a, c) -> {
            if (!isString(a.get(0)) || !isNumber(a.get(1))) {
                return UNDEFINED;
            }
            double times = Math.floor(a.get(1).doubleValue());
            String s = a.get(0).textValue();
            if (times < 0 || times * s.length() > MAX_REPLICATE_LENGTH) {
                return UNDEFINED;
            }
            return text(s.repeat((int) times));
        });
        r.register("ToString", 1, 1, (a, c) -> {
            JsonNode v = a.get(0);
            if (Args.isUndefined(v)) {
                return UNDEFINED;
            }
            return text(v.isTextual() ? v.textValue() : toText(v));
        });
        r.register("StringToArray", 1, 1, (a, c) -> parse(a, JsonNode::isArray));
        r.register("StringToBoolean", 1, 1, (a, c) -> parse(a, JsonNode::isBoolean));
        r.register("StringToNull", 1, 1, (a, c) -> parse(a, JsonNode::isNull));
        r.register("StringToNumber", 1, 1, (a, c) -> {
            JsonNode n = parse(a, JsonNode::isNumber);
            return n.isNumber() ? Args.number(n.doubleValue()) : n;
        });
        r.register("StringToObject", 1, 1, (a, c) -> parse(a, JsonNode::isObject));
        r.register("RegexMatch", 2, 3, (a, c) -> {
            if (!allStrings(a, 0, a.size())) {
                return UNDEFINED;
            }
            int flags = 0;
            if (a.size() > 2) {
                for (char m : a.get(2).textValue().toCharArray()) {
                    switch (m) {
                        case 'i' -> flags |= Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
                        case 'm' -> flags |= Pattern.MULTILINE;
                        case 's' -> flags |= Pattern.DOTALL;
                        case 'x' -> flags |= Pattern.COMMENTS;
                        default -> {
                            return UNDEFINED;
                        }
                    }
                }
            }
            try {
                return bool(Pattern.compile(a.get(1).textValue(), flags).matcher(a.get(0).textValue()).find());
            } catch (PatternSyntaxException e) {
                return UNDEFINED;
            }
        });
    }

    /** The JSON text of a value as ToString prints it: numbers without a needless ".0", containers compact. */
    static String toText(JsonNode v) {
        if (v.isNumber()) {
            return numberText(v);
        }
        if (v.isContainerNode()) {
            return v.toString();
        }
        return v.asText();
    }

    static String numberText(JsonNode v) {
        if (v.isIntegralNumber()) {
            return v.asText();
        }
        double d = v.doubleValue();
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return d > 0 ? "Infinity" : d < 0 ? "-Infinity" : "NaN";
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e21) {
            return new BigDecimal(d).toPlainString();
        }
        double abs = Math.abs(d);
        if (abs >= 1e-7 && abs < 1e21) {
            return new BigDecimal(Double.toString(d)).stripTrailingZeros().toPlainString();
        }
        // JavaScript-style exponent: 1e+21, 1.5e-8
        String s = Double.toString(d).replace(".0E", "E");
        int e = s.indexOf('E');
        String exp = s.substring(e + 1);
        return s.substring(0, e) + "e" + (exp.startsWith("-") ? exp : "+" + exp);
    }

    private interface StringPair {
        boolean test(String s, String t);
    }

    /** CONTAINS, STARTSWITH, ENDSWITH, StringEquals: two strings and an optional ignore-case boolean. */
    private static JsonNode stringPredicate(List<JsonNode> a, StringPair p) {
        if (!allStrings(a, 0, 2)) {
            return UNDEFINED;
        }
        Boolean ignoreCase = optBool(a, 2, false);
        if (ignoreCase == null) {
            return UNDEFINED;
        }
        String s = a.get(0).textValue();
        String t = a.get(1).textValue();
        if (ignoreCase) {
            s = s.toLowerCase(Locale.ROOT);
            t = t.toLowerCase(Locale.ROOT);
        }
        return bool(p.test(s, t));
    }

    private static JsonNode mapString(List<JsonNode> a, java.util.function.UnaryOperator<String> f) {
        return isString(a.get(0)) ? text(f.apply(a.get(0).textValue())) : UNDEFINED;
    }

    /** LTRIM/RTRIM/TRIM: whitespace, or (second argument) any of the given characters, from one or both ends. */
    private static JsonNode trim(List<JsonNode> a, boolean left, boolean right) {
        if (!allStrings(a, 0, a.size())) {
            return UNDEFINED;
        }
        String s = a.get(0).textValue();
        Predicate<Character> trimmed;
        if (a.size() > 1) {
            String chars = a.get(1).textValue();
            trimmed = ch -> chars.indexOf(ch) >= 0;
        } else {
            trimmed = Character::isWhitespace;
        }
        int from = 0;
        int to = s.length();
        while (left && from < to && trimmed.test(s.charAt(from))) {
            from++;
        }
        while (right && to > from && trimmed.test(s.charAt(to - 1))) {
            to--;
        }
        return text(s.substring(from, to));
    }

    /** StringToX: the argument parsed as strict JSON (surrounding whitespace allowed) if it is of the wanted kind. */
    private static JsonNode parse(List<JsonNode> a, Predicate<JsonNode> kind) {
        if (!isString(a.get(0))) {
            return UNDEFINED;
        }
        String s = a.get(0).textValue().strip();
        if (s.isEmpty()) {
            return UNDEFINED;
        }
        try {
            JsonNode v = STRICT_JSON.readTree(s);
            return v != null && kind.test(v) ? v : UNDEFINED;
        } catch (JsonProcessingException e) {
            return UNDEFINED;
        }
    }

    /** A numeric argument truncated toward zero and clamped to the int range. */
    static int clampToInt(double d) {
        if (Double.isNaN(d)) {
            return 0;
        }
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, d < 0 ? Math.ceil(d) : Math.floor(d)));
    }
}
