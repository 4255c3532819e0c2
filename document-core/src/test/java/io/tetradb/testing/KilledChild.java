package io.tetradb.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The crash tests' child process: a writer JVM on this JVM's class path that prints a line per acknowledged write
 * ({@code ACK …}); the test reads its lines until a moment it chose at random, SIGKILLs it there (in the middle of
 * later writes) and then reopens the store and checks it. One reader thread takes the child's output, so a child
 * that hangs without printing fails instead of blocking the test. Only silence counts: a child that goes on printing
 * is never failed for being slow (a loaded machine), one that prints nothing for {@link TestTime#patience} is hung.
 *
 * <pre>
 * KilledChild child = KilledChild.start(Writer.class, List.of("-Dsome.option=1"), dir.toString(), "0");
 * child.readUntilKilled(Duration.ofSeconds(120), KilledChild.FAILED, "seed " + seed, line -> ...true to kill now...);
 * </pre>
 */
public final class KilledChild {
    /** Lines that mean the writer failed: its own {@code FAILED …} report or an exception's stack trace. */
    public static final Predicate<String> FAILED = line -> line.startsWith("FAILED") || line.contains("Exception");

    private static final String EOF = "\u0000EOF";

    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final Thread reader;

    private KilledChild(Process process) {
        this.process = process;
        this.reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String l; (l = out.readLine()) != null; ) {
                    lines.add(l);
                }
            } catch (IOException closed) {
                // the child died
            } finally {
                lines.add(EOF);
            }
        }, "killed-child-output");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * The seed of a crash test's random kill points: {@code -Dtetradb.crash.seed=N} replays a failed run's (the child's
     * timing still varies), else a new one.
     */
    public static long seed() {
        return Long.getLong("tetradb.crash.seed", new Random().nextLong());
    }

    /** Starts {@code main} in a child JVM with this JVM's class path, {@code jvmOptions} and {@code args}. */
    public static KilledChild start(Class<?> main, List<String> jvmOptions, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path")));
        cmd.addAll(jvmOptions);
        cmd.add(main.getName());
        cmd.addAll(List.of(args));
        return new KilledChild(new ProcessBuilder(cmd).redirectErrorStream(true).start());
    }

    /**
     * Hands the child's lines to {@code killNow} until it answers true or the output ends (the child exited: the
     * caller's count of acknowledgements then says it stopped early), then SIGKILLs the child and waits for its
     * death. Fails on a line {@code failed} accepts (after {@code killNow} saw it) and when the child prints nothing
     * for {@code silence} (at least {@link TestTime#patience}: hung, not slow); {@code context} (the seed) goes into
     * the messages.
     */
    public void readUntilKilled(Duration silence, Predicate<String> failed, String context, Predicate<String> killNow)
            throws InterruptedException {
        Duration hung = TestTime.patience(silence);
        while (true) {
            // the bound restarts at every line: a slow child still printing is waited for, a silent one is not
            String line = lines.poll(hung.toNanos(), TimeUnit.NANOSECONDS);
            if (line == null) {
                kill();
                fail("child silent for " + hung.toSeconds() + " s: hung (" + context + ")");
            }
            if (line.equals(EOF)) {
                break;
            }
            boolean stop = killNow.test(line);
            if (failed.test(line)) {
                kill();
                fail("child failed (" + context + "): " + line);
            }
            if (stop) {
                break;
            }
        }
        kill();
    }

    /**
     * What the child printed after the kill point until it died (writes it finished or began meanwhile), in order;
     * call after {@link #readUntilKilled}.
     */
    public List<String> linesAfterKill() throws InterruptedException {
        reader.join(TestTime.patience(Duration.ZERO).toMillis()); // the child is dead: its output ends at once
        List<String> rest = new ArrayList<>();
        for (String line; (line = lines.poll()) != null && !line.equals(EOF); ) {
            rest.add(line);
        }
        return rest;
    }

    private void kill() throws InterruptedException {
        process.destroyForcibly(); // SIGKILL
        assertTrue(process.waitFor(TestTime.patience(Duration.ZERO).toSeconds(), TimeUnit.SECONDS), "child did not die");
    }
}
