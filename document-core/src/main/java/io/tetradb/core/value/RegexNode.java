package io.tetradb.core.value;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.util.Arrays;

/**
 * A regular expression (BSON regex): pattern and option letters, the options kept sorted as BSON requires. Ordered
 * by pattern then options. JSON view: the string {@code /pattern/options}.
 */
public final class RegexNode extends TypedNode {
    private static final long serialVersionUID = 1L;
    private final String pattern;
    private final String options;

    private RegexNode(String pattern, String options) {
        if (pattern.indexOf('\0') >= 0 || options.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("a regex cannot contain NUL");
        }
        this.pattern = pattern;
        this.options = options;
    }

    public static RegexNode of(String pattern, String options) {
        char[] o = options.toCharArray();
        Arrays.sort(o);
        return new RegexNode(pattern, new String(o));
    }

    public String pattern() {
        return pattern;
    }

    public String options() {
        return options;
    }

    @Override
    public ValueType valueType() {
        return ValueType.REGEX;
    }

    @Override
    public int typeRank() {
        return ValueOrder.RANK_REGEX;
    }

    @Override
    public JsonNode jsonView() {
        return TextNode.valueOf("/" + pattern + "/" + options);
    }

    @Override
    int compareSameRank(TypedNode other) {
        RegexNode r = (RegexNode) other;
        int c = pattern.compareTo(r.pattern);
        return c != 0 ? Integer.signum(c) : Integer.signum(options.compareTo(r.options));
    }

    @Override
    byte[] keyBody() {
        byte[] p = IndexKeyEncoding.stringBody(pattern);
        byte[] o = IndexKeyEncoding.stringBody(options);
        byte[] k = Arrays.copyOf(p, p.length + o.length);
        System.arraycopy(o, 0, k, p.length, o.length);
        return k;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RegexNode n && n.pattern.equals(pattern) && n.options.equals(options);
    }

    @Override
    public int hashCode() {
        return pattern.hashCode() * 31 + options.hashCode();
    }
}
