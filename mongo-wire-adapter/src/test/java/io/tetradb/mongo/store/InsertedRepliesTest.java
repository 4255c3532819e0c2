package io.tetradb.mongo.store;

import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.EncodedItem;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.core.store.ItemResult;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.mongo.bson.DocumentMapper;
import io.tetradb.mongo.bson.UncheckedRawDocument;
import io.tetradb.mongo.command.Replies;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonRegularExpression;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An inserted document kept as its own point-find reply (insert-replies, {@link PointReplyCache#putInserted}) is
 * exactly the reply a read of the stored item builds, charged what that read is, and is kept only when nothing else
 * wrote the item between the insert and its stamp.
 */
class InsertedRepliesTest {
    @TempDir
    Path dir;

    private static final PartitionKeyValue PARTITION = PartitionKeyValue.none(1);
    private static final String NS = "db.docs";

    /**
     * Random documents of every BSON type, some with what a read does not give back byte for byte (an _id not first,
     * a malformed string, an array's elements misnamed, a NaN, a non-ASCII name, a binary…), inserted in batches and
     * alone through {@link MongoCollection#insertAll}: a document the transcode says reads back as it is must be a hit
     * at its first find, equal to the reply a read builds and charged the same; any other must be a miss.
     */
    @Test
    void anInsertedDocumentIsItsFirstFindsReplyExactlyWhenAReadGivesBackItsBytes() throws Exception {
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            MongoCollection c = new MongoCatalog(store.coreStore()).createIfAbsent("db", "docs");
            ContainerStore container = c.container();
            Random random = new Random(20261129);
            int asIs = 0;
            int notAsIs = 0;
            int id = 0;
            for (int round = 0; round < 120; round++) {
                int batch = round % 4 == 0 ? 1 : 2 + random.nextInt(9); // alone too: the single-insert path
                List<BsonDocument> docs = new ArrayList<>();
                List<ItemOperation> ops = new ArrayList<>();
                List<String> ids = new ArrayList<>();
                List<String> coreIds = new ArrayList<>();
                while (docs.size() < batch) {
                    UncheckedRawDocument raw = randomDocument(random, id++);
                    if (random.nextBoolean()) {
                        raw.checked(); // bounds checked first: the transcode's trusted walk
                    }
                    EncodedItem item = raw.encodedOrNull(container.codec());
                    if (item == null) {
                        continue; // the general path: not this test's
                    }
                    docs.add(raw.checked());
                    ops.add(ItemOperation.create(item));
                    ids.add(raw.readsBackAsIs());
                    coreIds.add(item.field("id").asText());
                }
                double[] charge = new double[1];
                List<RuntimeException> outcome = c.insertAll(docs, ops, ids, true, charge);
                for (int k = 0; k < docs.size(); k++) {
                    assertNull(outcome.get(k), "document " + docs.get(k).toJson());
                    String coreId = coreIds.get(k);
                    int[] misses = new int[1];
                    double[] found = new double[1];
                    BsonDocument reply = c.readPointReply(coreId, NS, d -> {
                        misses[0]++;
                        return Replies.singleBatch(NS, d);
                    }, found);
                    ItemResult read = container.read(PARTITION, coreId, null);
                    byte[] expected = bytes(Replies.singleBatch(NS,
                            DocumentMapper.fromStoredForReply(container.codec(), read.stored())));
                    assertArrayEquals(expected, bytes(reply), "the reply of " + docs.get(k).toJson());
                    if (ids.get(k) != null) {
                        asIs++;
                        assertEquals(coreId, ids.get(k));
                        assertEquals(0, misses[0], "kept at its insert: " + docs.get(k).toJson());
                        assertEquals(read.requestCharge(), found[0], 1e-9, "charged as the read");
                    } else {
                        notAsIs++;
                        assertEquals(1, misses[0], "not kept at its insert: " + docs.get(k).toJson());
                    }
                }
            }
            assertTrue(asIs > 100 && notAsIs > 100, "both kinds were written: " + asIs + " kept, " + notAsIs + " not");
        }
    }

    /** A write of the item between the insert and the stamp read after it leaves nothing cached. */
    @Test
    void aWriteBetweenTheInsertAndItsStampLeavesNothingCached() throws Exception {
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            ContainerStore container = new MongoCatalog(store.coreStore()).createIfAbsent("db", "docs").container();
            PointReplyCache cache = new PointReplyCache(PointReplyCache.DEFAULT_BYTES, false);

            UncheckedRawDocument kept = raw(new BsonDocument("_id", new BsonInt32(1)).append("v", new BsonString("a")));
            String keptId = insertAndKeep(cache, container, kept, null);
            BsonDocument hit = cache.get(container, PARTITION, keptId, NS,
                    cache.stampBeforeRead(container, PARTITION, keptId), new double[1]);
            assertNotNull(hit, "nothing came between: kept");
            assertEquals("a", hit.getDocument("cursor").getArray("firstBatch").get(0).asDocument()
                    .getString("v").getValue());

            UncheckedRawDocument raced = raw(new BsonDocument("_id", new BsonInt32(2)).append("v", new BsonString("a")));
            String racedId = insertAndKeep(cache, container, raced, written -> {
                EncodedItem replaced = raw(new BsonDocument("_id", new BsonInt32(2)).append("v", new BsonString("b")))
                        .encodedOrNull(container.codec());
                container.execute(PARTITION, ItemOperation.upsert(replaced, null)); // another writer, first
            });
            assertNull(cache.get(container, PARTITION, racedId, NS,
                    cache.stampBeforeRead(container, PARTITION, racedId), new double[1]), "a write came between");
        }
    }

    /** Inserts {@code doc}, runs {@code between} after the write, then offers it to the cache as the insert does. */
    private static String insertAndKeep(PointReplyCache cache, ContainerStore container, UncheckedRawDocument doc,
                                        java.util.function.Consumer<ItemResult> between) {
        EncodedItem item = doc.encodedOrNull(container.codec());
        String id = doc.readsBackAsIs();
        assertNotNull(id);
        long before = cache.stampBeforeRead(container, PARTITION, id);
        ItemResult written = container.execute(PARTITION, ItemOperation.create(item));
        if (between != null) {
            between.accept(written);
        }
        cache.putInserted(container, PARTITION, id, NS, before, doc.checked(), written);
        return id;
    }

    private static byte[] bytes(BsonDocument doc) {
        RawBsonDocument raw = doc instanceof RawBsonDocument r ? r : new RawBsonDocument(doc, new BsonDocumentCodec());
        ByteBuffer b = raw.getByteBuffer().asNIO();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    private static UncheckedRawDocument raw(BsonDocument doc) {
        byte[] b = bytes(doc);
        return new UncheckedRawDocument(b, 0, b.length);
    }

    // ---- random documents ---------------------------------------------------------------------------------------

    /** Marks a string whose bytes are made malformed, and a document whose type byte is made an array's. */
    private static final String MALFORMED = "\u07ff";
    private static final String MISNAMED_ARRAY = "misnamed";

    private static UncheckedRawDocument randomDocument(Random random, int n) {
        BsonDocument doc = new BsonDocument();
        BsonValue id = switch (random.nextInt(8)) {
            case 0 -> new BsonInt64((1L << 40) + n);
            case 1 -> new BsonString("s" + n + (random.nextBoolean() ? "é" : ""));
            case 2 -> new BsonObjectId(new ObjectId(new byte[]{0, 0, 0, 0, 0, 0, 0, 0, (byte) (n >>> 24),
                    (byte) (n >>> 16), (byte) (n >>> 8), (byte) n}));
            case 3 -> new BsonDouble(n + 0.5); // a double _id: not promised as is
            default -> new BsonInt32(n);
        };
        boolean idFirst = random.nextInt(10) != 0;
        if (idFirst) {
            doc.append("_id", id);
        }
        int fields = random.nextInt(6);
        for (int f = 0; f < fields; f++) {
            String name = random.nextInt(20) == 0 ? "é" + f : random.nextInt(20) == 0 ? "id" : "f" + f;
            doc.append(name, value(random, 0));
        }
        if (random.nextInt(12) == 0) {
            doc.append(MISNAMED_ARRAY, new BsonDocument("0", new BsonInt32(1)).append("2", new BsonInt32(2)));
        }
        if (!idFirst) {
            doc.append("_id", id);
        }
        byte[] b = bytes(doc);
        patch(b, MALFORMED.getBytes(StandardCharsets.UTF_8), 1, (byte) 0x28); // DF BF → DF 28: not UTF-8
        byte[] misnamed = (MISNAMED_ARRAY + "\0").getBytes(StandardCharsets.US_ASCII);
        int at = indexOf(b, misnamed);
        if (at > 0) {
            b[at - 1] = 0x04; // its type byte: an array whose elements are named 0 and 2
        }
        return new UncheckedRawDocument(b, 0, b.length);
    }

    private static BsonValue value(Random random, int depth) {
        int kind = random.nextInt(depth < 3 ? 18 : 16);
        return switch (kind) {
            case 0, 1 -> new BsonInt32(random.nextInt());
            case 2 -> new BsonInt64(random.nextLong());
            case 3 -> new BsonDouble(switch (random.nextInt(6)) {
                case 0 -> Double.NaN;
                case 1 -> -0.0;
                case 2 -> Double.POSITIVE_INFINITY;
                case 3 -> 1.0;
                default -> random.nextDouble() * 1e6;
            });
            case 4, 5 -> new BsonString(random.nextInt(8) == 0 ? "bad" + MALFORMED : random.nextInt(4) == 0
                    ? "žluťoučký kůň " + random.nextInt() : "text " + random.nextInt());
            case 6 -> BsonBoolean.valueOf(random.nextBoolean());
            case 7 -> BsonNull.VALUE;
            case 8 -> new BsonDateTime(random.nextInt(3) == 0 ? -random.nextInt(1 << 30) * 1000L
                    : 1_700_000_000_000L + random.nextInt());
            case 9 -> new BsonObjectId(new ObjectId());
            case 10 -> new BsonDecimal128(Decimal128.parse(random.nextInt(1000) + ".5"));
            case 11 -> new BsonBinary((byte) (random.nextBoolean() ? 0 : 4), new byte[16]);
            case 12 -> new BsonTimestamp(random.nextInt(1 << 20), random.nextInt(100));
            case 13 -> new BsonRegularExpression("a.*b", "i");
            case 14, 15 -> new BsonString("plain");
            case 16 -> {
                BsonDocument d = new BsonDocument();
                for (int i = random.nextInt(4); i > 0; i--) {
                    d.append("n" + i, value(random, depth + 1));
                }
                yield d;
            }
            default -> {
                BsonArray a = new BsonArray();
                for (int i = random.nextInt(13); i > 0; i--) {
                    a.add(value(random, depth + 1));
                }
                yield a;
            }
        };
    }

    /** Sets byte {@code offset} of every occurrence of {@code pattern} in {@code b} to {@code to}. */
    private static void patch(byte[] b, byte[] pattern, int offset, byte to) {
        for (int i = 0; i + pattern.length <= b.length; i++) {
            if (Arrays.equals(b, i, i + pattern.length, pattern, 0, pattern.length)) {
                b[i + offset] = to;
            }
        }
    }

    private static int indexOf(byte[] b, byte[] pattern) {
        for (int i = 0; i + pattern.length <= b.length; i++) {
            if (Arrays.equals(b, i, i + pattern.length, pattern, 0, pattern.length)) {
                return i;
            }
        }
        return -1;
    }
}
