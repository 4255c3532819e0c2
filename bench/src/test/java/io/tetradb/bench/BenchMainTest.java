package io.tetradb.bench;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BenchMainTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private static final class Fake implements Benchmark {
        boolean quick;

        @Override
        public String name() {
            return "fake";
        }

        @Override
        public String description() {
            return "a fake benchmark";
        }

        @Override
        public void run(boolean quick, Report report) {
            this.quick = quick;
            Samples s = new Samples();
            s.latency(10_000);
            s.round(1, 10_000);
            report.bench("fake.op.core", 5, "ops_per_s", s);
            report.ratio("op core/raw", 0.5);
        }
    }

    private Map<String, String> env = Map.of("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1");

    private int run(List<Benchmark> benchmarks, String... args) {
        return BenchMain.execute(benchmarks, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), env, args);
    }

    @Test
    void listsEveryRegisteredBenchmarkWithItsDescription() {
        assertEquals(0, run(Benchmarks.ALL, "--list"));
        String listed = out.toString(StandardCharsets.UTF_8);
        for (Benchmark b : Benchmarks.ALL) {
            assertTrue(listed.lines().anyMatch(l -> l.startsWith(b.name() + " ") && l.contains(b.description())),
                    listed);
        }
    }

    @Test
    void unknownNameIsAUsageError() {
        assertEquals(2, run(Benchmarks.ALL, "nope"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("Unknown benchmark 'nope'"), err.toString());
    }

    @Test
    void missingNameIsAUsageError() {
        assertEquals(2, run(Benchmarks.ALL));
    }

    @Test
    void runsTheNamedBenchmarkAndPrintsItsLines() {
        Fake fake = new Fake();
        assertEquals(0, run(List.of(fake), "fake", "--quick"));
        assertTrue(fake.quick);
        assertEquals(List.of("# native memory: GLIBC_TUNABLES=glibc.malloc.hugetlb=1 (malloc's large blocks, "
                + "RocksDB's 8 MiB memtable blocks among them, on transparent huge pages; every side in this JVM alike)",
                "BENCH fake.op.core items=5 ops_per_s=100000 p50_us=10.0 p99_us=10.0",
                "RATIO op core/raw 0.50"), out.toString(StandardCharsets.UTF_8).lines().toList());
    }

    @Test
    void saysWhenMemtablesFaultPerSmallPage() {
        env = Map.of("GLIBC_TUNABLES", "glibc.malloc.arena_max=2");
        assertEquals(0, run(List.of(new Fake()), "fake"));
        assertEquals("# native memory: malloc without transparent huge pages (GLIBC_TUNABLES=glibc.malloc.arena_max=2)"
                + ": RocksDB's memtables fault once per 4 KiB", out.toString(StandardCharsets.UTF_8).lines().findFirst()
                .orElseThrow());
        out.reset();
        env = Map.of();
        assertEquals(0, run(List.of(new Fake()), "fake"));
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("# native memory: malloc without transparent huge "
                + "pages (GLIBC_TUNABLES unset)"), out.toString(StandardCharsets.UTF_8));
    }
}
