package io.tetradb.mongo.changestream;

import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.util.Map;

/**
 * An update event's {@code updateDescription}, computed by diffing the document before and after the change, in the
 * shape MongoDB 7.0 writes: {@code updatedFields} by dotted path (a sub-document present on both sides is diffed
 * field by field; an array present on both sides element by element, a shorter one reported in
 * {@code truncatedArrays}), {@code removedFields}, {@code truncatedArrays}.
 */
final class UpdateDescription {
    private final BsonDocument updated = new BsonDocument();
    private final BsonArray removed = new BsonArray();
    private final BsonArray truncated = new BsonArray();

    private UpdateDescription() {
    }

    static BsonDocument between(BsonDocument before, BsonDocument after) {
        UpdateDescription d = new UpdateDescription();
        d.diff("", before, after);
        return new BsonDocument("updatedFields", d.updated).append("removedFields", d.removed)
                .append("truncatedArrays", d.truncated);
    }

    private void diff(String prefix, BsonDocument before, BsonDocument after) {
        for (Map.Entry<String, BsonValue> e : after.entrySet()) {
            BsonValue old = before.get(e.getKey());
            String path = prefix + e.getKey();
            if (old == null) {
                updated.put(path, e.getValue());
            } else if (!old.equals(e.getValue()) || old.getBsonType() != e.getValue().getBsonType()) {
                changed(path, old, e.getValue());
            }
        }
        for (String name : before.keySet()) {
            if (!after.containsKey(name)) {
                removed.add(new BsonString(prefix + name));
            }
        }
    }

    private void changed(String path, BsonValue old, BsonValue now) {
        if (old.isDocument() && now.isDocument() && !now.asDocument().isEmpty()) {
            diff(path + ".", old.asDocument(), now.asDocument());
        } else if (old.isArray() && now.isArray() && !now.asArray().isEmpty()) {
            BsonArray a = old.asArray();
            BsonArray b = now.asArray();
            for (int i = 0; i < b.size(); i++) {
                if (i >= a.size() || !a.get(i).equals(b.get(i))) {
                    updated.put(path + "." + i, b.get(i));
                }
            }
            if (b.size() < a.size()) {
                truncated.add(new BsonDocument("field", new BsonString(path)).append("newSize", new BsonInt32(b.size())));
            }
        } else {
            updated.put(path, now);
        }
    }
}
