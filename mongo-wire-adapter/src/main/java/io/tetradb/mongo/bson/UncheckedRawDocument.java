package io.tetradb.mongo.bson;

import org.bson.BsonDocument;
import org.bson.BsonReader;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.codecs.configuration.CodecRegistry;
import org.bson.json.JsonWriterSettings;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Collection;
import java.util.Map;
import java.util.Set;

/**
 * bounds-fold (issue 17): an insert's document in its wire bytes, not yet bounds-checked. The request decoder keeps
 * an insert's documents so, instead of walking each with {@link BsonBounds} on the event loop and again in the
 * transcode to the core's item: the transcode ({@link #encodedOrNull}) checks the bounds as it reads. Its only ways
 * out to the bson library's decoders are that checking transcode and {@link #checked()} ({@link BsonBounds}): every
 * {@code BsonDocument} method here goes through {@link #checked()}, so a document that reaches any other consumer
 * (a tree decode, a validator, {@code currentOp}, an encoder) is checked first, and an unchecked one never reaches the
 * library's tree decoder, which allocates a binary's declared length and recurses once per level.
 */
public final class UncheckedRawDocument extends BsonDocument {
    private static final long serialVersionUID = 1L;
    private final transient byte[] bytes;
    private final int offset;
    private final int length;
    /** The document once its bounds are known good (by the transcode or by {@link BsonBounds}). */
    private transient volatile RawBsonDocument checked;
    /** See {@link #readsBackAsIs}; set by the command thread that transcoded it, read by the same thread. */
    private transient String asIsId;

    /** {@code length} bytes of {@code bytes} from {@code offset}: a document whose size field says {@code length}. */
    public UncheckedRawDocument(byte[] bytes, int offset, int length) {
        this.bytes = bytes;
        this.offset = offset;
        this.length = length;
    }

    /** The document, its bounds checked by {@link BsonBounds} unless already known good; MongoError if broken. */
    public RawBsonDocument checked() {
        RawBsonDocument c = checked;
        if (c == null) {
            BsonBounds.check(ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN), offset, offset + length);
            c = new RawBsonDocument(bytes, offset, length);
            checked = c;
        }
        return c;
    }

    /**
     * The item of this document transcoded in the one walk that also checks its bounds
     * ({@link RawBsonItems#toEncodedChecking}); null when that walk declines the document, which is then checked
     * (so {@link #checked()} costs nothing more). Broken bounds throw MongoError InvalidBSON or Overflow, as
     * {@link BsonBounds} words them.
     */
    public io.tetradb.core.store.EncodedItem encodedOrNull(io.tetradb.core.store.ItemCodec codec) {
        if (checked != null) {
            io.tetradb.core.store.EncodedItem item = RawBsonItems.toEncoded(checked, codec);
            asIsId = item == null ? null : RawBsonItems.lastReadsBackAsIs();
            return item;
        }
        RawBsonDocument view = new RawBsonDocument(bytes, offset, length); // not handed out before it is checked
        io.tetradb.core.store.EncodedItem item = RawBsonItems.toEncodedChecking(view, codec);
        if (item == null) {
            checked(); // declined (or the library refused a value): the general path decodes it, so walk it here
            return null;
        }
        asIsId = RawBsonItems.lastReadsBackAsIs();
        checked = view;
        return item;
    }

    /**
     * insert-replies: the document's core id when the item {@link #encodedOrNull} last gave reads back as exactly
     * these bytes ({@code RawBsonItems.lastReadsBackAsIs}), else null.
     */
    public String readsBackAsIs() {
        return asIsId;
    }

    /** Its size in bytes (its size field). */
    public int byteSize() {
        return length;
    }

    /** Whether its first element is named {@code _id}, read from its first bytes only. */
    public boolean firstNameIsId() {
        return RawBsonItems.firstNameIsId(bytes, offset, length);
    }

    // ---- every BsonDocument method: on the checked document ----------------------------------------------------

    @Override
    public <C> BsonDocument toBsonDocument(Class<C> documentClass, CodecRegistry codecRegistry) {
        return checked();
    }

    @Override
    public int size() {
        return checked().size();
    }

    @Override
    public boolean isEmpty() {
        return checked().isEmpty();
    }

    @Override
    public boolean containsKey(Object key) {
        return checked().containsKey(key);
    }

    @Override
    public boolean containsValue(Object value) {
        return checked().containsValue(value);
    }

    @Override
    public BsonValue get(Object key) {
        return checked().get(key);
    }

    @Override
    public BsonValue put(String key, BsonValue value) {
        return checked().put(key, value);
    }

    @Override
    public BsonValue remove(Object key) {
        return checked().remove(key);
    }

    @Override
    public void putAll(Map<? extends String, ? extends BsonValue> m) {
        checked().putAll(m);
    }

    @Override
    public void clear() {
        checked().clear();
    }

    @Override
    public Set<String> keySet() {
        return checked().keySet();
    }

    @Override
    public Collection<BsonValue> values() {
        return checked().values();
    }

    @Override
    public Set<Map.Entry<String, BsonValue>> entrySet() {
        return checked().entrySet();
    }

    @Override
    public BsonDocument append(String key, BsonValue value) {
        return checked().append(key, value);
    }

    @Override
    public String getFirstKey() {
        return checked().getFirstKey();
    }

    @Override
    public BsonReader asBsonReader() {
        return checked().asBsonReader();
    }

    @Override
    public boolean equals(Object o) {
        return o == this || checked().equals(o);
    }

    @Override
    public int hashCode() {
        return checked().hashCode();
    }

    @Override
    public String toJson() {
        return checked().toJson();
    }

    @Override
    public String toJson(JsonWriterSettings settings) {
        return checked().toJson(settings);
    }

    @Override
    public String toString() {
        return checked().toString();
    }

    @Override
    public BsonDocument clone() {
        return checked().clone();
    }

    /** Serialized as the checked document (the bson library's own proxy of it). */
    private Object writeReplace() {
        return checked();
    }
}
