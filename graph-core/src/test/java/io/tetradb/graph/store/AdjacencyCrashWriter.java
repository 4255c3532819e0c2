package io.tetradb.graph.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.structure.ElementItems;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The child process of {@link AdjacencyCrashTest}: adds edges forever (one by one through {@code addEdge}, and ten at
 * a time as one transactional batch), removes every seventh, and prints {@code ACK edgePk edgeId fromPk fromId toPk
 * toId} (or {@code DROPPING edgePk edgeId} before a removal and {@code ACK DROPPED edgePk edgeId} after it) once each write is acknowledged (durable: SYNC), until it is killed.
 */
public final class AdjacencyCrashWriter {
    public static void main(String[] args) {
        int round = Integer.parseInt(args[1]);
        BaseConfiguration conf = new BaseConfiguration();
        conf.setProperty(TetraGraph.DIRECTORY, args[0]);
        conf.setProperty(TetraGraph.DURABILITY, "SYNC");
        Random random = new Random(round);
        try (TetraGraph graph = TetraGraph.open(conf)) {
            List<Vertex> vs = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                vs.add(graph.addVertex(T.label, "v", T.id, "r" + round + "v" + i, "pk", "p" + (i % 5)));
            }
            List<Edge> added = new ArrayList<>();
            for (int n = 0; ; n++) {
                if (n % 10 == 9) {
                    // a batch of edges of one source partition: one atomic core write
                    Vertex from = vs.get(random.nextInt(vs.size()));
                    Object pk = ((List<?>) from.id()).get(0);
                    List<ObjectNode> items = new ArrayList<>();
                    List<String> lines = new ArrayList<>();
                    for (int i = 0; i < 10; i++) {
                        Vertex to = vs.get(random.nextInt(vs.size()));
                        String id = "r" + round + "b" + n + "-" + i;
                        items.add(ElementItems.edge(graph, id, "batch", pk, ((List<?>) from.id()).get(1).toString(),
                                "v", ((List<?>) to.id()).get(0), ((List<?>) to.id()).get(1).toString(), "v"));
                        lines.add("ACK " + pk + " " + id + " " + ids(from) + " " + ids(to));
                    }
                    graph.store().createAll(pk, items);
                    lines.forEach(System.out::println);
                } else if (n % 7 == 6 && !added.isEmpty()) {
                    Edge e = added.remove(random.nextInt(added.size()));
                    System.out.println("DROPPING " + ids(e)); // from here on its presence is uncertain
                    System.out.flush();
                    e.remove();
                    System.out.println("ACK DROPPED " + ids(e));
                } else {
                    Vertex from = vs.get(random.nextInt(vs.size()));
                    Vertex to = vs.get(random.nextInt(vs.size()));
                    Edge e = from.addEdge("link", to, "w", n);
                    added.add(e);
                    System.out.println("ACK " + ids(e) + " " + ids(from) + " " + ids(to));
                }
                System.out.flush();
            }
        } catch (RuntimeException e) {
            System.out.println("FAILED " + e);
            e.printStackTrace(System.out);
        }
    }

    private static String ids(org.apache.tinkerpop.gremlin.structure.Element e) {
        List<?> id = (List<?>) e.id();
        return id.get(0) + " " + id.get(1);
    }
}
