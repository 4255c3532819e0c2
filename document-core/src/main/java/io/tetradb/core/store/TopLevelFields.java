package io.tetradb.core.store;

import io.tetradb.core.query.plan.IndexSeekPlanner;
import io.tetradb.core.query.plan.Pipeline;
import io.tetradb.core.query.sql.Expr;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Decides {@code IS_DEFINED(c.f)} / {@code NOT IS_DEFINED(c.f)} on a stored item's bytes, without parsing it: a scan
 * that filters on whether a top-level field exists (the graph face's {@code g.V()} is
 * {@code NOT IS_DEFINED(c._isEdge)}) skips the items that fail before building their JSON tree, which costs ten times
 * more than walking the bytes. The walk only reads top-level field names and skips values (strings, nested objects
 * and arrays); when it meets anything it does not expect (an escaped name, malformed bytes) it answers "unsure" and
 * the item is parsed and filtered as usual, so the result is always the same as without it.
 */
final class TopLevelFields {
    /** The answer of {@link #has}. */
    enum Presence { PRESENT, ABSENT, UNSURE }

    private TopLevelFields() {
    }

    /**
     * A predicate on stored item bytes that is false only for items the filter certainly rejects, or null when the
     * filter has no top-level {@code IS_DEFINED} conjunct.
     */
    static Predicate<byte[]> prefilter(Pipeline p) {
        if (p.filter() == null || !p.bindsWholeItem()) {
            return null;
        }
        List<Expr> conjuncts = new ArrayList<>();
        IndexSeekPlanner.flattenConjuncts(p.filter(), conjuncts);
        List<byte[]> required = new ArrayList<>();
        List<byte[]> forbidden = new ArrayList<>();
        for (Expr e : conjuncts) {
            boolean negated = e instanceof Expr.Unary u && u.op() == Expr.UnaryOp.NOT;
            Expr inner = negated ? ((Expr.Unary) e).operand() : e;
            String field = isDefinedField(inner, p.rootAlias());
            if (field != null) {
                (negated ? forbidden : required).add(field.getBytes(StandardCharsets.UTF_8));
            }
        }
        if (required.isEmpty() && forbidden.isEmpty()) {
            return null;
        }
        return stored -> {
            for (byte[] f : required) {
                if (has(stored, ItemCodec.HEADER, f) == Presence.ABSENT) {
                    return false;
                }
            }
            for (byte[] f : forbidden) {
                if (has(stored, ItemCodec.HEADER, f) == Presence.PRESENT) {
                    return false;
                }
            }
            return true;
        };
    }

    /** The field name of {@code IS_DEFINED(root.f)} or {@code IS_DEFINED(root["f"])}, else null. */
    private static String isDefinedField(Expr e, String root) {
        if (!(e instanceof Expr.FunctionCall f) || f.udf() || !f.normalizedName().equals("IS_DEFINED")
                || f.args().size() != 1) {
            return null;
        }
        Expr arg = f.args().get(0);
        if (arg instanceof Expr.PropertyAccess pa && pa.target() instanceof Expr.Identifier id
                && id.name().equals(root)) {
            return pa.name();
        }
        if (arg instanceof Expr.IndexAccess ia && ia.target() instanceof Expr.Identifier id && id.name().equals(root)
                && ia.index() instanceof Expr.StringLiteral s) {
            return s.value();
        }
        return null;
    }

    /** Whether the JSON object starting at {@code from} has a top-level field named {@code name} (UTF-8). */
    static Presence has(byte[] b, int from, byte[] name) {
        if (from == ItemCodec.HEADER && io.tetradb.core.item.StoredItems.isBinary(b)) {
            // a binary item: its field table answers exactly (system properties are always there)
            boolean system = ItemCodec.SYSTEM_PROPERTIES.contains(new String(name, StandardCharsets.UTF_8));
            return io.tetradb.core.item.StoredItems.hasTopLevelField(b, name, system)
                    ? Presence.PRESENT : Presence.ABSENT;
        }
        int i = skipSpace(b, from);
        if (i >= b.length || b[i] != '{') {
            return Presence.UNSURE;
        }
        i = skipSpace(b, i + 1);
        if (i < b.length && b[i] == '}') {
            return Presence.ABSENT;
        }
        while (i < b.length) {
            if (b[i] != '"') {
                return Presence.UNSURE;
            }
            int start = i + 1;
            int end = start;
            while (end < b.length && b[end] != '"') {
                if (b[end] == '\\') {
                    return Presence.UNSURE; // an escaped name: leave it to the parser
                }
                end++;
            }
            if (end >= b.length) {
                return Presence.UNSURE;
            }
            if (end - start == name.length && java.util.Arrays.equals(b, start, end, name, 0, name.length)) {
                return Presence.PRESENT;
            }
            i = skipSpace(b, end + 1);
            if (i >= b.length || b[i] != ':') {
                return Presence.UNSURE;
            }
            i = skipValue(b, skipSpace(b, i + 1));
            if (i < 0) {
                return Presence.UNSURE;
            }
            i = skipSpace(b, i);
            if (i < b.length && b[i] == '}') {
                return Presence.ABSENT;
            }
            if (i >= b.length || b[i] != ',') {
                return Presence.UNSURE;
            }
            i = skipSpace(b, i + 1);
        }
        return Presence.UNSURE;
    }

    /** The index after the value starting at {@code i}, or -1. */
    private static int skipValue(byte[] b, int i) {
        int depth = 0;
        while (i < b.length) {
            byte c = b[i];
            if (c == '"') {
                i++;
                while (i < b.length && b[i] != '"') {
                    i += b[i] == '\\' ? 2 : 1;
                }
                if (i >= b.length) {
                    return -1;
                }
                i++;
            } else if (c == '{' || c == '[') {
                depth++;
                i++;
            } else if (c == '}' || c == ']') {
                if (depth == 0) {
                    return i; // the end of the enclosing object: the value before it is done
                }
                depth--;
                i++;
            } else if (c == ',' && depth == 0) {
                return i;
            } else {
                i++;
            }
            if (depth == 0 && (c == '"' || c == '}' || c == ']')) {
                return i;
            }
        }
        return -1;
    }

    private static int skipSpace(byte[] b, int i) {
        while (i < b.length && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t')) {
            i++;
        }
        return i;
    }
}
