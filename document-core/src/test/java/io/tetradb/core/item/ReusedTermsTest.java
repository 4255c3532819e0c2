package io.tetradb.core.item;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.index.CompiledIndexingPolicy;
import io.tetradb.core.value.TypedValueGenerator;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static io.tetradb.core.item.IndexTermSamples.fromTree;
import static io.tetradb.core.item.IndexTermSamples.recorded;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * graph-warm (issue 18): {@link BinaryIndexTerms#reusedTerms}, the one recorder a thread empties for each item, records
 * exactly what a new recorder does ({@link BinaryIndexTerms#terms}) and what the tree gives, item after item of every
 * size (more terms, then fewer, then none) and under policies that change from item to item (indexing off too).
 */
class ReusedTermsTest {
    private static final String[] POLICIES = {
            null,
            "{\"indexingMode\":\"consistent\",\"includedPaths\":[{\"path\":\"/*\"}],"
                    + "\"excludedPaths\":[{\"path\":\"/f1/*\"},{\"path\":\"/f2/?\"},{\"path\":\"/long/[]/?\"}]}",
            "{\"indexingMode\":\"consistent\",\"includedPaths\":[{\"path\":\"/f3/?\"},{\"path\":\"/f4/*\"},"
                    + "{\"path\":\"/long/?\"},{\"path\":\"/arr/[]/f5/?\"}],\"excludedPaths\":[{\"path\":\"/*\"}]}",
            "{\"indexingMode\":\"none\",\"automatic\":false,\"includedPaths\":[],\"excludedPaths\":[]}",
    };

    @Test
    void aReusedRecorderRecordsWhatANewOneDoes() throws Exception {
        long seed = Long.getLong("value.seed", 0x5EEDL);
        Random rnd = new Random(seed);
        TypedValueGenerator g = new TypedValueGenerator(rnd);
        List<CompiledIndexingPolicy> policies = IndexTermSamples.policies(POLICIES);
        BinaryItemWriter writer = new BinaryItemWriter(64, 256);
        ItemTermRecorder first = null;
        for (int i = 0; i < 5_000; i++) {
            ObjectNode doc = IndexTermSamples.document(g, rnd);
            byte[] b = writer.write(doc);
            long ts = rnd.nextInt(2_000_000_000);
            CompiledIndexingPolicy policy = policies.get(rnd.nextInt(policies.size()));
            try {
                ItemTermRecorder reused = BinaryIndexTerms.reusedTerms(b, 0, policy);
                if (first == null) {
                    first = reused;
                }
                assertSame(first, reused, "one recorder per thread");
                assertSame(policy, reused.policy());
                List<String> got = recorded(b, reused, policy, ts);
                assertEquals(recorded(b, BinaryIndexTerms.terms(b, 0, policy), policy, ts), got);
                assertEquals(fromTree(doc, policy, ts), got);
            } catch (AssertionError | RuntimeException e) {
                fail(BinaryItemRoundTripTest.printable("seed " + seed + ", document " + i + ": " + doc + ": " + e), e);
            }
        }
    }
}
