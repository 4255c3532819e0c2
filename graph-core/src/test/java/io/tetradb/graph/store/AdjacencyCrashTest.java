package io.tetradb.graph.store;

import io.tetradb.core.store.GraphAdjacency;
import io.tetradb.graph.TetraGraph;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A child JVM adds edges (one by one and as bulk batches) and removes some, printing each acknowledged edge; the test
 * SIGKILLs it at a random moment, reopens the graph, and checks that the adjacency entries are exactly the ones the
 * edge items call for and that every acknowledged edge is found through them in both directions.
 */
class AdjacencyCrashTest {
    static final int ROUNDS = 4;

    @Test
    void killedEdgeWriterLeavesConsistentAdjacency(@TempDir Path dir) throws Exception {
        Random random = new Random();
        long seed = random.nextLong();
        random.setSeed(seed);
        List<String[]> acknowledged = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            int killAfter = 20 + random.nextInt(300);
            Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), AdjacencyCrashWriter.class.getName(), dir.toString(),
                    Integer.toString(round)).redirectErrorStream(true).start();
            int acks = 0;
            // a reader thread takes every line the child prints, up to its death (also those after the kill point)
            BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            Thread reader = new Thread(() -> {
                try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    for (String l; (l = out.readLine()) != null; ) {
                        lines.add(l);
                    }
                } catch (IOException closed) {
                    // the child died
                } finally {
                    lines.add(EOF);
                }
            });
            reader.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            for (String line; acks < killAfter; ) {
                line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (line == null || line.equals(EOF)) {
                    break; // too slow, or the writer died: reported below
                }
                acks += record(line, acknowledged);
                if (line.startsWith("FAILED") || line.contains("Exception")) {
                    fail("writer failed (seed " + seed + "): " + line);
                }
            }
            child.destroyForcibly(); // SIGKILL, in the middle of later writes
            assertTrue(child.waitFor(30, TimeUnit.SECONDS), "child did not die");
            reader.join(30_000);
            // what the child printed before it died: removals it began (and writes it finished) meanwhile
            for (String line; (line = lines.poll()) != null && !line.equals(EOF); ) {
                record(line, acknowledged);
            }
            assertEquals(killAfter, acks, "the writer stopped early (seed " + seed + ")");
            verify(dir, acknowledged, seed);
        }
    }

    private static final String EOF = "\u0000EOF";

    /** Records an ACK or DROPPING line; 1 if it was an acknowledgement. */
    private static int record(String line, List<String[]> acknowledged) {
        if (line.startsWith("DROPPING ")) {
            acknowledged.add(("MAYBE " + line.substring(9)).split(" "));
        } else if (line.startsWith("ACK ")) {
            acknowledged.add(line.substring(4).split(" "));
            return 1;
        }
        return 0;
    }

    private static void verify(Path dir, List<String[]> acknowledged, long seed) {
        BaseConfiguration conf = new BaseConfiguration();
        conf.setProperty(TetraGraph.DIRECTORY, dir.toString());
        try (TetraGraph graph = TetraGraph.open(conf)) {
            GraphAdjacency.Check check = graph.store().adjacency().check();
            assertTrue(check.consistent(), check + " (seed " + seed + ")");
            GraphTraversalSource g = graph.traversal();
            assertEquals(2 * g.E().count().next(), check.stored(), "seed " + seed);
            // edgePk edgeId fromPk fromId toPk toId, DROPPED edgePk edgeId, or MAYBE edgePk edgeId (a removal begun)
            for (String[] ack : acknowledged) {
                if (ack[0].equals("MAYBE") || ack.length != (ack[0].equals("DROPPED") ? 3 : 6)) {
                    continue; // a removal begun, or a line the kill cut short
                }
                if (ack[0].equals("DROPPED")) {
                    assertEquals(0, g.E(List.of(ack[1], ack[2])).count().next(), "seed " + seed);
                    continue;
                }
                List<Object> edge = List.of(ack[0], ack[1]);
                if (acknowledged.stream().anyMatch(a -> a[0].equals("MAYBE") && a[1].equals(ack[0])
                        && a[2].equals(ack[1]))) {
                    continue;
                }
                assertEquals(List.of(List.of(ack[4], ack[5])),
                        g.V(List.of(ack[2], ack[3])).outE().hasId(edge).inV().id().toList(),
                        () -> "seed " + seed + " edge " + edge + " out-edges " + g.V(List.of(ack[2], ack[3])).outE()
                                .id().toList() + " edge item " + g.E(edge).toList());
                assertEquals(List.of(List.of(ack[2], ack[3])),
                        g.V(List.of(ack[4], ack[5])).inE().hasId(edge).outV().id().toList(), "seed " + seed);
            }
        }
    }
}
