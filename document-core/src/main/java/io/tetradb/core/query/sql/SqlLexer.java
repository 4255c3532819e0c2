package io.tetradb.core.query.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Turns Cosmos SQL text into tokens. Whitespace and {@code --} line comments are skipped. */
final class SqlLexer {

    enum Kind {
        IDENT, KEYWORD, PARAM, NUMBER, STRING, OP, EOF
    }

    /**
     * One token. {@code text} is the source text (for STRING the unescaped value, for KEYWORD the upper-cased word,
     * for PARAM the name without {@code @}); {@code number} is set for NUMBER.
     */
    record Token(Kind kind, String text, String raw, double number, int offset) {
        boolean is(Kind k, String t) {
            return kind == k && text.equals(t);
        }

        boolean isKeyword(String k) {
            return kind == Kind.KEYWORD && text.equals(k);
        }

        boolean isOp(String o) {
            return kind == Kind.OP && text.equals(o);
        }

        /** How the token shows in an error message. */
        String display() {
            if (kind == Kind.EOF) {
                return "<end of input>";
            }
            String r = raw.length() > 40 ? raw.substring(0, 40) + "..." : raw;
            return "'" + r + "'";
        }
    }

    /**
     * Reserved words: they cannot be identifiers (write {@code c["value"]} instead of {@code c.value}). ALL, FIRST,
     * LAST and ROOT are not reserved. Matched case-insensitively.
     */
    static final Set<String> KEYWORDS = Set.of("AND", "ARRAY", "AS", "ASC", "BETWEEN", "BY", "DESC", "DISTINCT",
            "ESCAPE", "EXISTS", "FALSE", "FROM", "GROUP", "IN", "JOIN", "LEFT", "LIKE", "LIMIT", "NOT", "NULL", "OFFSET",
            "OR", "ORDER", "RANK", "RIGHT", "SELECT", "TOP", "TRUE", "UDF", "UNDEFINED", "VALUE", "WHERE");

    private static final String[] OPERATORS = {">>>", "<<", ">>", "<=", ">=", "<>", "!=", "||", "??", "=", "<", ">",
            "+", "-", "*", "/", "%", "~", "&", "|", "^", "?", ":", ",", ".", "(", ")", "[", "]", "{", "}"};

    private final String text;
    private int pos;

    private SqlLexer(String text) {
        this.text = text;
    }

    static List<Token> tokenize(String text) {
        return new SqlLexer(text).run();
    }

    private List<Token> run() {
        List<Token> out = new ArrayList<>();
        while (true) {
            skipBlanks();
            if (pos >= text.length()) {
                out.add(new Token(Kind.EOF, "", "", 0, text.length()));
                return out;
            }
            out.add(next());
        }
    }

