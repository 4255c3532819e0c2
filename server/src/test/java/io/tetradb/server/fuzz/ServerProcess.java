package io.tetradb.server.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.server.MemoryBudget;
import io.tetradb.server.TestHttp;
import io.tetradb.server.TetraDbCommand;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code tetradb start --memory BUDGET} as its own process, the way the {@code tetradb} script runs it: a child JVM
 * with {@code -Xmx} half the budget and {@code -XX:MaxDirectMemorySize} 15% of it, every face on a free port of
 * 127.0.0.1, on its own data directory. Its memory is read from outside: {@code VmRSS} of
 * {@code /proc/PID/status}, {@code /health}'s report, and the live heap after a full GC through {@code jcmd}.
 */
public final class ServerProcess implements AutoCloseable {
    private static final long START_SECONDS = 300; // a cold JVM loading every face on a machine at load 40+
    private static final Pattern HEAP_USED = Pattern.compile("total (\\d+)K, used (\\d+)K");

    private final Process process;
    private final MemoryBudget budget;
    private final Map<String, URI> faces = new LinkedHashMap<>();
    private final BlockingQueue<String> stdout = new LinkedBlockingQueue<>();
    private final List<String> stderrTail = new ArrayList<>();

    private ServerProcess(Process process, MemoryBudget budget, boolean readStderr) {
        this.process = process;
        this.budget = budget;
        drain(process.getInputStream(), stdout::add, "stdout");
        if (!readStderr) {
            return; // its pipe fills and stays full: what a stalled log reader does to a server
        }
        drain(process.getErrorStream(), line -> {
            synchronized (stderrTail) {
                stderrTail.add(line);
                if (stderrTail.size() > 50) {
                    stderrTail.remove(0);
                }
            }
        }, "stderr");
    }

    /** Starts the server on {@code dataDir} with this budget ({@code 1g}, {@code 768m}) and waits until it serves. */
    public static ServerProcess start(Path dataDir, String memory) throws IOException, InterruptedException {
        return start(dataDir, memory, true);
    }

    /** As {@link #start(Path, String)}; with {@code readStderr} false nobody reads the server's stderr. */
    public static ServerProcess start(Path dataDir, String memory, boolean readStderr)
            throws IOException, InterruptedException {
        return start(dataDir, memory, readStderr, List.of());
    }

