package io.tetradb.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Headless Chromium for the tests that check web pages, driven over the DevTools protocol ({@link DevToolsPage}).
 * Where it comes from, in order: {@code TETRADB_CHROMIUM} (a Chromium or Chrome binary); {@code chromium} on the
 * PATH; else Debian's {@code chromium} package and those of its library dependencies this machine lacks, fetched
 * with {@code apt-get download} into {@code target/chromium/} (no root needed) and unpacked with {@code dpkg -x},
 * run with {@code LD_LIBRARY_PATH} pointing into it. When none works the test fails and says what to install.
 */
public final class HeadlessChromium implements AutoCloseable {
    private static final Path FETCHED = Path.of("target", "chromium").toAbsolutePath();
    private static final Path FETCHED_BINARY = FETCHED.resolve("root/usr/lib/chromium/chromium");
    private static final String HOW_TO_GET_IT = "the data explorer test needs headless Chromium: install Debian's "
            + "chromium package (apt-get install chromium) or put a chromium binary on the PATH, or set "
            + "TETRADB_CHROMIUM to a Chromium/Chrome binary (README: What a machine needs)";
    private static final long START_TIMEOUT_MILLIS = TestTime.patience(java.time.Duration.ofSeconds(60)).toMillis();

    private static Launcher launcher;

    private final Process process;
    private final int port;