    private void skipBlanks() {
        while (pos < text.length()) {
            char ch = text.charAt(pos);
            if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\f') {
                pos++;
            } else if (ch == '-' && pos + 1 < text.length() && text.charAt(pos + 1) == '-') {
                while (pos < text.length() && text.charAt(pos) != '\n') {
                    pos++;
                }
            } else {
                return;
            }
        }
    }

    private static boolean identStart(char ch) {
        return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
    }

    private static boolean identPart(char ch) {
        return identStart(ch) || (ch >= '0' && ch <= '9');
    }

    private static boolean digit(char ch) {
        return ch >= '0' && ch <= '9';
    }

    private char at(int i) {
        return i < text.length() ? text.charAt(i) : '\0';
    }

    private Token next() {
        int start = pos;
        char ch = text.charAt(pos);
        if (identStart(ch)) {
            while (pos < text.length() && identPart(text.charAt(pos))) {
                pos++;
            }
            String word = text.substring(start, pos);
            String upper = word.toUpperCase(Locale.ROOT);
            if (KEYWORDS.contains(upper)) {
                return new Token(Kind.KEYWORD, upper, word, 0, start);
            }
            return new Token(Kind.IDENT, word, word, 0, start);
        }
        if (ch == '@') {
            pos++;
            if (!identStart(at(pos))) {
                throw SqlSyntaxException.at(text, start, "'@'", "a parameter name must follow '@'");
            }
            while (pos < text.length() && identPart(text.charAt(pos))) {
                pos++;
            }
            return new Token(Kind.PARAM, text.substring(start + 1, pos), text.substring(start, pos), 0, start);
        }
        if (digit(ch) || (ch == '.' && digit(at(pos + 1)))) {
            return number(start);
        }
        if (ch == '\'' || ch == '"') {
            return string(start, ch);
        }
        for (String op : OPERATORS) {
            if (text.startsWith(op, pos)) {
                pos += op.length();
                return new Token(Kind.OP, op, op, 0, start);
            }
        }
        String shown = Character.isISOControl(ch) ? String.format("\\u%04x", (int) ch)
                : new String(Character.toChars(text.codePointAt(pos)));
        throw SqlSyntaxException.at(text, start, "'" + shown + "'", "unexpected character");
    }

    private Token number(int start) {
        if (at(pos) == '0' && (at(pos + 1) == 'x' || at(pos + 1) == 'X')) {
            pos += 2;
            int digits = pos;
            while (Character.digit(at(pos), 16) >= 0 && at(pos) < 128) {
                pos++;
            }
            if (pos == digits) {
                throw SqlSyntaxException.at(text, start, "'" + text.substring(start, pos) + "'",
                        "hexadecimal digits must follow 0x");
            }
            checkNumberEnd(start);
            double v = new java.math.BigInteger(text.substring(digits, pos), 16).doubleValue();
            checkFinite(start, v);
            return new Token(Kind.NUMBER, text.substring(start, pos), text.substring(start, pos), v, start);
        }
        while (digit(at(pos))) {
            pos++;
        }
        if (at(pos) == '.') {
            pos++;
            while (digit(at(pos))) {
                pos++;
            }
        }
        if (at(pos) == 'e' || at(pos) == 'E') {
            int save = pos;
            pos++;
            if (at(pos) == '+' || at(pos) == '-') {
                pos++;
            }
            if (!digit(at(pos))) {
                pos = save;
            } else {
                while (digit(at(pos))) {
                    pos++;
                }
            }
        }
        checkNumberEnd(start);
        String raw = text.substring(start, pos);
        double v = Double.parseDouble(raw);
        checkFinite(start, v);
        return new Token(Kind.NUMBER, raw, raw, v, start);
    }

    private void checkFinite(int start, double v) {
        if (Double.isInfinite(v)) {
            String raw = text.substring(start, pos);
            throw SqlSyntaxException.at(text, start, "'" + abbreviate(raw) + "'",
                    "number out of range (not a finite IEEE-754 double)");
        }
    }

    private void checkNumberEnd(int start) {
        if (identPart(at(pos))) {
            int end = pos;
            while (identPart(at(end))) {
                end++;
            }
            throw SqlSyntaxException.at(text, start, "'" + text.substring(start, end) + "'", "malformed number");
        }
    }

    private Token string(int start, char quote) {
        pos++;
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (pos >= text.length()) {
                throw SqlSyntaxException.at(text, start, "'" + abbreviate(text.substring(start)) + "'",
                        "unterminated string literal");
            }
            char ch = text.charAt(pos);
            if (ch == quote) {
                pos++;
                break;
            }
            if (ch == '\\') {
                int escStart = pos;
                char e = at(pos + 1);
                pos += 2;
                switch (e) {
                    case '\'' -> sb.append('\'');
                    case '"' -> sb.append('"');
                    case '\\' -> sb.append('\\');
                    case '/' -> sb.append('/');
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case 'u' -> {
                        int v = 0;
                        for (int i = 0; i < 4; i++) {
                            int d = Character.digit(at(pos + i), 16);
                            if (d < 0 || at(pos + i) >= 128) {
                                throw SqlSyntaxException.at(text, escStart,
                                        "'" + text.substring(escStart, Math.min(text.length(), pos + 4)) + "'",
                                        "\\u must be followed by four hexadecimal digits");
                            }
                            v = v * 16 + d;
                        }
                        pos += 4;
                        sb.append((char) v);
                    }
                    default -> throw SqlSyntaxException.at(text, escStart,
                            "'" + text.substring(escStart, Math.min(text.length(), escStart + 2)) + "'",
                            "invalid escape sequence in string literal");
                }
                continue;
            }
            if (ch < 0x20) {
                throw SqlSyntaxException.at(text, pos, String.format("'\\u%04x'", (int) ch),
                        "control character in string literal (escape it)");
            }
            sb.append(ch);
            pos++;
        }
        return new Token(Kind.STRING, sb.toString(), text.substring(start, pos), 0, start);
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
