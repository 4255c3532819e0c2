package io.tetradb.bench.itemformat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import com.fasterxml.jackson.dataformat.smile.SmileFactory;
import io.tetradb.bench.Benchmark;
import io.tetradb.bench.Report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Item format candidates for the binary item store (issue 17): JSON text (today), CBOR, Smile, BSON, Ion binary and
 * our own TB1, on three item sets, for encode (tree to bytes), decode (bytes to tree), one top-level field (the
 * middle one of each item) and one nested path (the first sub-object's last field), and bytes per item. Single
 * thread; every round runs one operation of one format over the whole item set until ~{@code roundMillis} have
 * of thread CPU time have passed; the formats' rounds alternate so load changes hit them all; each figure is the median
 * of the rounds, in CPU ns per item. Results: {@code BENCH item-format.<set>.<op>.<format> cpu_ns_per_item=… min=…
 * max=…} and {@code RATIO
 * item-format.<set>.<op> json/tb1}.
 */
public final class ItemFormatBenchmark implements Benchmark {
    private static volatile long sink;

    @Override
    public String name() {
        return "item-format";
    }

    @Override
    public String description() {
        return "stored item format candidates (JSON, CBOR, Smile, BSON, Ion, TB1): encode, decode, field access, bytes";
    }

    private interface Op {
        long run(Candidate c, int i) throws Exception;
    }

    @Override
    public void run(boolean quick, Report out) throws Exception {
        int warmRounds = quick ? 4 : 6;
        int rounds = quick ? 5 : 11;
        long roundNanos = (quick ? 60 : 150) * 1_000_000L;
        out.note("item-format: " + (quick ? "quick" : "full") + ", " + rounds + " rounds of ~" + roundNanos / 1_000_000
                + " ms of thread CPU per (set, op, format) after " + warmRounds + " warm-up rounds; single thread; "
                + "thread-CPU ns per item, median of rounds; load average at start: " + loadAverage());
        List<Candidate> candidates = List.of(
                new JacksonCandidate("json", new JsonFactory()),
                new JacksonCandidate("cbor", new CBORFactory()),
                new JacksonCandidate("smile", new SmileFactory()),
                new BsonCandidate(),
                new IonCandidate(),
                new TetraCandidate());
        Map<String, List<ObjectNode>> sets = new LinkedHashMap<>();
        sets.put("core1k", ItemSets.core1k(quick ? 200 : 1000));
        Path examples = Path.of("examples");
        if (Files.isDirectory(examples)) {
            sets.put("examples", ItemSets.examples(examples));
        }
        sets.put("mongo-typed", ItemSets.mongoTyped(quick ? 200 : 1000));

        for (Map.Entry<String, List<ObjectNode>> set : sets.entrySet()) {
            String setName = set.getKey();
            List<ObjectNode> items = set.getValue();
            int n = items.size();
            String[] fields = new String[n];
            List<String[]> paths = new ArrayList<>();
            List<Integer> pathItems = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                fields[i] = ItemSets.middleField(items.get(i));
                String[] p = ItemSets.nestedPath(items.get(i));
                if (p != null) {
                    paths.add(p);
                    pathItems.add(i);
                }
            }
            byte[][][] stored = new byte[candidates.size()][n][];
            for (int c = 0; c < candidates.size(); c++) {
                long total = 0;
                for (int i = 0; i < n; i++) {
                    stored[c][i] = candidates.get(c).encode(items.get(i));
                    total += stored[c][i].length;
                    check(candidates.get(c), stored[c][i], fields[i], items.get(i));
                }
                out.result(String.format(Locale.ROOT, "BENCH item-format.%s.bytes.%s items=%d bytes_per_item=%.0f%s",
                        setName, candidates.get(c).name(), n, (double) total / n,
                        candidates.get(c).typed() ? "" : " (typed values as their JSON view)"));
            }
            Map<String, Op> ops = new LinkedHashMap<>();
            ops.put("encode", (c, i) -> c.encode(items.get(i)).length);
            ops.put("decode", (c, i) -> c.decode(stored[index(candidates, c)][i]).size());
            ops.put("field", (c, i) -> c.field(stored[index(candidates, c)][i], fields[i]).hashCode());
            if (!paths.isEmpty()) {
                ops.put("path", (c, k) -> c.path(stored[index(candidates, c)][pathItems.get(k % pathItems.size())],
                        paths.get(k % paths.size())[0], paths.get(k % paths.size())[1]).hashCode());
            }
            for (Map.Entry<String, Op> op : ops.entrySet()) {
                int count = op.getKey().equals("path") ? paths.size() : n;
                double[][] perRound = new double[candidates.size()][rounds];
                for (int r = -warmRounds; r < rounds; r++) {
                    for (int c = 0; c < candidates.size(); c++) {
                        double ns = round(candidates.get(c), op.getValue(), count, roundNanos);
                        if (r >= 0) {
                            perRound[c][r] = ns;
                        }
                    }
                }
                double json = Double.NaN;
                double tb1 = Double.NaN;
                for (int c = 0; c < candidates.size(); c++) {
                    double[] s = perRound[c].clone();
                    Arrays.sort(s);
                    double median = s[s.length / 2];
                    String name = candidates.get(c).name();
                    out.result(String.format(Locale.ROOT, "BENCH item-format.%s.%s.%s items=%d cpu_ns_per_item=%.0f "
                            + "min=%.0f max=%.0f", setName, op.getKey(), name, count, median, s[0], s[s.length - 1]));
                    if (name.equals("json")) {
                        json = median;
                    } else if (name.equals("tb1")) {
                        tb1 = median;
                    }
                }
                out.ratio("item-format." + setName + "." + op.getKey() + " json/tb1", json / tb1);
            }
        }
        out.note("load average at end: " + loadAverage() + " (the machine is shared with other builds)");
    }

    private static int index(List<Candidate> all, Candidate c) {
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i) == c) {
                return i;
            }
        }
        throw new IllegalArgumentException();
    }

    private static final java.lang.management.ThreadMXBean THREADS =
            java.lang.management.ManagementFactory.getThreadMXBean();

    /**
     * Runs {@code op} over the items until the thread has used {@code roundNanos} of CPU; CPU ns per item. Thread
     * CPU time rather than wall time: on a machine shared with other builds the wall time mostly measures the wait
     * for a core.
     */
    private static double round(Candidate c, Op op, int count, long roundNanos) throws Exception {
        long acc = 0;
        long done = 0;
        long start = THREADS.getCurrentThreadCpuTime();
        long elapsed;
        do {
            for (int i = 0; i < count; i++) {
                acc += op.run(c, i);
            }
            done += count;
            elapsed = THREADS.getCurrentThreadCpuTime() - start;
        } while (elapsed < roundNanos);
        sink += acc;
        return (double) elapsed / done;
    }

    /** The format must give back the field it stored (JSON view compared for the untyped formats). */
    private static void check(Candidate c, byte[] stored, String field, ObjectNode item) throws Exception {
        JsonNode got = c.field(stored, field);
        JsonNode want = io.tetradb.core.value.TypedValues.jsonView(item.get(field));
        JsonNode gotView = io.tetradb.core.value.TypedValues.jsonView(got);
        boolean same = !got.isMissingNode() && (io.tetradb.core.value.ValueOrder.compareValues(gotView, want) == 0
                || gotView.isNumber() && want.isNumber() && gotView.doubleValue() == want.doubleValue());
        if (!same) {
            throw new IllegalStateException(c.name() + ": field " + field + " came back as " + got + ", not " + want);
        }
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (Exception e) {
            return "unknown";
        }
    }
}