    /** As above, with further {@code tetradb start} options ({@code --config FILE}, {@code --bind ADDR}, ...). */
    public static ServerProcess start(Path dataDir, String memory, boolean readStderr, List<String> options)
            throws IOException, InterruptedException {
        MemoryBudget budget = MemoryBudget.parse(memory);
        long mib = budget.bytes() >> 20;
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + (mib / 2) + "m", "-XX:MaxDirectMemorySize=" + (mib * 15 / 100) + "m",
                // pauses of the whole JVM (GC, safepoints), to tell them from a stalled thread when a fuzz hangs
                "-Xlog:gc,safepoint:file=" + gcLog(dataDir) + ":uptime,time"));
        for (String p : List.of("java.io", "java.nio", "sun.nio.cs", "java.lang", "java.lang.invoke",
                "java.lang.reflect", "java.util", "java.util.concurrent", "java.util.concurrent.atomic", "java.net")) {
            command.add("--add-opens=java.base/" + p + "=ALL-UNNAMED");
        }
        // -Dtetradb.test.serverJvmArgs="-Dx=y ...": the child's system properties (A/B switches of the server)
        for (String arg : System.getProperty("tetradb.test.serverJvmArgs", "").trim().split("\\s+")) {
            if (!arg.isEmpty()) {
                command.add(arg);
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), TetraDbCommand.class.getName(),
                "start", "--data-dir", dataDir.toString(), "--memory", memory, "--cosmos-port", "0",
                "--gremlin-port", "0", "--mongo-port", "0", "--table-port", "0", "--http-port", "0"));
        command.addAll(options);
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().keySet().removeIf(k -> k.startsWith("TETRADB_"));
        ServerProcess server = new ServerProcess(builder.start(), budget, readStderr);
        server.gcLog = gcLog(dataDir);
        try {
            server.awaitStarted();
        } catch (RuntimeException | Error e) {
            server.close();
            throw e;
        }
        return server;
    }

    private static Path gcLog(Path dataDir) {
        return dataDir.toAbsolutePath().resolveSibling(dataDir.getFileName() + "-gc.log");
    }

    private Path gcLog;

    /** The child's GC and safepoint pauses of at least {@code millis}, as the JVM logged them. */
    public List<String> pausesOver(long millis) {
        List<String> out = new ArrayList<>();
        // "Pause Young ... 3.456ms" (gc), "Total: 6912 ns" (safepoint)
        Pattern pause = Pattern.compile("(?:Pause.* |Total: )(\\d+(?:\\.\\d+)?) ?(ms|ns)\\b");
        try {
            for (String line : Files.readAllLines(gcLog)) {
                Matcher m = pause.matcher(line);
                double longest = 0;
                while (m.find()) {
                    double v = Double.parseDouble(m.group(1));
                    longest = Math.max(longest, m.group(2).equals("ns") ? v / 1e6 : v);
                }
                if (longest >= millis) {
                    out.add(line);
                }
            }
        } catch (IOException e) {
            out.add("(no GC log: " + e + ")");
        }
        return out;
    }

    private void awaitStarted() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
        while (true) {
            long left = deadline - System.nanoTime();
            String line = left > 0 ? stdout.poll(left, TimeUnit.NANOSECONDS) : null;
            if (line == null) {
                throw new AssertionError("the server did not start within " + START_SECONDS + " s; alive "
                        + process.isAlive() + ", stderr " + stderrTail());
            }
            if (line.startsWith("TetraDB started")) {
                return;
            }
            String[] parts = line.split(" ", 2);
            if (parts.length == 2 && parts[1].contains("://")) {
                faces.put(parts[0], URI.create(parts[1]));
            }
        }
    }

    public MemoryBudget budget() {
        return budget;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The URL the server printed for this face ({@code cosmos}, {@code mongo}, {@code tables}, {@code gremlin}). */
    public URI face(String name) {
        URI uri = faces.get(name);
        if (uri == null) {
            throw new IllegalArgumentException("no face " + name + " among " + faces.keySet());
        }
        return uri;
    }

    public int port(String face) {
        return face(face).getPort();
    }

    /** The address this face listens on (127.0.0.1, or the address given with {@code --bind}). */
    public java.net.InetSocketAddress address(String face) {
        return new java.net.InetSocketAddress(face(face).getHost(), port(face));
    }

    /** Plain HTTP to the Cosmos port, where {@code /health} is served too. */
    public String cosmosHttpUrl() {
        return "http://" + face("cosmos").getHost() + ":" + port("cosmos");
    }

    /** {@code VmRSS} of the child, in bytes; -1 once it is gone. */
    public long rssBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid()), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** {@code /health}'s memory report ({@code rssBytes}, {@code heapUsedBytes}, ...). */
    public JsonNode healthMemory() {
        if (adminAuthorization == null) {
            return TestHttp.json(TestHttp.get(cosmosHttpUrl(), "/health")).path("memory");
        }
        try {
            return TestHttp.json(java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                            URI.create(cosmosHttpUrl() + "/health")).timeout(TestHttp.TIMEOUT)
                    .header("Authorization", adminAuthorization).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString())).path("memory");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private volatile String adminAuthorization;

    /** The {@code Authorization} header {@link #healthMemory()} sends (a server beyond loopback needs the key). */
    public ServerProcess adminAuthorization(String header) {
        this.adminAuthorization = header;
        return this;
    }

    /** Heap in use right after a full GC ({@code jcmd PID GC.run}, then {@code GC.heap_info}), in bytes. */
    public long liveHeapAfterGcBytes() throws IOException, InterruptedException {
        jcmd("GC.run");
        Matcher m = HEAP_USED.matcher(jcmd("GC.heap_info"));
        if (!m.find()) {
            throw new IllegalStateException("jcmd GC.heap_info gave no heap figure");
        }
        return Long.parseLong(m.group(2)) * 1024;
    }

    /**
     * The live heap by class ({@code jcmd PID GC.class_histogram}, which collects first): class name to
     * {instances, bytes}.
     */
    public java.util.Map<String, long[]> classHistogram() throws IOException, InterruptedException {
        java.util.Map<String, long[]> byClass = new java.util.HashMap<>();
        Matcher m = HISTOGRAM_ROW.matcher(jcmd("GC.class_histogram"));
        while (m.find()) {
            byClass.merge(m.group(3), new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))},
                    (a, b) -> new long[] {a[0] + b[0], a[1] + b[1]});
        }
        return byClass;
    }

    /** {@code   1:   123   4567   java.lang.String (java.base@17)}: instances, bytes, class name. */
    private static final java.util.regex.Pattern HISTOGRAM_ROW = java.util.regex.Pattern.compile(
            "(?m)^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)");

    /** The server's threads and their stacks ({@code jcmd PID Thread.print}). */
    public String threadDump() throws IOException, InterruptedException {
        return jcmd("Thread.print");
    }

    private String jcmd(String what) throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid()), what).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException("jcmd " + what + " failed: " + out);
        }
        return out;
    }

    public List<String> stderrTail() {
        synchronized (stderrTail) {
            return new ArrayList<>(stderrTail);
        }
    }

    /** SIGTERM, then waits for the exit (forcibly after 30 s); returns the exit code. */
    @Override
    public void close() throws InterruptedException {
        process.toHandle().destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    public int exitCode() {
        return process.exitValue();
    }

    private static void drain(InputStream in, java.util.function.Consumer<String> into, String name) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    into.accept(line);
                }
            } catch (IOException e) {
                into.accept("(stream failed: " + e + ")");
            }
        }, "server-process-" + name);
        t.setDaemon(true);
        t.start();
    }
}
