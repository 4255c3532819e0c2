package io.tetradb.mongo.query;

import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.List;

/**
 * A dotted path and MongoDB's rules for reading it: through an array, a name segment reads that name in every
 * element that is a document, and a numeric segment reads the element at that index (and the field of that name in
 * element documents). A path can so reach several values, or none (missing).
 */
public final class FieldPath {
    private final String dotted;
    private final String[] segments;

    public FieldPath(String dotted) {
        this.dotted = dotted;
        this.segments = dotted.split("\\.", -1);
    }

    public String dotted() {
        return dotted;
    }

    public String[] segments() {
        return segments;
    }

    /** The values the path reaches (arrays among them whole); null entries stand for "missing here". */
    public List<BsonValue> values(BsonDocument doc) {
        List<BsonValue> out = new ArrayList<>(2);
        collect(doc, 0, out);
        return out;
    }

    private void collect(BsonValue cur, int i, List<BsonValue> out) {
        if (i == segments.length) {
            out.add(cur);
            return;
        }
        String seg = segments[i];
        if (cur instanceof BsonDocument d) {
            BsonValue next = d.get(seg);
            if (next == null) {
                out.add(null);
            } else {
                collect(next, i + 1, out);
            }
        } else if (cur instanceof BsonArray a) {
            int before = out.size();
            int index = index(seg);
            if (index >= 0 && index < a.size()) {
                collect(a.get(index), i + 1, out);
            }
            for (BsonValue e : a) {
                if (e instanceof BsonDocument) {
                    collect(e, i, out);
                }
            }
            if (out.size() == before) {
                out.add(null);
            }
        } else {
            out.add(null);
        }
    }

    /** The value at the path without array traversal except numeric indexes (for updates and projection), or null. */
    public BsonValue direct(BsonDocument doc) {
        BsonValue cur = doc;
        for (String seg : segments) {
            if (cur instanceof BsonDocument d) {
                cur = d.get(seg);
            } else if (cur instanceof BsonArray a) {
                int idx = index(seg);
                cur = idx >= 0 && idx < a.size() ? a.get(idx) : null;
            } else {
                return null;
            }
            if (cur == null) {
                return null;
            }
        }
        return cur;
    }

    static int index(String seg) {
        if (seg.isEmpty() || seg.length() > 9) {
            return -1;
        }
        for (int i = 0; i < seg.length(); i++) {
            if (!Character.isDigit(seg.charAt(i))) {
                return -1;
            }
        }
        return Integer.parseInt(seg);
    }

    @Override
    public String toString() {
        return dotted;
    }
}
