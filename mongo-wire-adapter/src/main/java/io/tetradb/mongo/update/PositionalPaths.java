package io.tetradb.mongo.update;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.query.FilterMatcher;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Positional update paths made concrete against a document: {@code a.$[].b} (every element), {@code a.$[x].b} (the
 * elements the array filter {@code x} matches) and {@code a.$.b} (the first element the statement's query matched
 * in {@code a}).
 */
final class PositionalPaths {
    private final Map<String, FilterMatcher> arrayFilters = new HashMap<>();
    private final BsonDocument query;

    PositionalPaths(BsonArray filters, BsonDocument query) {
        this.query = query == null ? new BsonDocument() : query;
        if (filters == null) {
            return;
        }
        for (BsonValue f : filters) {
            if (!f.isDocument()) {
                throw new MongoError(ErrorCode.TYPE_MISMATCH, "arrayFilters entry must be an object");
            }
            if (f.asDocument().isEmpty()) {
                throw new MongoError(ErrorCode.FAILED_TO_PARSE, "Cannot use an expression without a top-level field "
                        + "name in arrayFilters");
            }
            String key = f.asDocument().getFirstKey();
            String id = key.contains(".") ? key.substring(0, key.indexOf('.')) : key;
            if (id.isEmpty() || !Character.isLowerCase(id.charAt(0))
                    || !id.chars().allMatch(Character::isLetterOrDigit)) {
                throw new MongoError(ErrorCode.BAD_VALUE, "Error parsing array filter :: caused by :: The top-level "
                        + "field name must be an alphanumeric string beginning with a lowercase letter, found '" + id
                        + "'");
            }
            if (arrayFilters.put(id, FilterMatcher.compile(f.asDocument())) != null) {
                throw new MongoError(ErrorCode.FAILED_TO_PARSE, "Found multiple array filters with the same top-level "
                        + "field name " + id);
            }
        }
    }

    /** True if {@code path} has a plain {@code $} segment (the element the query matched). */
    static boolean hasPlainPositional(String path) {
        for (String seg : path.split("\\.")) {
            if (seg.equals("$")) {
                return true;
            }
        }
        return false;
    }

    /**
     * FailedToParse (9) for an array filter no {@code $[id]} of the update uses, as MongoDB refuses it; BadValue (2)
     * for a {@code $[id]} without its filter.
     */
    void checkIdentifiersUsed(BsonDocument update) {
        java.util.Set<String> used = new java.util.HashSet<>();
        for (BsonValue fields : update.values()) {
            if (!fields.isDocument()) {
                continue;
            }
            for (String path : fields.asDocument().keySet()) {
                for (String seg : path.split("\\.")) {
                    if (seg.startsWith("$[") && seg.endsWith("]") && seg.length() > 3) {
                        String id = seg.substring(2, seg.length() - 1);
                        if (!arrayFilters.containsKey(id)) {
                            throw new MongoError(ErrorCode.BAD_VALUE, "No array filter found for identifier '" + id
                                    + "' in path '" + path + "'");
                        }
                        used.add(id);
                    }
                }
            }
        }
        for (String id : arrayFilters.keySet()) {
            if (!used.contains(id)) {
                throw new MongoError(ErrorCode.FAILED_TO_PARSE, "The array filter for identifier '" + id
                        + "' was not used in the update " + io.tetradb.mongo.bson.BsonText.of(update));
            }
        }
    }

    static boolean isPositional(String path) {
        for (String seg : path.split("\\.")) {
            if (seg.equals("$") || seg.startsWith("$[")) {
                return true;
            }
        }
        return false;
    }

    List<String> expand(BsonDocument doc, String path) {
        List<String> out = new ArrayList<>();
        expand(doc, path.split("\\."), 0, "", out);
        return out;
    }

    private void expand(BsonValue cur, String[] segs, int i, String prefix, List<String> out) {
        if (i == segs.length) {
            out.add(prefix);
            return;
        }
        String seg = segs[i];
        String here = prefix.isEmpty() ? seg : prefix + "." + seg;
        if (!(seg.equals("$") || seg.startsWith("$["))) {
            BsonValue next = cur instanceof BsonDocument d ? d.get(seg)
                    : cur instanceof BsonArray a && seg.chars().allMatch(Character::isDigit) && !seg.isEmpty()
                    && Integer.parseInt(seg) < a.size() ? a.get(Integer.parseInt(seg)) : null;
            expand(next, segs, i + 1, here, out);
            return;
        }
        if (!(cur instanceof BsonArray array)) {
            throw new MongoError(ErrorCode.BAD_VALUE, "The path '" + prefix + "' must exist in the document in order "
                    + "to apply array updates.");
        }
        List<Integer> indexes = new ArrayList<>();
        if (seg.equals("$[]")) {
            for (int k = 0; k < array.size(); k++) {
                indexes.add(k);
            }
        } else if (seg.equals("$")) {
            int k = firstMatch(prefix, array);
            if (k < 0) {
                throw new MongoError(ErrorCode.BAD_VALUE, "The positional operator did not find the match needed "
                        + "from the query.");
            }
            indexes.add(k);
        } else {
            String id = seg.substring(2, seg.length() - 1);
            FilterMatcher m = arrayFilters.get(id);
            if (m == null) {
                throw new MongoError(ErrorCode.BAD_VALUE, "No array filter found for identifier '" + id + "' in path '"
                        + String.join(".", segs) + "'");
            }
            for (int k = 0; k < array.size(); k++) {
                if (m.test(new BsonDocument(id, array.get(k)))) {
                    indexes.add(k);
                }
            }
        }
        for (int k : indexes) {
            expand(array.get(k), segs, i + 1, prefix + "." + k, out);
        }
    }

    /** The first element of the array at {@code arrayPath} the statement's query matched (see the matcher). */
    private int firstMatch(String arrayPath, BsonArray array) {
        return FilterMatcher.positionalIndex(query, arrayPath, array);
    }
}
