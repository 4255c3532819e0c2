package io.tetradb.mongo.bson;

import io.tetradb.core.item.BinaryItemReader;
import io.tetradb.core.item.BinaryItemWalker;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonMaxKey;
import org.bson.BsonMinKey;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonRegularExpression;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.BsonValue;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * A stored binary (TB1) item decoded straight into the Mongo document it stores, with no Jackson tree in between
 * (the point read's and getMore's hot path): the same mapping as {@link TypedToBson} and {@link DocumentMapper#fromItem},
 * which remain for trees and for the rare items this reader hands back to them (an earlier-shape sidecar, another
 * face's item without {@code _id}).
 */
final class BinaryItemBson implements BinaryItemWalker.Builder<BsonValue> {
    private static final BinaryItemBson INSTANCE = new BinaryItemBson();
    private static final byte[] ID = BinaryItemReader.key("_id");
    private static final byte[] TYPES = BinaryItemReader.key(DocumentMapper.TYPES);

    private final Set<String> reserved;

    private BinaryItemBson() {
        this.reserved = Set.of("id", "_rid", "_self", "_etag", "_attachments", "_ts", DocumentMapper.TYPES,
                DocumentMapper.REPLACED);
    }

    /** The document of the item object at {@code off}, or null when the tree path must read it. */
    static BsonDocument read(byte[] b, int off) {
        if (BinaryItemReader.find(b, off, ID) < 0 || BinaryItemReader.find(b, off, TYPES) >= 0) {
            return null;
        }
        BsonDocument d = (BsonDocument) BinaryItemWalker.read(b, off, INSTANCE);
        if (!d.getFirstKey().equals("_id")) { // stored before _id was moved to the front on writes
            BsonDocument out = new BsonDocument("_id", d.get("_id"));
            for (Map.Entry<String, BsonValue> e : d.entrySet()) {
                out.putIfAbsent(e.getKey(), e.getValue());
            }
            return out;
        }
        return d;
    }

    @Override
    public BsonValue nullValue() {
        return BsonNull.VALUE;
    }

    @Override
    public BsonValue bool(boolean v) {
        return BsonBoolean.valueOf(v);
    }

    @Override
    public BsonValue int32(int v) {
        return new BsonInt32(v);
    }

    @Override
    public BsonValue int64(long v) {
        return new BsonInt64(v);
    }

    @Override
    public BsonValue float64(double v) {
        return new BsonDouble(v);
    }

    @Override
    public BsonValue float32(float v) {
        return new BsonDouble(v);
    }

    @Override
    public BsonValue bigInteger(BigInteger v) {
        return v.bitLength() < 64 ? new BsonInt64(v.longValue()) : decimalOrText(new BigDecimal(v));
    }

    @Override
    public BsonValue bigDecimal(BigDecimal v) {
        return decimalOrText(v);
    }

    @Override
    public BsonValue decimal128(BigDecimal v) {
        return decimalOrText(v);
    }

    private static BsonValue decimalOrText(BigDecimal v) {
        try {
            return new BsonDecimal128(new Decimal128(v));
        } catch (NumberFormatException | ArithmeticException notDecimal128) {
            return new BsonString(v.toString());
        }
    }

    @Override
    public BsonValue decimal128Special(int kind) {
        return new BsonDecimal128(kind == 0 ? Decimal128.NaN
                : kind == 1 ? Decimal128.POSITIVE_INFINITY : Decimal128.NEGATIVE_INFINITY);
    }

    @Override
    public BsonValue string(String v) {
        return new BsonString(v);
    }

    @Override
    public BsonValue dateTime(long ticks, int offsetMinutes) {
        return new BsonDateTime(Math.floorDiv(ticks, 10_000L)); // milliseconds; finer ticks and an offset dropped
    }

    @Override
    public BsonValue binary(int subtype, byte[] bytes) {
        return new BsonBinary((byte) subtype, bytes);
    }

    @Override
    public BsonValue objectId(byte[] twelve) {
        return new BsonObjectId(new ObjectId(twelve));
    }

    @Override
    public BsonValue uuid(long mostSignificant, long leastSignificant) {
        return new BsonBinary(new UUID(mostSignificant, leastSignificant));
    }

    @Override
    public BsonValue timestamp(long value) {
        return new BsonTimestamp(value);
    }

    @Override
    public BsonValue regex(String pattern, String options) {
        return new BsonRegularExpression(pattern, options);
    }

    @Override
    public BsonValue minKey() {
        return new BsonMinKey();
    }

    @Override
    public BsonValue maxKey() {
        return new BsonMaxKey();
    }

    @Override
    public Object startObject(int count, int depth) {
        return new BsonDocument();
    }

    @Override
    public void field(Object object, String name, BsonValue value, int depth) {
        if (depth == 1) {
            if (reserved.contains(name)) {
                return;
            }
            name = DocumentMapper.userName(name);
        }
        ((BsonDocument) object).put(name, value);
    }

    @Override
    public BsonValue endObject(Object object, int depth) {
        BsonDocument d = (BsonDocument) object;
        if (depth > 1 && !d.isEmpty()) {
            String first = d.getFirstKey();
            if (first.startsWith("$") && !first.equals(DbRefFields.REF)) {
                // a value the typed model has no type for (or of the earlier shape), as tagged Extended JSON
                BsonValue tagged = LegacyItems.tagged(d);
                return tagged != null ? tagged : d;
            }
        }
        return d;
    }

    @Override
    public Object startArray(int count, int depth) {
        return new BsonArray(new ArrayList<>(count));
    }

    @Override
    public void element(Object array, BsonValue value) {
        ((BsonArray) array).add(value);
    }

    @Override
    public BsonValue endArray(Object array) {
        return (BsonValue) array;
    }
}