    private HeadlessChromium(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** A binary and the environment it runs with. */
    private record Launcher(String binary, Map<String, String> env) {
    }

    /** Starts a headless browser with its own profile in {@code profile}, DevTools on a free port. */
    public static HeadlessChromium start(Path profile) throws Exception {
        Launcher l = launcher();
        List<String> command = new ArrayList<>(List.of(l.binary(),
                "--headless", "--window-size=1280,1400", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                // the test runs as root on CI; Chromium refuses to start its sandbox as root
                "--no-sandbox",
                "--remote-debugging-port=0", "--remote-allow-origins=*",
                "--user-data-dir=" + profile.toAbsolutePath(), "about:blank"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(profile.resolveSibling(profile.getFileName() + ".log").toFile());
        builder.environment().putAll(l.env());
        Process p = builder.start();
        // Chromium writes the port it picked into the profile once DevTools listens
        Path portFile = profile.resolve("DevToolsActivePort");
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MILLIS;
        while (!Files.exists(portFile) || Files.readAllLines(portFile).isEmpty()) {
            if (!p.isAlive() || System.currentTimeMillis() > deadline) {
                stop(p);
                fail("headless Chromium did not start (" + String.join(" ", command) + "): "
                        + Files.readString(profile.resolveSibling(profile.getFileName() + ".log")));
            }
            Thread.sleep(50);
        }
        return new HeadlessChromium(p, Integer.parseInt(Files.readAllLines(portFile).get(0).trim()));
    }

    /** The browser's first tab, over its DevTools WebSocket. */
    public DevToolsPage page() throws Exception {
        HttpResponse<String> list = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/json/list")).timeout(TestTime.patience(Duration.ofSeconds(30))).build(),
                HttpResponse.BodyHandlers.ofString());
        for (JsonNode target : new ObjectMapper().readTree(list.body())) {
            if (target.path("type").asText().equals("page")) {
                return DevToolsPage.connect(URI.create(target.path("webSocketDebuggerUrl").asText()));
            }
        }
        throw new AssertionError("Chromium has no page target: " + list.body());
    }

    @Override
    public void close() {
        stop(process);
    }

    private static void stop(Process p) {
        List<ProcessHandle> children = p.descendants().toList();
        p.destroy();
        children.forEach(ProcessHandle::destroy);
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                children.forEach(ProcessHandle::destroyForcibly);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---- finding or fetching the browser ---------------------------------------------------------------------------

    private static synchronized Launcher launcher() throws Exception {
        if (launcher == null) {
            launcher = findOrFetch();
        }
        return launcher;
    }

    private static Launcher findOrFetch() throws Exception {
        String configured = System.getenv("TETRADB_CHROMIUM");
        if (configured != null && !configured.isBlank()) {
            Launcher l = new Launcher(configured, Map.of());
            if (!runs(l)) {
                fail("TETRADB_CHROMIUM=" + configured + " does not run (--version failed); " + HOW_TO_GET_IT);
            }
            return l;
        }
        for (String name : List.of("chromium", "chromium-browser")) {
            Path onPath = onPath(name);
            if (onPath != null && runs(new Launcher(onPath.toString(), Map.of()))) {
                return new Launcher(onPath.toString(), Map.of());
            }
        }
        Launcher fetched = fetched();
        if (Files.isExecutable(FETCHED_BINARY) && Files.exists(FETCHED.resolve("complete")) && runs(fetched)) {
            return fetched;
        }
        String why = fetchDebianPackages();
        if (why == null && runs(fetched)) {
            return fetched;
        }
        fail(HOW_TO_GET_IT + ". Fetching Debian's package into " + FETCHED + " did not work: "
                + (why != null ? why : "the unpacked chromium does not run: " + versionOutput(fetched)));
        return null;
    }

    private static Launcher fetched() {
        List<String> dirs = new ArrayList<>();
        Path lib = FETCHED.resolve("root/usr/lib");
        for (String sub : List.of("chromium", "x86_64-linux-gnu", "aarch64-linux-gnu", "x86_64-linux-gnu/pulseaudio",
                "aarch64-linux-gnu/pulseaudio")) {
            dirs.add(lib.resolve(sub).toString());
        }
        String existing = System.getenv("LD_LIBRARY_PATH");
        if (existing != null && !existing.isBlank()) {
            dirs.add(existing);
        }
        return new Launcher(FETCHED_BINARY.toString(), Map.of("LD_LIBRARY_PATH", String.join(":", dirs)));
    }

    /**
     * {@code apt-get download} of {@code chromium} and, following its Depends, every package that is neither
     * installed nor satisfied by an installed alternative; then {@code dpkg -x} of each. Null when done, else why not.
     */
    private static String fetchDebianPackages() throws Exception {
        if (onPath("apt-get") == null || onPath("dpkg") == null || onPath("apt-cache") == null) {
            return "apt-get, apt-cache and dpkg are not all on the PATH (not a Debian-family machine)";
        }
        Set<String> installed = installedPackages();
        Set<String> wanted = new LinkedHashSet<>();
        List<String> queue = new ArrayList<>(List.of("chromium"));
        Map<String, Boolean> known = new HashMap<>();
        while (!queue.isEmpty()) {
            String pkg = queue.remove(0);
            if (!wanted.add(pkg)) {
                continue;
            }
            String fields = command(null, Map.of(), "apt-cache", "show", "--no-all-versions", pkg);
            if (fields == null) {
                return "apt-cache does not know the package " + pkg + " (apt-get update may be needed)";
            }
            for (String clause : dependencies(fields)) {
                List<String> alternatives = new ArrayList<>();
                for (String alt : clause.split("\\|")) {
                    alternatives.add(alt.replaceAll("\\(.*?\\)", "").replace(":any", "").trim());
                }
                if (alternatives.stream().anyMatch(installed::contains)) {
                    continue;
                }
                for (String alt : alternatives) { // the first that is a real package, as apt would pick
                    boolean real = known.computeIfAbsent(alt, a -> {
                        try {
                            return command(null, Map.of(), "apt-cache", "show", "--no-all-versions", a) != null;
                        } catch (Exception e) {
                            return false;
                        }
                    });
                    if (real) {
                        queue.add(alt);
                        break;
                    }
                }
            }
        }
        Path debs = FETCHED.resolve("debs");
        Files.createDirectories(debs);
        List<String> download = new ArrayList<>(List.of("apt-get", "download", "-q"));
        download.addAll(wanted);
        if (command(debs, Map.of(), download.toArray(String[]::new)) == null) {
            return "apt-get download " + wanted + " failed";
        }
        Path root = FETCHED.resolve("root");
        Files.createDirectories(root);
        try (Stream<Path> files = Files.list(debs)) {
            for (Path deb : files.filter(f -> f.toString().endsWith(".deb")).toList()) {
                if (command(null, Map.of(), "dpkg", "-x", deb.toString(), root.toString()) == null) {
                    return "dpkg -x " + deb + " failed";
                }
                Files.delete(deb); // unpacked: the archive is only disk space now
            }
        }
        Files.writeString(FETCHED.resolve("complete"), String.join("\n", wanted) + "\n");
        return null;
    }

    /** The Depends and Pre-Depends clauses of one {@code apt-cache show} record. */
    private static List<String> dependencies(String fields) {
        List<String> out = new ArrayList<>();
        for (String line : fields.split("\n")) {
            if (line.startsWith("Depends:") || line.startsWith("Pre-Depends:")) {
                for (String clause : line.substring(line.indexOf(':') + 1).split(",")) {
                    if (!clause.isBlank()) {
                        out.add(clause.trim());
                    }
                }
            }
            if (line.isEmpty()) {
                break; // one record (--no-all-versions prints the candidate only)
            }
        }
        return out;
    }

    private static Set<String> installedPackages() throws Exception {
        String out = command(null, Map.of(), "dpkg-query", "-W", "-f=${Package} ${Status}\n");
        Set<String> installed = new HashSet<>();
        if (out != null) {
            for (String line : out.split("\n")) {
                String[] parts = line.split(" ", 2);
                if (parts.length == 2 && parts[1].endsWith("installed") && !parts[1].contains("not-installed")) {
                    installed.add(parts[0]);
                }
            }
        }
        return installed;
    }

    private static boolean runs(Launcher l) throws Exception {
        String out = versionOutput(l);
        return out != null && out.toLowerCase().contains("chrom");
    }

    private static String versionOutput(Launcher l) throws Exception {
        return command(null, l.env(), l.binary(), "--version");
    }

    private static Path onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir, name);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    /** Runs a command; its output when it exits 0 within 10 minutes, else null. */
    private static String command(Path dir, Map<String, String> env, String... command) throws Exception {
        Path log = Files.createTempFile("chromium-fetch", ".log");
        try {
            ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            if (dir != null) {
                b.directory(dir.toFile());
            }
            b.environment().putAll(env);
            Process p;
            try {
                p = b.start();
            } catch (IOException e) {
                return null;
            }
            if (!p.waitFor(10, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                return null;
            }
            return p.exitValue() == 0 ? new String(Files.readAllBytes(log), StandardCharsets.UTF_8) : null;
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
