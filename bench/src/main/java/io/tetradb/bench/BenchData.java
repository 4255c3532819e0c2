package io.tetradb.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;

/** Data directories of benchmarks: under {@code bench/target/bench-data} (system property {@code bench.dataDir}). */
public final class BenchData {
    private BenchData() {
    }

    public static Path root() {
        return Paths.get(System.getProperty("bench.dataDir", "bench/target/bench-data")).toAbsolutePath();
    }

    /** What a benchmark does in its data directory. */
    @FunctionalInterface
    public interface InDirectory {
        void run(Path dir) throws Exception;
    }

    /**
     * Runs {@code work} in a fresh directory {@code root()/name}, deletes it after (also on failure), then notes
     * "{@code name}: finished in S s".
     */
    public static void runInFresh(String name, Report out, InDirectory work) throws Exception {
        Path dir = fresh(name);
        long start = System.nanoTime();
        try {
            work.run(dir);
        } finally {
            delete(dir);
        }
        out.note(String.format(Locale.ROOT, "%s: finished in %.1f s", name, (System.nanoTime() - start) / 1e9));
    }

    /** A fresh, empty directory {@code root()/name} (anything left there by an interrupted run is removed). */
    public static Path fresh(String name) {
        Path dir = root().resolve(name);
        delete(dir);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dir;
    }

    /** Deletes {@code dir} and everything in it, if it exists. */
    public static void delete(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}
