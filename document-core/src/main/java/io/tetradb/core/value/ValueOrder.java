package io.tetradb.core.value;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The one total order over all values of the core: used by ORDER BY, index keys ({@link IndexKeyEncoding} produces
 * bytes whose unsigned order is exactly this order), DISTINCT / GROUP BY equality and MIN / MAX.
 *
 * <h2>Type order</h2>
 * {@code undefined < null < boolean < number < string < array < object}.
 * <ul>
 *   <li>The ORDER BY reference documents only part of it: "null values are treated as the lowest possible values",
 *       and ORDER BY returns items whose sort property is undefined
 *       (https://learn.microsoft.com/azure/cosmos-db/nosql/query/order-by). No Cosmos page found states the full
 *       mixed-type order.</li>
 *   <li>The full order is the one the Cosmos SDKs use to merge cross-partition ORDER BY results of mixed types:
 *       azure-sdk-for-java {@code com.azure.cosmos.implementation.query.ItemType}: NoValue 0, Null 1, Boolean 2,
 *       Number 4, String 5, ArrayNode 6, ObjectNode 7 (azure-sdk-for-java PR #19458 "Crosspartition Orderby mixed
 *       types"); the JS SDK's {@code orderByComparator} (NoValue, null, boolean, number, string);
 *       azure-cosmos-dotnet-v3 PR #853 "ORDER BY Arrays and Objects": arrays after strings, objects after arrays.</li>
 *   <li>Undefined first in ascending order was observed against Cosmos DB and its emulator in
 *       vercel/cosmosdb-query PR #28 ({@code ORDER BY c.config.enabled ASC}: missing, false, true).</li>
 * </ul>
 * {@link JsonNode#isMissingNode() MissingNode} and a Java {@code null} reference both stand for <i>undefined</i>.
 *
 * <h2>Within a type</h2>
 * <ul>
 *   <li>booleans: {@code false < true}.</li>
 *   <li>numbers: by exact numeric value across Jackson's int / long / BigInteger / float / double / BigDecimal nodes,
 *       so {@code 5 == 5.0 == 5.00}, {@code 2^53+1 (long) > 2^53 (double)}, and {@code BigDecimal 0.1 != double 0.1}
 *       (the double is 0.1000000000000000055...). {@code -0.0 == 0.0}. {@code NaN} equals itself and sorts below
 *       {@code -Infinity} (MongoDB's BSON order does the same); {@code +Infinity} is above every finite value,
 *       including BigDecimals beyond the double range. Cosmos DB itself compares numbers as IEEE-754 doubles; the
 *       order here agrees with it for every value a double represents exactly and refines it (rather than rounding)
 *       for the wider integers and decimals the Mongo and Tables faces carry (Int64, Decimal128).</li>
 *   <li>strings: ordinal, by UTF-16 code units ({@link String#compareTo}), as the Cosmos SDKs' merge comparators do
 *       (.NET {@code CosmosString.CompareTo} = {@code string.CompareOrdinal}; Java {@code ItemComparator} =
 *       {@code String.compareTo}). This differs from code-point / UTF-8 byte order only between supplementary
 *       characters and BMP characters U+E000..U+FFFF.</li>
 *   <li>arrays: element by element, then the shorter first (a proper prefix sorts first). Cosmos's SDKs order
 *       arrays and objects among themselves by a hash, which is not an order anyone can rely on; this one is
 *       structural and deterministic.</li>
 *   <li>objects: their properties taken in sorted-key order (keys by the string order above); pairwise by key, then
 *       by value; then the one with fewer properties first.</li>
 * </ul>
 *
 * <h2>Room for more types</h2>
 * Type ranks are spaced by 8 so that the non-JSON types of the other faces can be slotted in later without
 * renumbering (the rank doubles as the type tag of {@link IndexKeyEncoding}, so gaps keep stored keys valid):
 * MinKey below undefined; binary (and UUID), ObjectId, date, timestamp, regex above object; MaxKey at the top (see
 * {@link TypedNode}; within each type the order MongoDB uses). Where the Mongo face needs BSON's own order (which puts
 * object before array and boolean after ObjectId) it sorts with {@link BsonOrder}. Other Jackson nodes (e.g.
 * {@code BinaryNode}, {@code POJONode}) are rejected with {@link IllegalArgumentException}.
 */
public final class ValueOrder implements Comparator<JsonNode> {

    /** MongoDB's MinKey ({@link MinKeyNode}). */
    public static final int RANK_MIN_KEY = 0x08;
    public static final int RANK_UNDEFINED = 0x10;
    public static final int RANK_NULL = 0x18;
    public static final int RANK_BOOLEAN = 0x20;
    public static final int RANK_NUMBER = 0x28;
    public static final int RANK_STRING = 0x30;
    public static final int RANK_ARRAY = 0x38;
    public static final int RANK_OBJECT = 0x40;
    // The typed values of the other faces ({@link TypedNode}), after every JSON type so that the JSON order is
    // unchanged. 0x00 and 0xFF are never type ranks (key-range sentinels).
    /** Binary data and UUIDs ({@link BinaryDataNode}, {@link UuidNode}). */
    public static final int RANK_BINARY = 0x48;
    public static final int RANK_OBJECT_ID = 0x50;
    public static final int RANK_DATE_TIME = 0x58;
    public static final int RANK_TIMESTAMP = 0x60;
    public static final int RANK_REGEX = 0x68;
    /** MongoDB's MaxKey ({@link MaxKeyNode}). */
    public static final int RANK_MAX_KEY = 0xF0;

    public static final ValueOrder INSTANCE = new ValueOrder();

    private static final double TWO_53 = 0x1p53;

    private ValueOrder() {
    }

    /** The type rank of a value (see the constants); {@code null} and MissingNode are undefined. */
    public static int typeRank(JsonNode v) {
        if (v == null) {
            return RANK_UNDEFINED;
        }
        if (v instanceof TypedNode typed) {
            return typed.typeRank();
        }
        JsonNodeType t = v.getNodeType();
        switch (t) {
            case MISSING:
                return RANK_UNDEFINED;
            case NULL:
                return RANK_NULL;
            case BOOLEAN:
                return RANK_BOOLEAN;
            case NUMBER:
                return RANK_NUMBER;
            case STRING:
                return RANK_STRING;
            case ARRAY:
                return RANK_ARRAY;
            case OBJECT:
                return RANK_OBJECT;
            default:
                throw new IllegalArgumentException("no order defined yet for " + t + " values");
        }
    }

    /** Static form of {@link #compare}. */
    public static int compareValues(JsonNode a, JsonNode b) {
        return INSTANCE.compare(a, b);
    }

    @Override
    public int compare(JsonNode a, JsonNode b) {
        if (a == b) {
            return 0;
        }
        int ra = typeRank(a);
        int rb = typeRank(b);
        if (ra != rb) {
            return ra < rb ? -1 : 1;
        }
        switch (ra) {
            case RANK_UNDEFINED:
            case RANK_NULL:
                return 0;
            case RANK_BOOLEAN:
                return Boolean.compare(a.booleanValue(), b.booleanValue());
            case RANK_NUMBER:
                return compareNumbers(a, b);
            case RANK_STRING:
                return Integer.signum(a.textValue().compareTo(b.textValue()));
            case RANK_ARRAY:
                return compareArrays(a, b);
            case RANK_OBJECT:
                return compareObjects(a, b);
            default:
                return ((TypedNode) a).compareSameRank((TypedNode) b);
        }
    }

    /**
     * Cosmos SQL {@code =}: true when both values are defined, of the same type and equal in this order (deep for
     * arrays and objects, {@code 5 = 5.0}). {@code undefined = anything} is undefined in Cosmos, hence false here.
     * DISTINCT and GROUP BY, which do group undefined with undefined, use {@code compare(a, b) == 0} instead.
     */
    public static boolean equalsForQuery(JsonNode a, JsonNode b) {
        int ra = typeRank(a);
        if (ra == RANK_UNDEFINED || ra != typeRank(b)) {
            return false;
        }
        return INSTANCE.compare(a, b) == 0;
    }

    /**
     * Cosmos SQL {@code < <= > >=}: the comparison result (-1, 0, 1) when both values are of the same scalar type
     * (null, boolean, number, string); {@code null} (meaning <i>undefined</i>, the item is skipped) across types, for
     * undefined operands and between arrays or objects, as the Cosmos equality and comparison operators page states:
     * https://learn.microsoft.com/azure/cosmos-db/nosql/query/equality-comparison-operators
     */
    public static Integer compareForQuery(JsonNode a, JsonNode b) {
        int ra = typeRank(a);
        if (ra != typeRank(b) || ra == RANK_UNDEFINED || ra == RANK_ARRAY || ra == RANK_OBJECT) {
            return null;
        }
        return INSTANCE.compare(a, b);
    }

    // ---------------------------------------------------------------------------------------------------- numbers

    /** Exact numeric comparison of two number nodes (see the class comment for NaN, infinities and -0.0). */
    static int compareNumbers(JsonNode a, JsonNode b) {
        boolean ia = isIntegralPrimitive(a);
        boolean ib = isIntegralPrimitive(b);
        if (ia && ib) {
            return Long.compare(a.longValue(), b.longValue());
        }
        boolean da = isFloatingPrimitive(a);
        boolean db = isFloatingPrimitive(b);
        if (da && db) {
            return compareDoubles(a.doubleValue(), b.doubleValue());
        }
        // Mixed kinds. Dispose of NaN and infinities first, then compare exactly.
        if (da) {
            double x = a.doubleValue();
            if (!Double.isFinite(x)) {
                return nonFiniteVsFinite(x);
            }
        }
        if (db) {
            double y = b.doubleValue();
            if (!Double.isFinite(y)) {
                return -nonFiniteVsFinite(y);
            }
        }
        if (ia && db) {
            long x = a.longValue();
            if (x >= -(long) TWO_53 && x <= (long) TWO_53) {
                return compareDoubles((double) x, b.doubleValue());
            }
        } else if (da && ib) {
            long y = b.longValue();
            if (y >= -(long) TWO_53 && y <= (long) TWO_53) {
                return compareDoubles(a.doubleValue(), (double) y);
            }
        }
        return Integer.signum(exact(a).compareTo(exact(b)));
    }

    /** For a finite other operand: NaN is below everything, -Inf below every finite, +Inf above. */
    private static int nonFiniteVsFinite(double x) {
        return x == Double.POSITIVE_INFINITY ? 1 : -1;
    }

    /** Double order of this class: NaN == NaN < -Inf < ... < -0.0 == 0.0 < ... < +Inf. */
    static int compareDoubles(double x, double y) {
        if (x < y) {
            return -1;
        }
        if (x > y) {
            return 1;
        }
        if (x == y) {
            return 0; // includes -0.0 == 0.0
        }
        boolean nx = Double.isNaN(x);
        boolean ny = Double.isNaN(y);
        return nx == ny ? 0 : (nx ? -1 : 1);
    }

    static boolean isIntegralPrimitive(JsonNode n) {
        return n.isInt() || n.isLong() || n.isShort();
    }

    static boolean isFloatingPrimitive(JsonNode n) {
        return n.isDouble() || n.isFloat();
    }

    /** The exact value of a finite number node. */
    static BigDecimal exact(JsonNode n) {
        if (isIntegralPrimitive(n)) {
            return BigDecimal.valueOf(n.longValue());
        }
        if (isFloatingPrimitive(n)) {
            return new BigDecimal(n.doubleValue()); // exact binary expansion, not the shortest decimal string
        }
        if (n.isBigInteger()) {
            return new BigDecimal(n.bigIntegerValue());
        }
        if (n.isBigDecimal()) {
            return n.decimalValue();
        }
        throw new IllegalArgumentException("unsupported number node " + n.getClass().getName());
    }

    // -------------------------------------------------------------------------------------- arrays and objects

    private int compareArrays(JsonNode a, JsonNode b) {
        int na = a.size();
        int nb = b.size();
        int n = Math.min(na, nb);
        for (int i = 0; i < n; i++) {
            int c = compare(a.get(i), b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(na, nb);
    }

    private int compareObjects(JsonNode a, JsonNode b) {
        List<Map.Entry<String, JsonNode>> ea = sortedFields(a);
        List<Map.Entry<String, JsonNode>> eb = sortedFields(b);
        int n = Math.min(ea.size(), eb.size());
        for (int i = 0; i < n; i++) {
            Map.Entry<String, JsonNode> x = ea.get(i);
            Map.Entry<String, JsonNode> y = eb.get(i);
            int c = x.getKey().compareTo(y.getKey());
            if (c != 0) {
                return c < 0 ? -1 : 1;
            }
            c = compare(x.getValue(), y.getValue());
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(ea.size(), eb.size());
    }

    /** The fields of an object node sorted by key (UTF-16 code unit order). */
    static List<Map.Entry<String, JsonNode>> sortedFields(JsonNode o) {
        List<Map.Entry<String, JsonNode>> list = new ArrayList<>(o.size());
        for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
            list.add(it.next());
        }
        list.sort(Map.Entry.comparingByKey());
        return list;
    }
}
