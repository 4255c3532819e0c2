package io.tetradb.mongo.validation;

import io.tetradb.mongo.bson.BsonTypeNames;
import io.tetradb.mongo.query.BsonOrder;
import org.bson.BsonType;
import org.bson.BsonValue;

import java.util.function.Predicate;

/** MongoDB's BSON type aliases ({@code "int"}, {@code "objectId"}, {@code "number"}, …) for {@code bsonType}. */
final class TypeAliases {

    private TypeAliases() {
    }

    /** The test for an alias, or null for an unknown one. */
    static Predicate<BsonValue> test(String alias) {
        if (alias.equals("number")) {
            return BsonOrder::isNumber;
        }
        BsonType t = BsonTypeNames.type(alias);
        return t == null ? null : v -> v.getBsonType() == t;
    }

    /** The alias of a value's type, as MongoDB's {@code consideredType}. */
    static String name(BsonValue v) {
        return BsonTypeNames.name(v);
    }
}
