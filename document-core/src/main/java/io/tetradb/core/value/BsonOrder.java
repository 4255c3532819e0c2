package io.tetradb.core.value;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;

/**
 * MongoDB's comparison order over the same values, for the Mongo face (https://www.mongodb.com/docs/manual/reference/
 * bson-type-comparison-order/): MinKey, null (undefined/missing with it), numbers, strings, objects, arrays, BinData,
 * ObjectId, booleans, dates, timestamps, regular expressions, MaxKey. Within a type: numbers by exact value across
 * every numeric type ({@link ValueOrder}'s number order, NaN lowest); strings by their UTF-8 bytes (MongoDB's simple
 * binary collation, i.e. by code point); objects field by field in stored order, each field by its value's type,
 * then its name, then its value, the shorter object first; arrays element by element, the shorter first (MongoDB's
 * array-to-array comparison); the other types as in {@link ValueOrder}.
 */
public final class BsonOrder implements Comparator<JsonNode> {
    public static final BsonOrder INSTANCE = new BsonOrder();

    private BsonOrder() {
    }

    /** The BSON comparison rank of a value. */
    public static int bsonRank(JsonNode v) {
        switch (ValueOrder.typeRank(v)) {
            case ValueOrder.RANK_MIN_KEY:
                return 1;
            case ValueOrder.RANK_UNDEFINED:
            case ValueOrder.RANK_NULL:
                return 2;
            case ValueOrder.RANK_NUMBER:
                return 3;
            case ValueOrder.RANK_STRING:
                return 4;
            case ValueOrder.RANK_OBJECT:
                return 5;
            case ValueOrder.RANK_ARRAY:
                return 6;
            case ValueOrder.RANK_BINARY:
                return 7;
            case ValueOrder.RANK_OBJECT_ID:
                return 8;
            case ValueOrder.RANK_BOOLEAN:
                return 9;
            case ValueOrder.RANK_DATE_TIME:
                return 10;
            case ValueOrder.RANK_TIMESTAMP:
                return 11;
            case ValueOrder.RANK_REGEX:
                return 12;
            case ValueOrder.RANK_MAX_KEY:
                return 13;
            default:
                throw new AssertionError();
        }
    }

    @Override
    public int compare(JsonNode a, JsonNode b) {
        int ra = bsonRank(a);
        int rb = bsonRank(b);
        if (ra != rb) {
            return ra < rb ? -1 : 1;
        }
        switch (ra) {
            case 2:
                return 0;
            case 4:
                return compareUtf8(a.textValue(), b.textValue());
            case 5:
                return compareObjects(a, b);
            case 6: {
                int n = Math.min(a.size(), b.size());
                for (int i = 0; i < n; i++) {
                    int c = compare(a.get(i), b.get(i));
                    if (c != 0) {
                        return c;
                    }
                }
                return Integer.compare(a.size(), b.size());
            }
            default:
                return ValueOrder.INSTANCE.compare(a, b);
        }
    }

    private int compareObjects(JsonNode a, JsonNode b) {
        Iterator<Map.Entry<String, JsonNode>> ia = a.fields();
        Iterator<Map.Entry<String, JsonNode>> ib = b.fields();
        while (ia.hasNext() && ib.hasNext()) {
            Map.Entry<String, JsonNode> x = ia.next();
            Map.Entry<String, JsonNode> y = ib.next();
            int c = Integer.compare(bsonRank(x.getValue()), bsonRank(y.getValue()));
            if (c != 0) {
                return c;
            }
            c = compareUtf8(x.getKey(), y.getKey());
            if (c != 0) {
                return c;
            }
            c = compare(x.getValue(), y.getValue());
            if (c != 0) {
                return c;
            }
        }
        return Boolean.compare(ia.hasNext(), ib.hasNext());
    }

    /** UTF-8 byte order = code point order (differs from UTF-16 order for supplementary vs U+E000..U+FFFF). */
    static int compareUtf8(String x, String y) {
        int i = 0;
        int j = 0;
        while (i < x.length() && j < y.length()) {
            int cx = x.codePointAt(i);
            int cy = y.codePointAt(j);
            if (cx != cy) {
                return cx < cy ? -1 : 1;
            }
            i += Character.charCount(cx);
            j += Character.charCount(cy);
        }
        return Boolean.compare(i < x.length(), j < y.length());
    }
}
