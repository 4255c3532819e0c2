package io.tetradb.mongo.query;

import io.tetradb.mongo.command.MongoError;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A find projection: inclusion ({@code {a: 1, "b.c": 1}}) or exclusion ({@code {a: 0}}), {@code _id} included unless
 * excluded, plus {@code $slice} and {@code $elemMatch} on array fields. Dotted paths reach into embedded documents
 * and through arrays of documents, as in MongoDB.
 */
public final class Projector {
    private final boolean inclusion;
    private final boolean includeId;
    /** Path tree: leaf = Boolean (include/exclude) or an operator document. */
    private final Map<String, Object> tree = new LinkedHashMap<>();
    private final boolean identity;
    /** The find's filter, for a positional projection ({@code "arr.$": 1}); null when there is none. */
    private final BsonDocument filter;
    /** The leaf of a positional projection: the array's element the filter matched. */
    private static final Object POSITIONAL = new Object();

    public Projector(BsonDocument spec) {
        this(spec, null);
    }

    /** A projection that may hold one positional {@code "path.$": 1}, answered from {@code filter}. */
    public Projector(BsonDocument spec, BsonDocument filter) {
        this.filter = filter;
        Boolean mode = null;
        boolean id = true;
        for (Map.Entry<String, BsonValue> e : spec.entrySet()) {
            String key = e.getKey();
            BsonValue v = e.getValue();
            Object leaf;
            if (key.endsWith(".$") || key.contains(".$.")) {
                boolean include = v.isBoolean() ? v.asBoolean().getValue()
                        : !BsonOrder.isNumber(v) || BsonOrder.toDouble(v) != 0;
                if (!include || key.indexOf(".$") != key.length() - 2 || filter == null || mode == Boolean.FALSE) {
                    throw MongoError.badValue("positional projection '" + key + "' must be an inclusion, once, at "
                            + "the end of the path, in a find (and not in an exclusion projection)");
                }
                mode = true;
                put(tree, key.substring(0, key.length() - 2).split("\\."), 0, POSITIONAL);
                continue;
            }
            if (v.isDocument()) {
                BsonDocument op = v.asDocument();
                if (!op.containsKey("$slice") && !op.containsKey("$elemMatch")) {
                    throw MongoError.badValue("unsupported projection operator in " + key + ": " + op.toJson());
                }
                leaf = op;
                if (op.containsKey("$elemMatch") && mode == null) {
                    mode = true; // MongoDB: $elemMatch projects like an inclusion, $slice alone like an exclusion
                }
            } else {
                boolean include = v.isBoolean() ? v.asBoolean().getValue()
                        : BsonOrder.isNumber(v) ? BsonOrder.toDouble(v) != 0 : true;
                if (key.equals("_id")) {
                    id = include;
                    continue;
                }
                if (mode != null && mode != include) {
                    throw new MongoError(io.tetradb.mongo.command.ErrorCode.BAD_VALUE, "Cannot do "
                            + (include ? "inclusion" : "exclusion") + " on field " + key + " in "
                            + (include ? "exclusion" : "inclusion") + " projection");
                }
                mode = include;
                leaf = include;
            }
            put(tree, key.split("\\."), 0, leaf);
        }
        // only _id or operators named: every other field stays (MongoDB treats it as an exclusion projection)
        // {_id: 1} alone is an inclusion too (only _id comes back)
        this.inclusion = mode != null ? mode : id && spec.containsKey("_id") && tree.isEmpty();
        this.includeId = id;
        this.identity = spec.isEmpty();
    }

    @SuppressWarnings("unchecked")
    private static void put(Map<String, Object> node, String[] segs, int i, Object leaf) {
        if (i == segs.length - 1) {
            node.put(segs[i], leaf);
            return;
        }
        Object child = node.get(segs[i]);
        if (!(child instanceof Map)) {
            child = new LinkedHashMap<String, Object>();
            node.put(segs[i], child);
        }
        put((Map<String, Object>) child, segs, i + 1, leaf);
    }

