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
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Index terms computed from a TB1 item's bytes ({@link BinaryIndexTerms}) equal, byte for byte and in order, the
 * terms the tree path computes ({@link IndexTerms#ofVersion} then {@link IndexKeyEncoding}): random typed documents
 * (every type of the model, nested arrays and objects), long strings whose 256-character cut falls on every kind of
 * unit (ASCII, NUL, 2- and 3-byte, a lone high surrogate, a surrogate pair's halves), and several policies; and
 * {@link BinaryIndexTerms#reusedTerms}, whose one recorder per thread is emptied for each item, records the same.
 */
class BinaryIndexTermsPropertyTest {
    private static final String[] POLICIES = {
            null,
            "{\"indexingMode\":\"consistent\",\"includedPaths\":[{\"path\":\"/*\"}],"
                    + "\"excludedPaths\":[{\"path\":\"/f1/*\"},{\"path\":\"/f2/?\"},{\"path\":\"/long/[]/?\"}]}",
            "{\"indexingMode\":\"consistent\",\"includedPaths\":[{\"path\":\"/f3/?\"},{\"path\":\"/f4/*\"},"
                    + "{\"path\":\"/long/?\"},{\"path\":\"/arr/[]/f5/?\"}],\"excludedPaths\":[{\"path\":\"/*\"}]}",
            "{\"indexingMode\":\"none\",\"automatic\":false,\"includedPaths\":[],\"excludedPaths\":[]}",
    };

    @Test
    void termsFromBytesEqualTermsFromTheTree() throws Exception {
        long seed = Long.getLong("value.seed", 0x17B1L);
        Random rnd = new Random(seed);
        TypedValueGenerator g = new TypedValueGenerator(rnd);
        List<CompiledIndexingPolicy> policies = IndexTermSamples.policies(POLICIES);
        BinaryItemWriter writer = new BinaryItemWriter(64, 256);
        for (int i = 0; i < 20_000; i++) {
            ObjectNode doc = IndexTermSamples.document(g, rnd);
            byte[] b = writer.write(doc);
            long ts = rnd.nextInt(2_000_000_000);
            CompiledIndexingPolicy policy = policies.get(rnd.nextInt(policies.size()));
            try {
                assertEquals(fromTree(doc, policy, ts), fromBytes(b, policy, ts));
                // the stored version's tree (decoded) gives the same terms too: what checkIndexes recomputes
                assertEquals(fromTree(BinaryItemReader.readObject(b, 0), policy, ts), fromBytes(b, policy, ts));
                // graph-warm: the one recorder a thread empties for each item (more terms, then fewer, other policies)
                assertEquals(fromTree(doc, policy, ts), recorded(b, BinaryIndexTerms.reusedTerms(b, 0, policy), policy, ts));
            } catch (AssertionError | RuntimeException e) {
                fail(BinaryItemRoundTripTest.printable("seed " + seed + ", document " + i + ": " + doc + ": " + e), e);
            }
        }
    }
}
