package io.tetradb.core.item;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.index.CompiledIndexingPolicy;
import io.tetradb.core.index.IndexTerm;
import io.tetradb.core.index.IndexTerms;
import io.tetradb.core.value.IndexKeyEncoding;
import io.tetradb.core.value.TypedValueGenerator;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * write-cost: the index terms recorded while a tree is encoded ({@link ItemTermRecorder}, one pass) equal, byte for
 * byte and in order, the tree walk's ({@link IndexTerms#ofVersion} then {@link IndexKeyEncoding}) and the walk over
 * the written bytes ({@link BinaryIndexTerms}); the bytes written are those of the plain writer. Random typed
 * documents, long strings cut on every kind of unit, arrays of objects and arrays, written-back system properties,
 * objects past 64 KiB (whose entries move when their offset table widens), four policies.
 */
class OnePassTermsPropertyTest {
    private static final ObjectMapper M = new ObjectMapper();
    private static final String[] POLICIES = {
            null,
            "{\"indexingMode\":\"consistent\",\"includedPaths\":[{\"path\":\"/*\"}],"
                    + "\"excludedPaths\":[{\"path\":\"/f1/*\"},{\"path\":\"/f2/?\"},{\"path\":\"/long/[]/?\"}]}",
            "{\"indexingMode\":\"consistent\",\"includedPaths\":[{\"path\":\"/f3/?\"},{\"path\":\"/f4/*\"},"
                    + "{\"path\":\"/long/?\"},{\"path\":\"/arr/[]/f5/?\"},{\"path\":\"/wide/*\"}],"
                    + "\"excludedPaths\":[{\"path\":\"/*\"}]}",
            "{\"indexingMode\":\"none\",\"automatic\":false,\"includedPaths\":[],\"excludedPaths\":[]}",
    };
    private static final String[] NEAR_CUT = {"a", "\u0000", "\u00e9", "\u20ac", "\uD800", "\uDC00", "\uD83D\uDE00",
            "\uDBFF\uDFFF", "\uFFFF"};

    @Test
    void recordedTermsEqualTheTreeWalksAndTheBytesWalks() throws Exception {
        long seed = Long.getLong("value.seed", 0x17B2L);
        Random rnd = new Random(seed);
        TypedValueGenerator g = new TypedValueGenerator(rnd);
        List<CompiledIndexingPolicy> policies = new ArrayList<>();
        for (String p : POLICIES) {
            policies.add(CompiledIndexingPolicy.of(p == null ? null : M.readTree(p)));
        }
        BinaryItemWriter plain = new BinaryItemWriter(64, 256);
        BinaryItemWriter recording = new BinaryItemWriter(64, 256);
        for (int i = 0; i < 20_000; i++) {
            ObjectNode doc = g.document();
            if (rnd.nextInt(3) == 0) {
                doc.put("long", longString(rnd));
            }
            if (rnd.nextInt(4) == 0) {
                ArrayNode arr = doc.putArray("arr");
                for (int k = rnd.nextInt(4); k > 0; k--) {
                    ObjectNode e = arr.addObject();
                    e.set("f5", rnd.nextBoolean() ? g.value(2) : JsonNodeFactory.instance.textNode(longString(rnd)));
                    e.set("f6", g.value(2));
                    arr.add(g.value(1));
                }
                arr.addArray().add(longString(rnd)).addArray().add(g.value(3));
            }
            if (rnd.nextInt(5) == 0) {
                doc.set("_ts", g.value(1)); // a written-back system property is never indexed from the item
                doc.put("_rid", "x");
            }
            if (i % 400 == 0) { // entries past 64 KiB: the offset tables widen and the values move
                ObjectNode wide = doc.putObject("wide");
                wide.put("a", "y".repeat(70_000));
                wide.set("b", g.value(2));
                wide.putArray("c").add("z").add(g.value(1));
                doc.set("f3", g.value(1));
            }
            CompiledIndexingPolicy policy = policies.get(rnd.nextInt(policies.size()));
            long ts = rnd.nextInt(2_000_000_000);
            try {
                byte[] expectedBytes = plain.write(doc);
                ItemTermRecorder recorder = new ItemTermRecorder(policy);
                byte[] b = recording.write(doc, recorder);
                assertArrayEquals(expectedBytes, b, "the recording writer writes the same bytes");
                List<String> recorded = recorded(b, recorder, policy, ts);
                assertEquals(fromTree(doc, policy, ts), recorded);
                assertEquals(fromBytes(b, policy, ts), recorded);
            } catch (AssertionError | RuntimeException e) {
                String shown = doc.toString();
                fail(BinaryItemRoundTripTest.printable("seed " + seed + ", document " + i + ": "
                        + (shown.length() > 2000 ? shown.substring(0, 2000) + "…" : shown) + ": " + e), e);
            }
        }
    }

    /** 250–262 units, the ones around the cut drawn from every kind of unit. */
    private static String longString(Random rnd) {
        StringBuilder sb = new StringBuilder();
        int n = 250 + rnd.nextInt(13);
        while (sb.length() < n) {
            sb.append(sb.length() < 240 && rnd.nextInt(8) != 0 ? "x" : NEAR_CUT[rnd.nextInt(NEAR_CUT.length)]);
        }
        return sb.toString();
    }

    private static String ts(CompiledIndexingPolicy policy, long ts) {
        return policy.indexes(List.of("_ts")) ? "/_ts false " + HexFormat.of().formatHex(IndexKeyEncoding.encode(
                com.fasterxml.jackson.databind.node.LongNode.valueOf(ts))) : null;
    }

    private static List<String> recorded(byte[] b, ItemTermRecorder r, CompiledIndexingPolicy policy, long ts) {
        List<String> out = new ArrayList<>();
        String t = ts(policy, ts);
        if (t != null) {
            out.add(t);
        }
        for (int i = 0; i < r.count(); i++) {
            out.add(r.path(i) + " " + r.underArray(i) + " " + HexFormat.of().formatHex(
                    BinaryIndexTerms.encodeEntry(new byte[0], b, r.offset(i), new byte[0], 0)));
        }
        return out;
    }

    private static List<String> fromTree(ObjectNode doc, CompiledIndexingPolicy policy, long ts) {
        List<String> out = new ArrayList<>();
        for (IndexTerm t : IndexTerms.ofVersion(doc, policy, ts)) {
            out.add(t.path() + " " + t.underArray() + " " + HexFormat.of().formatHex(IndexKeyEncoding.encode(t.value())));
        }
        return out;
    }

    private static List<String> fromBytes(byte[] b, CompiledIndexingPolicy policy, long ts) {
        List<String> out = new ArrayList<>();
        String t = ts(policy, ts);
        if (t != null) {
            out.add(t);
        }
        ItemTermRecorder terms = BinaryIndexTerms.terms(b, 0, policy);
        for (int i = 0; i < terms.count(); i++) {
            out.add(terms.path(i) + " " + terms.underArray(i) + " " + HexFormat.of().formatHex(
                    BinaryIndexTerms.encodeEntry(new byte[0], b, terms.offset(i), new byte[0], 0)));
        }
        return out;
    }

}
