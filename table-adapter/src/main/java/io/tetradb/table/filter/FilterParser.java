package io.tetradb.table.filter;

import io.tetradb.table.model.DateTimes;
import io.tetradb.table.model.EdmType;
import io.tetradb.table.model.EdmValue;
import io.tetradb.table.model.TableException;

import java.util.HexFormat;
import java.util.Locale;
import java.util.UUID;

/**
 * The OData {@code $filter} subset Azure Tables accepts, parsed by recursive descent:
 * <pre>
 * or      := and ('or' and)*
 * and     := unary ('and' unary)*
 * unary   := 'not' unary | primary
 * primary := '(' or ')' | operand op operand | 'true' | 'false'
 * operand := property | literal
 * literal := 'text' ('' is a quote) | 123 | 123L | 1.5 | 1e3 | true | false
 *          | datetime'2016-03-01T09:30:00Z' | guid'…' | X'0aff' | binary'0aff'
 * </pre>
 * At most 15 comparisons. Every mistake is a {@link TableException} 400 {@code InvalidInput}.
 */
public final class FilterParser {
    public static final int MAX_COMPARISONS = 15;

    private final String text;
    private int pos;
    private int comparisons;

    private FilterParser(String text) {
        this.text = text;
    }

    public static Filter parse(String text) {
        if (text == null || text.isBlank()) {
            throw invalid("the filter is empty");
        }
        FilterParser p = new FilterParser(text);
        Filter f = p.or();
        p.skipSpace();
        if (p.pos < text.length()) {
            throw p.error("unexpected '" + text.substring(p.pos, Math.min(text.length(), p.pos + 20)) + "'");
        }
        return f;
    }

    private Filter or() {
        Filter left = and();
        while (keyword("or")) {
            left = new Filter.Or(left, and());
        }
        return left;
    }

    private Filter and() {
        Filter left = unary();
        while (keyword("and")) {
            left = new Filter.And(left, unary());
        }
        return left;
    }

    private Filter unary() {
        if (keyword("not")) {
            return new Filter.Not(unary());
        }
        return primary();
    }

    private Filter primary() {
        skipSpace();
        if (peek() == '(') {
            pos++;
            Filter inner = or();
            skipSpace();
            if (peek() != ')') {
                throw error("')' expected");
            }
            pos++;
            return inner;
        }
        Object left = operand();
        Filter.Op op = operator();
        if (op == null) {
            if (left instanceof EdmValue v && v.type() == EdmType.BOOLEAN) {
                return new Filter.Constant((Boolean) v.value());
            }
            throw error("a comparison operator (eq ne gt ge lt le) expected");
        }
        Object right = operand();
        if (++comparisons > MAX_COMPARISONS) {
            throw invalid("a filter has at most " + MAX_COMPARISONS + " comparisons");
        }
        if (left instanceof String property && right instanceof EdmValue literal) {
            return new Filter.Comparison(property, op, literal);
        } else if (left instanceof EdmValue literal && right instanceof String property) {
            return new Filter.Comparison(property, op.flipped(), literal);
        }
        throw error("a comparison needs one property and one literal");
    }

    private Filter.Op operator() {
        skipSpace();
        int start = pos;
        String word = word();
        if (word != null) {
            switch (word.toLowerCase(Locale.ROOT)) {
                case "eq": return Filter.Op.EQ;
                case "ne": return Filter.Op.NE;
                case "gt": return Filter.Op.GT;
                case "ge": return Filter.Op.GE;
                case "lt": return Filter.Op.LT;
                case "le": return Filter.Op.LE;
                default: break;
            }
        }
        pos = start;
        return null;
    }