    public BsonDocument apply(BsonDocument doc) {
        if (identity) {
            return doc;
        }
        BsonDocument out = inclusion ? include(doc, tree, "") : exclude(doc, tree);
        if (inclusion) {
            BsonDocument withId = new BsonDocument();
            if (includeId && doc.containsKey("_id")) {
                withId.put("_id", doc.get("_id"));
            }
            out.forEach((k, v) -> {
                if (!k.equals("_id")) {
                    withId.put(k, v);
                }
            });
            return withId;
        }
        if (!includeId) {
            out.remove("_id");
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private BsonDocument include(BsonDocument doc, Map<String, Object> node, String prefix) {
        BsonDocument out = new BsonDocument();
        for (Map.Entry<String, BsonValue> e : doc.entrySet()) {
            Object spec = node.get(e.getKey());
            if (spec == null) {
                continue;
            }
            BsonValue v = e.getValue();
            if (spec == POSITIONAL) {
                int k = v.isArray() ? FilterMatcher.positionalIndex(filter, prefix + e.getKey(), v.asArray()) : -1;
                if (k < 0) {
                    throw new MongoError(io.tetradb.mongo.command.ErrorCode.POSITIONAL_PROJECTION_NO_MATCH,
                            "Executor error during find command :: caused by :: positional operator '.$' couldn't "
                                    + "find a matching element in the array");
                }
                out.put(e.getKey(), new BsonArray(List.of(v.asArray().get(k))));
            } else if (spec instanceof Boolean) {
                out.put(e.getKey(), v);
            } else if (spec instanceof BsonDocument op) {
                BsonValue projected = operator(v, op);
                if (projected != null) {
                    out.put(e.getKey(), projected);
                }
            } else {
                Map<String, Object> child = (Map<String, Object>) spec;
                if (v.isDocument()) {
                    out.put(e.getKey(), include(v.asDocument(), child, prefix + e.getKey() + "."));
                } else if (v.isArray()) {
                    BsonArray arr = new BsonArray();
                    for (BsonValue el : v.asArray()) {
                        if (el.isDocument()) {
                            arr.add(include(el.asDocument(), child, prefix + e.getKey() + "."));
                        }
                    }
                    out.put(e.getKey(), arr);
                }
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private BsonDocument exclude(BsonDocument doc, Map<String, Object> node) {
        BsonDocument out = new BsonDocument();
        for (Map.Entry<String, BsonValue> e : doc.entrySet()) {
            Object spec = node.get(e.getKey());
            BsonValue v = e.getValue();
            if (spec == null) {
                out.put(e.getKey(), v);
            } else if (spec instanceof Boolean) {
                continue;
            } else if (spec instanceof BsonDocument op) {
                BsonValue projected = operator(v, op);
                if (projected != null) {
                    out.put(e.getKey(), projected);
                }
            } else {
                Map<String, Object> child = (Map<String, Object>) spec;
                if (v.isDocument()) {
                    out.put(e.getKey(), exclude(v.asDocument(), child));
                } else if (v.isArray()) {
                    BsonArray arr = new BsonArray();
                    for (BsonValue el : v.asArray()) {
                        arr.add(el.isDocument() ? exclude(el.asDocument(), child) : el);
                    }
                    out.put(e.getKey(), arr);
                } else {
                    out.put(e.getKey(), v);
                }
            }
        }
        return out;
    }

    private static BsonValue operator(BsonValue v, BsonDocument op) {
        if (op.containsKey("$slice")) {
            if (!v.isArray()) {
                return v;
            }
            List<BsonValue> a = v.asArray().getValues();
            BsonValue s = op.get("$slice");
            int skip;
            int limit;
            if (s.isArray() && s.asArray().size() == 2) {
                skip = (int) BsonOrder.toDouble(s.asArray().get(0));
                limit = (int) BsonOrder.toDouble(s.asArray().get(1));
                if (skip < 0) {
                    skip = Math.max(0, a.size() + skip);
                }
            } else if (BsonOrder.isNumber(s)) {
                int n = (int) BsonOrder.toDouble(s);
                skip = n >= 0 ? 0 : Math.max(0, a.size() + n);
                limit = Math.abs(n);
            } else {
                throw MongoError.badValue("$slice needs a number or [skip, limit]");
            }
            int from = Math.min(skip, a.size());
            return new BsonArray(new ArrayList<>(a.subList(from, Math.min(a.size(), from + Math.max(0, limit)))));
        }
        BsonValue spec = op.get("$elemMatch");
        if (!spec.isDocument()) {
            throw MongoError.badValue("$elemMatch needs an object");
        }
        if (!v.isArray()) {
            return null;
        }
        // the query's $elemMatch, element by element: scalar elements ({$gte: 85}) and $and/$or specs too
        Predicate<BsonDocument> m = FilterMatcher.compile(new BsonDocument("e", new BsonDocument("$elemMatch",
                spec)));
        for (BsonValue el : v.asArray()) {
            if (m.test(new BsonDocument("e", new BsonArray(List.of(el))))) {
                return new BsonArray(List.of(el));
            }
        }
        return null;
    }
}
