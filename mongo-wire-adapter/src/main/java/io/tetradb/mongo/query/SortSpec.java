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
 * an array sorts by its smallest element ascending and its largest descending.
 */
public final class SortSpec implements Comparator<BsonDocument> {
    private record Key(FieldPath path, boolean descending) {
    }

    private final List<Key> keys = new ArrayList<>();
    private final BsonOrder order;

    public SortSpec(BsonDocument spec) {
        this(spec, BsonOrder.INSTANCE);
    }

    public SortSpec(BsonDocument spec, BsonOrder order) {
        this.order = order;
        for (Map.Entry<String, BsonValue> e : spec.entrySet()) {
            BsonValue v = e.getValue();
            if (!BsonOrder.isNumber(v) || Math.abs(BsonOrder.toDouble(v)) != 1) {
                throw MongoError.badValue("$sort key ordering must be 1 (for ascending) or -1 (for descending)");
            }
            keys.add(new Key(new FieldPath(e.getKey()), BsonOrder.toDouble(v) < 0));
        }
    }

    public boolean isEmpty() {
        return keys.isEmpty();
    }

    @Override
    public int compare(BsonDocument a, BsonDocument b) {
        for (Key k : keys) {
            int c = order.compare(sortValue(a, k), sortValue(b, k));
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
                    candidates.add(BsonNull.VALUE); // MongoDB sorts an empty array below null... close enough: as null
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
