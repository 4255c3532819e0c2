package io.tetradb.bench.graph;

import io.tetradb.bench.ChildProcesses;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * JanusGraph 1.1.0 on BerkeleyJE in its own JVM ({@code bench/peers/janusgraph}, TinkerPop 3.7.3, which must not
 * share a JVM with TetraDB's 3.8.1), driven line by line over stdin/stdout (see {@code JanusPeer} there): the same
 * air-routes file, the same traversals as gremlin-lang text, results canonicalised as {@link CanonicalResult} does.
 */
final class JanusGraphPeer implements Closeable {
    /** JVM flags of the child: Gryo reflects into these JDK packages on Java 17. */
    private static final List<String> OPENS = List.of("java.io", "java.nio", "sun.nio.cs", "java.lang",
            "java.lang.invoke", "java.lang.reflect", "java.util", "java.util.concurrent",
            "java.util.concurrent.atomic", "java.net");

    private final Process process;
    private final Thread killer;
    private final BufferedReader in;
    private final Writer out;

    /** The peer's build directory ({@code bench.janusPeer}), or null when it is not built. */
    static Path built() {
        String dir = System.getProperty("bench.janusPeer");
        if (dir == null) {
            return null;
        }
        Path p = Path.of(dir);
        return Files.isRegularFile(p.resolve("janusgraph-peer-1.jar")) && Files.isDirectory(p.resolve("lib")) ? p : null;
    }

    JanusGraphPeer(Path build, Path log) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx3g");
        for (String pkg : OPENS) {
            cmd.add("--add-opens=java.base/" + pkg + "=ALL-UNNAMED");
        }
        cmd.add("-cp");
        cmd.add(build.resolve("janusgraph-peer-1.jar") + java.io.File.pathSeparator + build.resolve("lib") + "/*");
        cmd.add("io.tetradb.bench.janus.JanusPeer");
        process = new ProcessBuilder(cmd).redirectError(log.toFile()).start();
        killer = ChildProcesses.killOnExit(process, "janusgraph-peer-killer");
        in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        out = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    }

    private String call(String command, String expect) throws IOException {
        out.write(command + "\n");
        out.flush();
        String line = in.readLine();
        if (line == null || !line.startsWith(expect + " ")) {
            throw new IOException("JanusGraph peer answered " + line + " to " + command.split(" ")[0]);
        }
        return line.substring(expect.length() + 1);
    }

    /** Copies the resource to a file the peer reads. */
    static Path extract(String resource, Path dir) throws IOException {
        Path file = dir.resolve("air-routes.kryo");
        try (InputStream r = JanusGraphPeer.class.getResourceAsStream(resource)) {
            Files.copy(r, file, StandardCopyOption.REPLACE_EXISTING);
        }
        return file;
    }

    /**
     * Loads the Gryo file into a fresh graph at {@code dataDir}, a commit per {@code batch}; returns {elements, nanos,
     * the peer process's CPU nanos}.
     */
    long[] load(Path dataDir, Path gryo, int batch) throws IOException {
        String[] r = call("LOAD " + dataDir + " " + gryo + " " + batch, "LOADED").split(" ");
        return new long[]{Long.parseLong(r[0]), Long.parseLong(r[1]), Long.parseLong(r[2])};
    }

    void ids(List<String> codes) throws IOException {
        call("IDS " + String.join(" ", codes), "IDS");
    }

    /** A traversal's median time, thread-CPU median, and canonical results. */
    record Result(double p50Micros, double cpuP50Micros, List<String> canonical) {
    }

    /** Runs a traversal for {@code nanos} (at least once), untimed: the warm-up pass before the first timed one. */
    void warm(AirRoutesTraversals.Case t, long nanos) throws IOException {
        call("WARM " + t.name() + " " + nanos + " " + t.gremlin(), "WARMED");
    }

    Result run(AirRoutesTraversals.Case t, GraphBenchmark.Config c) throws IOException {
        String r = call("RUN " + t.name() + " " + t.ordered() + " " + c.warmNanos() + " " + c.measureNanos() + " "
                + c.minRuns() + " " + c.maxRuns() + " " + t.gremlin(), "RESULT");
        String[] w = r.split(" ", 5);
        List<String> canonical = w.length < 5 || w[4].isEmpty() ? List.of() : Arrays.asList(w[4].split("\u0001", -1));
        return new Result(Double.parseDouble(w[1]), Double.parseDouble(w[2]), canonical);
    }

    @Override
    public void close() {
        try {
            out.write("QUIT\n");
            out.flush();
        } catch (IOException gone) {
            // stopped below either way
        }
        ChildProcesses.stop(process, killer);
    }
}
