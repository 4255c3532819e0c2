package io.tetradb.mongo.query;

import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;

/**
 * MongoDB's comparison order of BSON values: first by type class (MinKey, null, numbers, strings, objects, arrays,
 * binary, ObjectId, boolean, date, timestamp, regex, MaxKey), then by value within the class. Numbers of every type
 * compare by numeric value, so 1, 1.0 and NumberLong(1) are equal.
 */
public final class BsonOrder implements Comparator<BsonValue> {
    /** Strings in binary order (no collation). */
    public static final BsonOrder INSTANCE = new BsonOrder(null);

    /** How strings compare; null: binary (code unit) order. */
    private final Comparator<String> strings;

    private BsonOrder(Comparator<String> strings) {
        this.strings = strings;
    }

    /** The order with strings compared by a collation. */
    public static BsonOrder collated(Comparator<String> strings) {
        return new BsonOrder(strings);
    }

    /** Whether strings compare binary (so the core's string index order is this order). */
    public boolean isSimple() {
        return strings == null;
    }

    /** The canonical type class: values of different classes compare by it (and never match a $gt/$lt). */
    public static int typeClass(BsonValue v) {
        return switch (v.getBsonType()) {
            case MIN_KEY -> 1;
            case NULL, UNDEFINED -> 5;
            case INT32, INT64, DOUBLE, DECIMAL128 -> 10;
            case SYMBOL, STRING -> 15;
            case DOCUMENT -> 20;
            case ARRAY -> 25;
            case BINARY -> 30;
            case OBJECT_ID -> 35;
            case BOOLEAN -> 40;
            case DATE_TIME -> 45;
            case TIMESTAMP -> 47;
            case REGULAR_EXPRESSION -> 50;
            case DB_POINTER -> 55;
            case JAVASCRIPT -> 60;
            case JAVASCRIPT_WITH_SCOPE -> 65;
            case MAX_KEY -> 127;
            default -> 100;
        };
    }

    @Override
    public int compare(BsonValue a, BsonValue b) {
        int ta = typeClass(a);
        int tb = typeClass(b);
        if (ta != tb) {
            return Integer.compare(ta, tb);
        }
        return switch (ta) {
            case 10 -> compareNumbers(a, b);
            case 15 -> strings == null ? string(a).compareTo(string(b)) : strings.compare(string(a), string(b));
            case 20 -> compareDocuments(a.asDocument(), b.asDocument());
            case 25 -> compareArrays(a.asArray(), b.asArray());
            case 30 -> compareBinary(a.asBinary(), b.asBinary());
            case 35 -> a.asObjectId().getValue().compareTo(b.asObjectId().getValue());
            case 40 -> Boolean.compare(a.asBoolean().getValue(), b.asBoolean().getValue());
            case 45 -> Long.compare(a.asDateTime().getValue(), b.asDateTime().getValue());
            case 47 -> Long.compareUnsigned(a.asTimestamp().getValue(), b.asTimestamp().getValue());
            case 50 -> {
                int c = a.asRegularExpression().getPattern().compareTo(b.asRegularExpression().getPattern());
                yield c != 0 ? c : a.asRegularExpression().getOptions().compareTo(b.asRegularExpression().getOptions());
            }
            case 60 -> a.asJavaScript().getCode().compareTo(b.asJavaScript().getCode());
            default -> 0;
        };
    }

    private static String string(BsonValue v) {
        return v.isSymbol() ? v.asSymbol().getSymbol() : v.asString().getValue();
    }

    public static boolean isNumber(BsonValue v) {
        return typeClass(v) == 10;
    }

    static int compareNumbers(BsonValue a, BsonValue b) {
        if (a.isDecimal128() || b.isDecimal128()) {
            BigDecimal x = decimal(a);
            BigDecimal y = decimal(b);
            if (x == null || y == null) {
                return Double.compare(toDouble(a), toDouble(b));
            }
            return x.compareTo(y);
        }
        if ((a.isInt32() || a.isInt64()) && (b.isInt32() || b.isInt64())) {
            return Long.compare(a.asNumber().longValue(), b.asNumber().longValue());
        }
        double x = toDouble(a);
        double y = toDouble(b);
        if (Double.isNaN(x) || Double.isNaN(y)) {
            return Double.isNaN(x) ? (Double.isNaN(y) ? 0 : -1) : 1; // NaN sorts below every number
        }
        if (x == y && (a.isInt64() || b.isInt64())) {
            return decimal(a).compareTo(decimal(b)); // doubles near 2^63 vs longs
        }
        return Double.compare(x == 0 ? 0.0 : x, y == 0 ? 0.0 : y);
    }

    public static double toDouble(BsonValue v) {
        if (v.isDecimal128()) {
            return v.asDecimal128().getValue().doubleValue();
        }
        return v.asNumber().doubleValue();
    }

    private static BigDecimal decimal(BsonValue v) {
        try {
            if (v.isDecimal128()) {
                return v.asDecimal128().getValue().bigDecimalValue();
            }
            if (v.isDouble()) {
                double d = v.asDouble().getValue();
                return Double.isFinite(d) ? new BigDecimal(d) : null;
            }
            return BigDecimal.valueOf(v.asNumber().longValue());
        } catch (ArithmeticException e) { // NaN or infinite decimal
            return null;
        }
    }

    private int compareDocuments(BsonDocument a, BsonDocument b) {
        Iterator<Map.Entry<String, BsonValue>> x = a.entrySet().iterator();
        Iterator<Map.Entry<String, BsonValue>> y = b.entrySet().iterator();
        while (x.hasNext() && y.hasNext()) {
            Map.Entry<String, BsonValue> ex = x.next();
            Map.Entry<String, BsonValue> ey = y.next();
            int c = Integer.compare(typeClass(ex.getValue()), typeClass(ey.getValue()));
            if (c == 0) {
                c = ex.getKey().compareTo(ey.getKey());
            }
            if (c == 0) {
                c = compare(ex.getValue(), ey.getValue());
            }
            if (c != 0) {
                return c;
            }
        }
        return Boolean.compare(x.hasNext(), y.hasNext());
    }

    private int compareArrays(BsonArray a, BsonArray b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = compare(a.get(i), b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    }

    private static int compareBinary(org.bson.BsonBinary a, org.bson.BsonBinary b) {
        int c = Integer.compare(a.getData().length, b.getData().length);
        if (c == 0) {
            c = Integer.compare(a.getType() & 0xFF, b.getType() & 0xFF);
        }
        return c != 0 ? c : Arrays.compareUnsigned(a.getData(), b.getData());
    }

    /** Equality as MongoDB's {@code $eq} sees it between two values (numbers by value). */
    public static boolean equal(BsonValue a, BsonValue b) {
        return INSTANCE.compare(a, b) == 0;
    }
}
