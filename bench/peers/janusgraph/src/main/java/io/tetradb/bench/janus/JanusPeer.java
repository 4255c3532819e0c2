package io.tetradb.bench.janus;

import org.apache.tinkerpop.gremlin.jsr223.GremlinLangScriptEngine;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.Property;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.apache.tinkerpop.gremlin.structure.io.gryo.GryoReader;
import org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerGraph;
import org.janusgraph.core.JanusGraph;
import org.janusgraph.core.JanusGraphFactory;

import javax.script.Bindings;
import javax.script.SimpleBindings;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JanusGraph 1.1.0 (BerkeleyJE, persistent, fsync per commit) side of TetraDB's {@code graph} benchmark, run in
 * its own JVM because JanusGraph is built on TinkerPop 3.7.3. Commands on stdin, one per line; answers on stdout:
 * <pre>
 * LOAD dataDir gryoFile batch  → LOADED elements nanos cpuNanos (copy air-routes in, a commit every batch elements)
 * IDS code...                  → IDS code=id...             (the vertex id of each airport code)
 * RUN name ordered warmNanos measureNanos minRuns maxRuns gremlin
 *                              → RESULT name p50Micros cpuP50Micros runs canonical...  (canonical results, \u0001-separated)
 * WARM name warmNanos gremlin  → WARMED name                (runs the traversal for warmNanos, at least once; nothing timed)
 * QUIT
 * </pre>
 * The traversal is gremlin-lang text (TinkerPop's grammar, no lambdas); {@code %CODE} names an airport's id.
 * Results are canonicalised as the benchmark does for TinkerGraph and TetraGraph, so the parent compares them.
 */
public final class JanusPeer {
    private static final java.lang.management.ThreadMXBean CPU =
            java.lang.management.ManagementFactory.getThreadMXBean();

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true,
                StandardCharsets.UTF_8);
        System.setOut(new PrintStream(java.io.OutputStream.nullOutputStream())); // libraries' chatter stays out
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        JanusGraph graph = null;
        Map<String, Object> ids = new HashMap<>();
        GremlinLangScriptEngine engine = new GremlinLangScriptEngine();
        try {
            String line;
            while ((line = in.readLine()) != null) {
                String[] w = line.split(" ", 8);
                switch (w[0]) {
                    case "LOAD" -> {
                        if (graph != null) {
                            graph.close();
                        }
                        graph = JanusGraphFactory.build().set("storage.backend", "berkeleyje")
                                .set("storage.directory", w[1]).open();
                        // timed from the Gryo read on, as TetraGraph's BulkLoader.read is: the same work on both sides
                        long c0 = processCpuNanos();
                        long t0 = System.nanoTime();
                        TinkerGraph source = TinkerGraph.open();
                        try (InputStream file = Files.newInputStream(Paths.get(w[2]))) {
                            GryoReader.build().create().readGraph(file, source);
                        }
                        long elements = copy(source, graph, Integer.parseInt(w[3]));
                        long nanos = System.nanoTime() - t0;
                        out.println("LOADED " + elements + " " + nanos + " " + (processCpuNanos() - c0));
                    }
                    case "IDS" -> {
                        GraphTraversalSource g = graph.traversal();
                        StringBuilder sb = new StringBuilder("IDS");
                        for (int i = 1; i < w.length; i++) {
                            for (String code : w[i].split(" ")) {
                                Object id = g.V().has("airport", "code", code).id().next();
                                ids.put(code, id);
                                sb.append(' ').append(code).append('=').append(id);
                            }
                        }
                        graph.tx().rollback();
                        out.println(sb);
                    }
                    case "RUN" -> out.println(run(graph, engine, ids, w));
                    case "WARM" -> {
                        String[] v = line.split(" ", 4);
                        warm(graph, engine, ids, Long.parseLong(v[2]), v[3]);
                        out.println("WARMED " + v[1]);
                    }
                    case "QUIT" -> {
                        return;
                    }
                    default -> out.println("ERROR unknown command " + w[0]);
                }
            }
        } catch (Exception e) {
            out.println("ERROR " + e.toString().replace('\n', ' '));
            throw e;
        } finally {
            if (graph != null) {
                graph.close();
            }
        }
    }

    /** Copies every vertex and edge (labels, properties incl. multi-properties) with a commit every batch elements. */
    private static long copy(TinkerGraph source, JanusGraph target, int batch) {
        Map<Object, Object> newIds = new HashMap<>();
        long n = 0;
        for (Iterator<Vertex> it = source.vertices(); it.hasNext(); ) {
            Vertex v = it.next();
            Vertex copy = target.addVertex(T.label, v.label());
            for (Iterator<VertexProperty<Object>> ps = v.properties(); ps.hasNext(); ) {
                VertexProperty<Object> p = ps.next();
                copy.property(p.key(), p.value());
            }
            newIds.put(v.id(), copy.id());
            if (++n % batch == 0) {
                target.tx().commit();
            }
        }
        target.tx().commit();
        for (Iterator<Edge> it = source.edges(); it.hasNext(); ) {
            Edge e = it.next();
            Vertex from = target.vertices(newIds.get(e.outVertex().id())).next();
            Vertex to = target.vertices(newIds.get(e.inVertex().id())).next();
            List<Object> kv = new ArrayList<>();
            for (Iterator<Property<Object>> ps = e.properties(); ps.hasNext(); ) {
                Property<Object> p = ps.next();
                kv.add(p.key());
                kv.add(p.value());
            }
            from.addEdge(e.label(), to, kv.toArray());
            if (++n % batch == 0) {
                target.tx().commit();
            }
        }
        target.tx().commit();
        return n;
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static String run(JanusGraph graph, GremlinLangScriptEngine engine, Map<String, Object> ids, String[] w)
            throws Exception {
        String name = w[1];
        boolean ordered = Boolean.parseBoolean(w[2]);
        long warm = Long.parseLong(w[3]);
        long measure = Long.parseLong(w[4]);
        int minRuns = Integer.parseInt(w[5]);
        int maxRuns = Integer.parseInt(w[6]);
        String gremlin = withIds(w[7], ids);
        Bindings bindings = new SimpleBindings();
        bindings.put("g", graph.traversal());
        List<?> result = once(engine, gremlin, bindings, graph);
        long warmEnd = System.nanoTime() + warm;
        while (System.nanoTime() < warmEnd) {
            once(engine, gremlin, bindings, graph);
        }
        List<Long> times = new ArrayList<>();
        List<Long> cpu = new ArrayList<>();
        long spent = 0;
        for (int run = 0; run < maxRuns && (run < minRuns || spent < measure); run++) {
            long c0 = CPU.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            once(engine, gremlin, bindings, graph);
            long t = System.nanoTime() - t0;
            cpu.add(CPU.getCurrentThreadCpuTime() - c0);
            times.add(t);
            spent += t;
        }
        StringBuilder sb = new StringBuilder("RESULT ").append(name).append(' ')
                .append(String.format(java.util.Locale.ROOT, "%.1f %.1f", median(times) / 1e3, median(cpu) / 1e3))
                .append(' ').append(times.size()).append(' ');
        sb.append(String.join("\u0001", canonical(result, ordered)));
        return sb.toString();
    }

    /** The warm-up pass before the first timed traversal: the JIT compiles what every traversal runs. */
    private static void warm(JanusGraph graph, GremlinLangScriptEngine engine, Map<String, Object> ids, long nanos,
                             String text) throws Exception {
        String gremlin = withIds(text, ids);
        Bindings bindings = new SimpleBindings();
        bindings.put("g", graph.traversal());
        long end = System.nanoTime() + nanos;
        do {
            once(engine, gremlin, bindings, graph);
        } while (System.nanoTime() < end);
    }

    /** {@code %CODE} → that airport's id in this graph. */
    private static String withIds(String gremlin, Map<String, Object> ids) {
        for (Map.Entry<String, Object> id : ids.entrySet()) {
            gremlin = gremlin.replace("%" + id.getKey(), id.getValue() + "L");
        }
        return gremlin;
    }

    /** One run: the traversal built from its text (as a server would), iterated to a list, its transaction closed. */
    private static List<?> once(GremlinLangScriptEngine engine, String gremlin, Bindings bindings, JanusGraph graph)
            throws Exception {
        try {
            return ((Traversal<?, ?>) engine.eval(gremlin, bindings)).toList();
        } finally {
            graph.tx().rollback();
        }
    }

    private static double median(List<Long> xs) {
        List<Long> s = new ArrayList<>(xs);
        s.sort(null);
        return s.isEmpty() ? 0 : s.get(s.size() / 2);
    }

    // the same canonical form as the benchmark's CanonicalResult (ids differ between graphs; codes do not)
    static List<String> canonical(List<?> results, boolean ordered) {
        List<String> out = new ArrayList<>(results.size());
        for (Object r : results) {
            out.add(form(r));
        }
        if (!ordered) {
            out.sort(null);
        }
        return out;
    }

    static String form(Object o) {
        if (o == null) {
            return "null";
        } else if (o instanceof Vertex v) {
            return "v[" + code(v) + "]";
        } else if (o instanceof Edge e) {
            return "e[" + code(e.outVertex()) + "-" + e.label() + "->" + code(e.inVertex()) + "]";
        } else if (o instanceof Property<?> p) {
            return "p[" + p.key() + "=" + form(p.value()) + "]";
        } else if (o instanceof org.apache.tinkerpop.gremlin.process.traversal.Path p) {
            return form(p.objects());
        } else if (o instanceof Map<?, ?> m) {
            Map<String, String> sorted = new TreeMap<>();
            m.forEach((k, v) -> sorted.put(form(k), form(v)));
            return sorted.toString();
        } else if (o instanceof List<?> l) {
            List<String> parts = new ArrayList<>(l.size());
            l.forEach(x -> parts.add(form(x)));
            return parts.toString();
        } else if (o instanceof Collection<?> c) {
            List<String> parts = new ArrayList<>(c.size());
            c.forEach(x -> parts.add(form(x)));
            parts.sort(null);
            return parts.toString();
        } else if (o instanceof Number n) {
            return n + ":" + n.getClass().getSimpleName();
        }
        return o.toString();
    }

    private static String code(Element e) {
        Iterator<? extends Property<Object>> p = e.properties("code");
        return p.hasNext() ? String.valueOf(p.next().value()) : e.label();
    }
}
