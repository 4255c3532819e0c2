package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.index.CompiledIndexingPolicy;
import io.tetradb.core.index.CompositeTerms;
import io.tetradb.core.item.BinaryIndexTerms;
import io.tetradb.core.item.BinaryItemReader;
import io.tetradb.core.item.BinaryItemWriter;
import io.tetradb.core.item.ItemTermRecorder;
import io.tetradb.core.item.StoredItems;
import io.tetradb.core.storage.Durability;
import io.tetradb.core.storage.RocksEngine;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.WriteSet;
import io.tetradb.core.storage.meta.EmbeddedMetadataStore;
import io.tetradb.core.value.IndexKeyEncoding;
import io.tetradb.core.value.TypedValueGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Session 23 (index-write, issue 17): the entry keys the one-pass writer ({@link OnePassTerms#entries}) and the walk
 * over stored bytes ({@link BinaryIndexEntries#of}) give now, in an {@link IndexEntryKeys} with composite values read
 * from the bytes, equal byte for byte and in order those of the code before (a {@code ByteBuffer} per entry in an
 * {@code ArrayList}, composites from the tree — written out here as it was); and {@link IndexWrites} hands a write
 * set the same deletes and puts, in the same order, as before (each side sorted on its own), for random mixes of new
 * versions (either kind of list), replaces and deletes.
 */
class IndexEntryKeysPropertyTest {
    private static final ObjectMapper M = new ObjectMapper();
    private static final String[] POLICIES = {
            null,
            // the query benchmark's composite, and one the bytes cannot serve (nested), one with _ts and a system name
            "{\"indexingMode\":\"consistent\",\"includedPaths\":[{\"path\":\"/*\"}],\"compositeIndexes\":"
                    + "[[{\"path\":\"/deviceId\"},{\"path\":\"/ts\",\"order\":\"descending\"}]]}",
            "{\"indexingMode\":\"consistent\",\"includedPaths\":[{\"path\":\"/*\"}],\"compositeIndexes\":"
                    + "[[{\"path\":\"/deviceId\"},{\"path\":\"/ts\",\"order\":\"descending\"}],"
                    + "[{\"path\":\"/_ts\",\"order\":\"descending\"},{\"path\":\"/a\"},{\"path\":\"/_rid\"}]]}",
            "{\"indexingMode\":\"consistent\",\"includedPaths\":[{\"path\":\"/a/?\"},{\"path\":\"/c/*\"}],"
                    + "\"excludedPaths\":[{\"path\":\"/*\"}],\"compositeIndexes\":"
                    + "[[{\"path\":\"/a\"},{\"path\":\"/c/d\",\"order\":\"descending\"}],[{\"path\":\"/ts\"},{\"path\":\"/a\"}]]}",
            "{\"indexingMode\":\"none\",\"automatic\":false,\"includedPaths\":[],\"excludedPaths\":[]}",
    };

    @Test
    void entriesEqualTheOldCodesOnRandomItems(@TempDir Path dir) throws Exception {
        List<CompiledIndexingPolicy> policies = new ArrayList<>();
        for (String p : POLICIES) {
            policies.add(CompiledIndexingPolicy.of(p == null ? null : M.readTree(p)));
        }
        long seed = Long.getLong("value.seed", 0x23A1L);
        Random rnd = new Random(seed);
        TypedValueGenerator g = new TypedValueGenerator(rnd);
        BinaryItemWriter writer = new BinaryItemWriter(64, 256);
        try (RocksEngine engine = RocksEngine.open(dir, Durability.ASYNC, 8 << 20)) {
            PathDictionary paths = new PathDictionary(new EmbeddedMetadataStore(engine), 7);
            for (int i = 0; i < 10_000; i++) {
                ObjectNode doc = document(g, rnd);
                CompiledIndexingPolicy policy = policies.get(rnd.nextInt(policies.size()));
                long ts = rnd.nextInt(2_000_000_000);
                byte[] docKey = docKey(rnd);
                int address = 4;
                try {
                    // the one-pass writer, over a frame (the store's caller trees) or a plain body
                    ItemTermRecorder recorder = new ItemTermRecorder(policy);
                    boolean frame = rnd.nextBoolean();
                    byte[] body = frame ? writer.writeItem(StoredItems.FRAME_HEADER, doc, recorder, 1 + rnd.nextInt(40))
                            : writer.write(doc, recorder);
                    if (policy.enabled()) {
                        List<ByteBuffer> now = OnePassTerms.entries(paths, docKey, address, body, recorder, ts, doc);
                        assertSame(oldOnePass(paths, docKey, address, body, recorder, ts, doc), now, "one pass");
                    }
                    // the walk over the stored bytes
                    byte[] stored = StoredItems.finish(writer.write(doc), 1, new byte[]{1, 2}, new byte[]{3}, "e", ts);
                    List<ByteBuffer> now = BinaryIndexEntries.of(paths, docKey, address, stored, StoredItems.HEADER,
                            ts, policy);
                    assertSame(oldFromBytes(paths, docKey, address, stored, StoredItems.HEADER, ts, policy), now,
                            "from bytes");
                } catch (AssertionError | RuntimeException e) {
                    String shown = doc.toString();
                    fail("seed " + seed + ", document " + i + ", policy " + POLICIES[policies.indexOf(policy)] + ": "
                            + (shown.length() > 1500 ? shown.substring(0, 1500) + "…" : shown) + ": " + e, e);
                }
            }
        }
    }

    @Test
    void indexWritesHandOverTheSameWritesAsBefore() {
        Random rnd = new Random(Long.getLong("value.seed", 0x23A2L));
        for (int round = 0; round < 2_000; round++) {
            IndexWrites writes = new IndexWrites();
            List<byte[]> deletes = new ArrayList<>();
            List<byte[]> puts = new ArrayList<>();
            for (int item = rnd.nextInt(120); item > 0; item--) {
                List<byte[]> was = keys(rnd, rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(25));
                List<byte[]> is = keys(rnd, rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(25));
                if (!was.isEmpty() && !is.isEmpty() && rnd.nextBoolean()) { // a replace sharing some entries
                    for (int k = 0; k < is.size(); k += 2) {
                        is.set(k, was.get(rnd.nextInt(was.size())).clone());
                    }
                }
                writes.diff(asList(was, rnd), asList(is, rnd));
                // the old code's diff: sets of entries, what only one side has
                List<ByteBuffer> w = wrapped(was);
                List<ByteBuffer> s = wrapped(is);
                if (was.isEmpty()) {
                    puts.addAll(is);
                } else if (is.isEmpty()) {
                    deletes.addAll(was);
                } else {
                    new java.util.HashSet<>(w).stream().filter(b -> !s.contains(b)).forEach(b -> deletes.add(b.array()));
                    new java.util.HashSet<>(s).stream().filter(b -> !w.contains(b)).forEach(b -> puts.add(b.array()));
                }
            }
            WriteSet ws = new WriteSet();
            writes.addTo(ws);
            deletes.sort(Arrays::compareUnsigned);
            puts.sort(Arrays::compareUnsigned);
            List<String> expected = new ArrayList<>();
            deletes.forEach(k -> expected.add("D " + HexFormat.of().formatHex(k)));
            puts.forEach(k -> expected.add("P " + HexFormat.of().formatHex(k)));
            List<String> got = new ArrayList<>();
            for (WriteSet.Write x : ws.writes()) {
                assertEquals(Space.INDEX, x.space());
                got.add((x.value() == null ? "D " : "P ") + HexFormat.of().formatHex(x.key()));
            }
            assertEquals(expected, got, "round " + round);
        }
    }

    /** Equal lists of equal keys in the same order, and the new list's key bytes are its keys' lengths. */
    private static void assertSame(List<ByteBuffer> old, List<ByteBuffer> now, String what) {
        assertEquals(hex(old), hex(now), what);
        assertEquals(old, now, what + ": equals");
        assertEquals(old.hashCode(), now.hashCode(), what + ": hashCode");
        assertEquals(ContainerStore.bytes(old), ContainerStore.bytes(now), what + ": bytes");
        if (now instanceof IndexEntryKeys keys) {
            for (int i = 0; i < keys.size(); i++) {
                assertArrayEquals(old.get(i).array(), keys.key(i), what + ": key " + i);
            }
        }
    }

    // ---- the code before session 23, as it was ---------------------------------------------------------------

    private static List<ByteBuffer> oldOnePass(PathDictionary paths, byte[] docKey, int address, byte[] body,
                                               ItemTermRecorder recorded, long versionTs, ObjectNode item) {
        return oldEntries(paths, docKey, address, body, recorded, versionTs, item);
    }

    private static List<ByteBuffer> oldFromBytes(PathDictionary paths, byte[] docKey, int address, byte[] b, int off,
                                                 long versionTs, CompiledIndexingPolicy policy) {
        if (!policy.enabled()) {
            return List.of();
        }
        return oldEntries(paths, docKey, address, b, BinaryIndexTerms.terms(b, off, policy), versionTs,
                (ObjectNode) BinaryItemReader.read(b, off));
    }

    /** {@code _ts}, the recorded terms keyed from {@code b}, the composites from the tree: a wrap each, in a list. */
    private static List<ByteBuffer> oldEntries(PathDictionary paths, byte[] docKey, int address, byte[] b,
                                               ItemTermRecorder terms, long versionTs, ObjectNode item) {
        CompiledIndexingPolicy policy = terms.policy();
        List<ByteBuffer> out = new ArrayList<>();
        if (policy.indexes(List.of("_ts"))) {
            out.add(ByteBuffer.wrap(IndexKeyEncoding.encodeLongEntry(paths.entryPrefix("/_ts"), versionTs,
                    docKey, address)));
        }
        for (int i = 0; i < terms.count(); i++) {
            out.add(ByteBuffer.wrap(BinaryIndexTerms.encodeEntry(paths.entryPrefix(terms.path(i)), b,
                    terms.offset(i), docKey, address)));
        }
        for (CompositeTerms.CompositeTerm t : CompositeTerms.ofVersion(item, policy, versionTs)) {
            out.add(ByteBuffer.wrap(OnePassTerms.compositeKey(paths.entryPrefix(t.index().name()), t.encoded(),
                    docKey, address)));
        }
        return out;
    }

    // ---- samples ---------------------------------------------------------------------------------------------

    private static ObjectNode document(TypedValueGenerator g, Random rnd) {
        ObjectNode doc = g.document();
        for (String field : new String[]{"deviceId", "ts", "a", "c", "_rid", "_ts"}) {
            int k = rnd.nextInt(5);
            if (k == 1) {
                doc.set(field, g.value(1));
            } else if (k == 2) {
                doc.put(field, "x".repeat(240 + rnd.nextInt(30)) + g.string());
            } else if (k == 3) {
                doc.putObject(field).set("d", g.value(2));
            } else if (k == 4 && !field.startsWith("_")) {
                doc.put(field, rnd.nextLong());
            }
        }
        if (rnd.nextInt(4) == 0) {
            doc.putArray("tags").add(g.string()).add(g.value(1)).add(BooleanNode.TRUE);
        }
        return doc;
    }

    /** {@code collId(4) · EPK(16) · pk · id}, random. */
    private static byte[] docKey(Random rnd) {
        byte[] k = new byte[4 + 16 + 2 + rnd.nextInt(30)];
        rnd.nextBytes(k);
        return k;
    }

    /** Random index-shaped keys: a few heads, values sharing prefixes, suffixes. */
    private static List<byte[]> keys(Random rnd, int n) {
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byte[] k = new byte[8 + rnd.nextInt(30)];
            rnd.nextBytes(k);
            k[3] = 7;
            k[7] = (byte) rnd.nextInt(4);
            if (rnd.nextBoolean()) {
                Arrays.fill(k, 8, Math.min(k.length, 8 + rnd.nextInt(12)), (byte) 0x41);
            }
            out.add(k);
        }
        return out;
    }

    /** The keys as the store hands them over: an {@link IndexEntryKeys} or, as before, wraps in a list. */
    private static List<ByteBuffer> asList(List<byte[]> keys, Random rnd) {
        if (rnd.nextBoolean()) {
            return wrapped(keys);
        }
        IndexEntryKeys out = new IndexEntryKeys(rnd.nextInt(3)); // grows past its first room too
        keys.forEach(out::addKey);
        return out;
    }

    private static List<ByteBuffer> wrapped(List<byte[]> keys) {
        List<ByteBuffer> out = new ArrayList<>();
        keys.forEach(k -> out.add(ByteBuffer.wrap(k)));
        return out;
    }

    private static List<String> hex(List<ByteBuffer> entries) {
        List<String> out = new ArrayList<>();
        for (ByteBuffer e : entries) {
            byte[] k = new byte[e.remaining()];
            e.duplicate().get(k);
            out.add(HexFormat.of().formatHex(k));
        }
        return out;
    }
}
