package io.tetradb.mongo.aggregate;

import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonNull;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * User variables ({@code $let}, {@code $map}/{@code $filter}'s {@code as}, {@code $reduce}'s {@code $$this} and
 * {@code $$value}, {@code $lookup}'s {@code let}) by substitution: a bound {@code "$$name.path"} in an expression
 * becomes {@code {$literal: value}} before it is evaluated. Variables are constants within their scope, so this is
 * their meaning; an inner scope that binds the same name again keeps its own (it is not substituted into).
 */
final class Variables {
    private Variables() {
    }

    /** {@code expr} with every free {@code $$name} of {@code vars} replaced by its value. */
    static BsonValue bind(BsonValue expr, Map<String, BsonValue> vars) {
        if (vars.isEmpty()) {
            return expr;
        }
        if (expr.isString()) {
            String s = expr.asString().getValue();
            if (!s.startsWith("$$")) {
                return expr;
            }
            int dot = s.indexOf('.');
            String name = dot < 0 ? s.substring(2) : s.substring(2, dot);
            if (!vars.containsKey(name)) {
                return expr;
            }
            BsonValue v = vars.get(name);
            if (dot >= 0 && v != null) {
                v = Expressions.path(v, s.substring(dot + 1));
            }
            return new BsonDocument("$literal", v == null ? BsonNull.VALUE : v);
        }
        if (expr.isArray()) {
            BsonArray out = new BsonArray();
            for (BsonValue e : expr.asArray()) {
                out.add(bind(e, vars));
            }
            return out;
        }
        if (!expr.isDocument()) {
            return expr;
        }
        BsonDocument d = expr.asDocument();
        if (d.size() == 1 && d.getFirstKey().equals("$literal")) {
            return d;
        }
        List<String> shadowed = shadowedBy(d);
        Map<String, BsonValue> inner = vars;
        if (!shadowed.isEmpty()) {
            inner = new HashMap<>(vars);
            shadowed.forEach(inner::remove);
        }
        BsonDocument out = new BsonDocument();
        for (Map.Entry<String, BsonValue> e : d.entrySet()) {
            // a scope's own inputs ($map's input, $let's vars) still see the outer variables
            boolean scoped = !shadowed.isEmpty() && (e.getKey().equals("in") || e.getKey().equals("cond"));
            out.put(e.getKey(), bind(e.getValue(), scoped ? inner : vars));
        }
        return out;
    }

    /** The names a scope-opening operator's spec binds ({@code d} is the operator's argument document). */
    private static List<String> shadowedBy(BsonDocument spec) {
        if (spec.containsKey("vars") && spec.get("vars").isDocument() && spec.containsKey("in")) {
            return List.copyOf(spec.getDocument("vars").keySet()); // $let
        }
        if (spec.containsKey("input") && (spec.containsKey("in") || spec.containsKey("cond"))) {
            if (spec.containsKey("initialValue")) {
                return List.of("this", "value"); // $reduce
            }
            BsonValue as = spec.get("as");
            return List.of(as != null && as.isString() ? as.asString().getValue() : "this"); // $map, $filter
        }
        return List.of();
    }

    static Map<String, BsonValue> of(String name, BsonValue value) {
        Map<String, BsonValue> m = new HashMap<>();
        m.put(name, value);
        return m;
    }

    static BsonString name(BsonDocument spec, String field, String otherwise) {
        BsonValue v = spec.get(field);
        return v != null && v.isString() ? v.asString() : new BsonString(otherwise);
    }
}
