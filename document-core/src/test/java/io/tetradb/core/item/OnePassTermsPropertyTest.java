package io.tetradb.core.item;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.index.CompiledIndexingPolicy;
import io.tetradb.core.value.TypedValueGenerator;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static io.tetradb.core.item.IndexTermSamples.fromBytes;
import static io.tetradb.core.item.IndexTermSamples.fromTree;
import static io.tetradb.core.item.IndexTermSamples.recorded;
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
    private static final String[] POLICIES = {
            null,
            "{\"indexingMode\":\"consistent\",\"includedPaths\":[{\"path\":\"/*\"}],"
                    + "\"excludedPaths\":[{\"path\":\"/f1/*\"},{\"path\":\"/f2/?\"},{\"path\":\"/long/[]/?\"}]}",
            "{\"indexingMode\":\"consistent\",\"includedPaths\":[{\"path\":\"/f3/?\"},{\"path\":\"/f4/*\"},"
                    + "{\"path\":\"/long/?\"},{\"path\":\"/arr/[]/f5/?\"},{\"path\":\"/wide/*\"}],"
                    + "\"excludedPaths\":[{\"path\":\"/*\"}]}",
            "{\"indexingMode\":\"none\",\"automatic\":false,\"includedPaths\":[],\"excludedPaths\":[]}",
    };

    @Test
    void recordedTermsEqualTheTreeWalksAndTheBytesWalks() throws Exception {
        long seed = Long.getLong("value.seed", 0x17B2L);
        Random rnd = new Random(seed);
        TypedValueGenerator g = new TypedValueGenerator(rnd);
        List<CompiledIndexingPolicy> policies = IndexTermSamples.policies(POLICIES);
        BinaryItemWriter plain = new BinaryItemWriter(64, 256);
        BinaryItemWriter recording = new BinaryItemWriter(64, 256);
        for (int i = 0; i < 20_000; i++) {
            ObjectNode doc = IndexTermSamples.document(g, rnd);
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
}
