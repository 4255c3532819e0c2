package io.tetradb.graph.store;

import io.tetradb.core.store.GraphAdjacency;
import io.tetradb.graph.TetraGraph;
import io.tetradb.testing.KilledChild;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A child JVM adds edges (one by one and as bulk batches) and removes some, printing each acknowledged edge; the test
 * SIGKILLs it at a random moment, reopens the graph, and checks that the adjacency entries are exactly the ones the
 * edge items call for and that every acknowledged edge is found through them in both directions.
 */
class AdjacencyCrashTest {
    static final int ROUNDS = 4;

    @Test
    void killedEdgeWriterLeavesConsistentAdjacency(@TempDir Path dir) throws Exception {
        long seed = KilledChild.seed();
        Random random = new Random(seed);
        List<String[]> acknowledged = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            int killAfter = 20 + random.nextInt(300);
            KilledChild child = KilledChild.start(AdjacencyCrashWriter.class, List.of(), dir.toString(),
                    Integer.toString(round));
            int[] acks = {0};
            // SIGKILL in the middle of later writes
            child.readUntilKilled(Duration.ofSeconds(120), KilledChild.FAILED, "seed " + seed,
                    line -> (acks[0] += record(line, acknowledged)) >= killAfter);
            // what the child printed before it died: removals it began (and writes it finished) meanwhile
            for (String line : child.linesAfterKill()) {
                record(line, acknowledged);
            }
            assertEquals(killAfter, acks[0], "the writer stopped early (seed " + seed + ")");
            verify(dir, acknowledged, seed);
        }
    }

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