    /** A property name (String) or a literal (EdmValue). */
    private Object operand() {
        skipSpace();
        char c = peek();
        if (c == '\'') {
            return EdmValue.string(quoted());
        }
        if (c == '-' || c == '+' || c == '.' || Character.isDigit(c)) {
            return number();
        }
        String word = word();
        if (word == null) {
            throw error(pos >= text.length() ? "the filter ends too early" : "unexpected '" + c + "'");
        }
        if (peek() == '\'') {
            String body = quoted();
            return typed(word, body);
        }
        return switch (word.toLowerCase(Locale.ROOT)) { // True and False too, as Azure accepts
            case "true" -> EdmValue.bool(true);
            case "false" -> EdmValue.bool(false);
            default -> {
                if (isKeyword(word)) {
                    throw error("'" + word + "' cannot stand here");
                }
                yield word;
            }
        };
    }

    private EdmValue typed(String prefix, String body) {
        try {
            switch (prefix.toLowerCase(Locale.ROOT)) {
                case "datetime":
                    return EdmValue.dateTime(DateTimes.parse(body));
                case "guid":
                    if (!body.matches("[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")) {
                        throw new IllegalArgumentException();
                    }
                    return EdmValue.guid(UUID.fromString(body));
                case "x":
                case "binary":
                    return EdmValue.binary(HexFormat.of().parseHex(body));
                default:
                    throw error("unknown literal type '" + prefix + "'");
            }
        } catch (TableException e) {
            throw e;
        } catch (RuntimeException e) {
            throw error("'" + body + "' is not a valid " + prefix + " literal");
        }
    }

    private EdmValue number() {
        int start = pos;
        if (peek() == '-' || peek() == '+') {
            pos++;
        }
        boolean decimal = false;
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (Character.isDigit(c)) {
                pos++;
            } else if (c == '.' || c == 'e' || c == 'E') {
                decimal = true;
                pos++;
                if ((c == 'e' || c == 'E') && (peek() == '-' || peek() == '+')) {
                    pos++;
                }
            } else {
                break;
            }
        }
        String digits = text.substring(start, pos);
        char suffix = peek();
        try {
            if (suffix == 'L' || suffix == 'l') {
                pos++;
                if (decimal) {
                    throw error("'" + digits + "L' is not a valid Int64 literal");
                }
                return EdmValue.int64(Long.parseLong(digits));
            }
            if (suffix == 'd' || suffix == 'D') {
                pos++;
                return EdmValue.dbl(Double.parseDouble(digits));
            }
            if (Character.isLetterOrDigit(suffix) || suffix == '_') {
                throw error("'" + digits + suffix + "' is not a number");
            }
            if (decimal) {
                return EdmValue.dbl(Double.parseDouble(digits));
            }
            long v = Long.parseLong(digits);
            return v == (int) v ? EdmValue.int32((int) v) : EdmValue.int64(v);
        } catch (NumberFormatException e) {
            throw error("'" + digits + "' is not a valid number");
        }
    }

    private String quoted() {
        pos++; // opening quote
        StringBuilder b = new StringBuilder();
        while (true) {
            if (pos >= text.length()) {
                throw error("unterminated string literal");
            }
            char c = text.charAt(pos++);
            if (c == '\'') {
                if (peek() == '\'') {
                    b.append('\'');
                    pos++;
                } else {
                    return b.toString();
                }
            } else {
                b.append(c);
            }
        }
    }

    private String word() {
        int start = pos;
        while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) {
            pos++;
        }
        if (start == pos || Character.isDigit(text.charAt(start))) {
            pos = start;
            return null;
        }
        return text.substring(start, pos);
    }

    private boolean keyword(String kw) {
        skipSpace();
        int start = pos;
        String w = word();
        if (w != null && w.equalsIgnoreCase(kw)) {
            return true;
        }
        pos = start;
        return false;
    }

    private static boolean isKeyword(String w) {
        return switch (w.toLowerCase(Locale.ROOT)) {
            case "and", "or", "not", "eq", "ne", "gt", "ge", "lt", "le" -> true;
            default -> false;
        };
    }

    private void skipSpace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private TableException error(String what) {
        return invalid("invalid $filter at position " + pos + ": " + what);
    }

    private static TableException invalid(String message) {
        return TableException.invalidInput(message);
    }
}
