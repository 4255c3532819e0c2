package io.tetradb.mongo.query;

import io.tetradb.mongo.command.MongoError;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonNull;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A sort specification ({@code {a: 1, b: -1}}) as a comparator with MongoDB's rules: a missing field sorts as null,
 * an array sorts by its smallest element ascending and its largest descending, an empty array before null;
 * {@code {$natural: ±1}} is the collection's order (see {@link QueryRun}).
 */
public final class SortSpec implements Comparator<BsonDocument> {
    private record Key(FieldPath path, boolean descending) {
    }

    private final List<Key> keys = new ArrayList<>();
    private final BsonOrder order;
    /** {@code {$natural: 1|-1}}: the collection's own order, or its reverse (0: not a natural sort). */
    private int natural;

    public SortSpec(BsonDocument spec) {
        this(spec, BsonOrder.INSTANCE);
    }

    public SortSpec(BsonDocument spec, BsonOrder order) {
        this.order = order;
        if (spec.containsKey("$natural")) {
            BsonValue v = spec.get("$natural");
            if (spec.size() != 1 || !BsonOrder.isNumber(v) || Math.abs(BsonOrder.toDouble(v)) != 1) {
                throw MongoError.badValue("$natural sort cannot be combined with other fields and must be 1 or -1");
            }
            natural = BsonOrder.toDouble(v) < 0 ? -1 : 1;
            return;
        }
        for (Map.Entry<String, BsonValue> e : spec.entrySet()) {
            BsonValue v = e.getValue();
            if (!BsonOrder.isNumber(v) || Math.abs(BsonOrder.toDouble(v)) != 1) {
                throw MongoError.badValue("$sort key ordering must be 1 (for ascending) or -1 (for descending)");
            }
            keys.add(new Key(new FieldPath(e.getKey()), BsonOrder.toDouble(v) < 0));
        }
    }

    /** No key to sort on (an empty spec, or a {@code $natural} order). */
    public boolean isEmpty() {
        return keys.isEmpty();
    }

    /** 1 or -1 for {@code {$natural: 1|-1}}, else 0. */
    public int natural() {
        return natural;
    }

    @Override
    public int compare(BsonDocument a, BsonDocument b) {
        for (Key k : keys) {
            BsonValue x = sortValue(a, k);
            BsonValue y = sortValue(b, k);
            int c = order.compare(x, y);
            if (c == 0 && BsonOrder.typeClass(x) == BsonOrder.typeClass(BsonNull.VALUE)) {
                // an empty array's sort key is undefined, which sorts before null (and missing)
                c = Boolean.compare(x.isNull(), y.isNull());
            }
            if (c != 0) {
                return k.descending ? -c : c;
            }
        }
        return 0;
    }

    private BsonValue sortValue(BsonDocument doc, Key k) {
        BsonValue best = null;
        for (BsonValue v : k.path.values(doc)) {
            List<BsonValue> candidates = new ArrayList<>();
            if (v instanceof BsonArray a) {
                if (a.isEmpty()) {
                    candidates.add(new org.bson.BsonUndefined()); // MongoDB's sort key of []: below null
                }
                candidates.addAll(a);
            } else {
                candidates.add(v == null ? BsonNull.VALUE : v);
            }
            for (BsonValue c : candidates) {
                if (best == null) {
                    best = c;
                } else {
                    int cmp = order.compare(c, best);
                    if (k.descending ? cmp > 0 : cmp < 0) {
                        best = c;
                    }
                }
            }
        }
        return best == null ? BsonNull.VALUE : best;
    }
}
