package io.tetradb.bench.query;

import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.index.CompiledIndexingPolicy;
import io.tetradb.core.index.IndexTerm;
import io.tetradb.core.index.IndexTerms;
import io.tetradb.core.item.BinaryIndexTerms;
import io.tetradb.core.item.BinaryItemWriter;
import io.tetradb.core.item.ItemTermRecorder;
import io.tetradb.core.value.IndexKeyEncoding;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

/**
 * A diagnostic (issue 17, write-cost): thread CPU per query-benchmark item of the Java work between a caller's tree
 * and its index entry keys, under the default policy, parts measured in the same rounds: {@code write} (TB1 encoding
 * alone), {@code treeTerms} ({@link IndexTerms#ofVersion}), {@code treeKeys} (their keys), {@code recordingWrite}
 * (encoding with {@link ItemTermRecorder}, the one pass), {@code bytesKeys} (keys from the written bytes). Two
 * passes = write + treeTerms + treeKeys; one pass = recordingWrite + bytesKeys.
 * <pre>
 * java -cp "bench/target/bench-0.1.0-SNAPSHOT.jar:bench/target/lib/*" io.tetradb.bench.query.TermPassProbe
 * </pre>
 */
public final class TermPassProbe {
    private TermPassProbe() {
    }

    public static void main(String[] args) {
        CompiledIndexingPolicy policy = CompiledIndexingPolicy.defaults();
        ObjectNode[] items = new ObjectNode[2000];
        for (int i = 0; i < items.length; i++) {
            items[i] = QueryBenchmark.item(i);
        }
        byte[] prefix = new byte[8];
        byte[] docKey = new byte[48];
        BinaryItemWriter w = new BinaryItemWriter(2048, 256);
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        String[] names = {"write", "treeTerms", "treeKeys", "recordingWrite", "bytesKeys"};
        int rounds = 30;
        double[][] f = new double[names.length][rounds];
        long sink = 0;
        for (int round = -10; round < rounds; round++) {
            long[] t = new long[names.length + 1];
            t[0] = cpu.getCurrentThreadCpuTime();
            for (ObjectNode n : items) {
                sink += w.write(n).length;
            }
            t[1] = cpu.getCurrentThreadCpuTime();
            IndexTerm[][] terms = new IndexTerm[items.length][];
            for (int i = 0; i < items.length; i++) {
                terms[i] = IndexTerms.ofVersion(items[i], policy, 1234).toArray(new IndexTerm[0]);
            }
            t[2] = cpu.getCurrentThreadCpuTime();
            for (IndexTerm[] it : terms) {
                for (IndexTerm x : it) {
                    sink += IndexKeyEncoding.encodeEntry(prefix, x.value(), docKey, 4).length;
                }
            }
            t[3] = cpu.getCurrentThreadCpuTime();
            ItemTermRecorder[] recs = new ItemTermRecorder[items.length];
            byte[][] bodies = new byte[items.length][];
            for (int i = 0; i < items.length; i++) {
                recs[i] = new ItemTermRecorder(policy);
                bodies[i] = w.write(items[i], recs[i]);
            }
            t[4] = cpu.getCurrentThreadCpuTime();
            for (int i = 0; i < items.length; i++) {
                sink += IndexKeyEncoding.encodeEntry(prefix, LongNode.valueOf(1234), docKey, 4).length;
                for (int k = 0; k < recs[i].count(); k++) {
                    sink += BinaryIndexTerms.encodeEntry(prefix, bodies[i], recs[i].offset(k), docKey, 4).length;
                }
            }
            t[5] = cpu.getCurrentThreadCpuTime();
            if (round >= 0) {
                for (int k = 0; k < names.length; k++) {
                    f[k][round] = (t[k + 1] - t[k]) / 1e3 / items.length;
                }
            }
        }
        StringBuilder sb = new StringBuilder("PROBE term-pass");
        double[] median = new double[names.length];
        for (int k = 0; k < names.length; k++) {
            Arrays.sort(f[k]);
            median[k] = f[k][rounds / 2];
            sb.append(String.format(Locale.ROOT, " %s_us=%.2f", names[k], median[k]));
        }
        sb.append(String.format(Locale.ROOT, " two_pass_us=%.2f one_pass_us=%.2f (%d)", median[0] + median[1] + median[2],
                median[3] + median[4], sink % 7));
        System.out.println(sb);
    }
}
