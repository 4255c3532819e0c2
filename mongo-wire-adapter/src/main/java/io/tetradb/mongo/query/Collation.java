package io.tetradb.mongo.query;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.text.Collator;
import java.util.Locale;

/**
 * A command's {@code collation} as a {@link BsonOrder}: the JDK's {@link Collator} for the locale at strength 1
 * (base letters: case and accents ignored), 2 (accents matter, case not) or 3 (the default). Options that change
 * more than the strength are refused (238) rather than ignored.
 */
public final class Collation {
    private Collation() {
    }

    /** The order a command or statement asks for with its {@code collation} field (binary when absent). */
    public static BsonOrder of(BsonDocument commandOrStatement) {
        BsonValue c = commandOrStatement.get("collation");
        if (c == null || c.isNull()) {
            return BsonOrder.INSTANCE;
        }
        if (!c.isDocument()) {
            throw MongoError.typeMismatch("collation must be an object");
        }
        BsonDocument spec = c.asDocument();
        BsonValue locale = spec.get("locale");
        if (locale == null || !locale.isString()) {
            throw new MongoError(ErrorCode.BAD_VALUE, "collation needs a 'locale' string");
        }
        if (locale.asString().getValue().equals("simple")) {
            return BsonOrder.INSTANCE;
        }
        int strength = spec.containsKey("strength") ? (int) BsonOrder.toDouble(spec.get("strength")) : 3;
        for (String option : spec.keySet()) {
            BsonValue v = spec.get(option);
            boolean harmless = switch (option) {
                case "locale", "strength", "version" -> true;
                case "caseLevel", "numericOrdering", "backwards", "normalization" -> v.isBoolean() && !v.asBoolean().getValue();
                case "caseFirst" -> v.isString() && v.asString().getValue().equals("off");
                case "alternate" -> v.isString() && v.asString().getValue().equals("non-ignorable");
                default -> false;
            };
            if (!harmless) {
                throw new MongoError(ErrorCode.NOT_IMPLEMENTED, "collation option " + option + ": " + v
                        + " is not supported yet");
            }
        }
        Collator collator = Collator.getInstance(Locale.forLanguageTag(locale.asString().getValue().replace('_', '-')));
        collator.setStrength(switch (strength) {
            case 1 -> Collator.PRIMARY;
            case 2 -> Collator.SECONDARY;
            case 3 -> Collator.TERTIARY;
            default -> throw new MongoError(ErrorCode.NOT_IMPLEMENTED, "collation strength " + strength
                    + " is not supported (1, 2 or 3)");
        });
        collator.setDecomposition(Collator.CANONICAL_DECOMPOSITION);
        return BsonOrder.collated(collator::compare);
    }
}
