package io.tetradb.mongo.store;

import io.tetradb.mongo.bson.BsonText;
import io.tetradb.mongo.bson.DocumentMapper;
import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.query.BsonOrder;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.List;

/**
 * MongoDB TTL indexes ({@code expireAfterSeconds} on a single date field) on the core's expiry: a document expires at
 * its indexed date plus the seconds (in an array, the earliest date; a missing or non-date value never expires). The
 * core keeps the rule as a date-field expiry of the collection's container, so an expired document is invisible at
 * once to every read and the core's purger deletes it in the background — MongoDB's monitor deletes within about a
 * minute and shows expired documents until then; invisibility at once is the stricter of the two.
 */
final class TtlIndexes {
    private TtlIndexes() {
    }

    /** MongoDB's checks of {@code expireAfterSeconds} in an index specification (code 67). */
    static void check(BsonDocument spec) {
        BsonValue e = spec.get("expireAfterSeconds");
        if (e == null) {
            return;
        }
        checkSeconds(e, ". Index spec: " + BsonText.of(spec), ErrorCode.CANNOT_CREATE_INDEX);
        BsonDocument key = spec.getDocument("key");
        if (key.size() != 1) {
            throw new MongoError(ErrorCode.CANNOT_CREATE_INDEX, "TTL indexes are single-field indexes, compound "
                    + "indexes do not support TTL. Index spec: " + BsonText.of(spec));
        }
        if (key.containsKey("_id")) {
            throw new MongoError(ErrorCode.CANNOT_CREATE_INDEX, "The field 'expireAfterSeconds' is not valid for an "
                    + "_id index specification. Specification: " + BsonText.of(spec));
        }
    }

    /** A number in [0, 2147483647] (a double is truncated, as MongoDB does). */
    static long checkSeconds(BsonValue e, String context, ErrorCode code) {
        if (!BsonOrder.isNumber(e)) {
            throw new MongoError(code, "TTL index 'expireAfterSeconds' option must be numeric, but received a type "
                    + "of '" + io.tetradb.mongo.bson.BsonTypeNames.name(e) + "'" + context);
        }
        double d = BsonOrder.toDouble(e);
        if (Double.isNaN(d)) {
            throw new MongoError(code, "TTL index 'expireAfterSeconds' option must not be NaN" + context);
        }
        if (d < 0) {
            throw new MongoError(code, "TTL index 'expireAfterSeconds' option cannot be less than 0" + context);
        }
        if (d > Integer.MAX_VALUE) {
            throw new MongoError(code, "TTL index 'expireAfterSeconds' option must be within an acceptable range, "
                    + "try a lower number" + context);
        }
        return (long) d;
    }

    /** Hands the index's rule to the core (or, with {@code spec} lacking expireAfterSeconds, removes it). */
    static void apply(MongoCollection coll, String name, BsonDocument spec) {
        BsonValue e = spec == null ? null : spec.get("expireAfterSeconds");
        if (e == null) {
            if (coll.container().expiryRule().dateFields().stream().anyMatch(f -> f.name().equals(name))) {
                coll.container().setDateFieldExpiry(name, List.of(), null);
            }
            return;
        }
        String field = spec.getDocument("key").getFirstKey();
        coll.container().setDateFieldExpiry(name, storedPath(field), (long) BsonOrder.toDouble(e));
    }

    /** A dotted Mongo path as the core item's segments (the top-level name as the face stores it). */
    static List<String> storedPath(String dotted) {
        List<String> out = new ArrayList<>();
        for (String s : dotted.split("\\.", -1)) {
            out.add(out.isEmpty() ? DocumentMapper.storedName(s) : s);
        }
        return out;
    }
}
