package io.tetradb.bench.mongo;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.DeleteOneModel;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.UpdateOneModel;
import com.mongodb.client.model.WriteModel;
import org.bson.Document;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Wall time and server CPU of one journaled {@code bulkWrite} message of {@code size} {@code updateOne}s ({@code $inc}
 * of one document each) or {@code deleteOne}s through the Java driver (one client thread, TetraDB's face in this
 * process): {@code warm} messages unmeasured, then {@code rounds} measured, each on documents of its own. With
 * {@code gate}, prints {@code READY <pid>} before the measured messages and {@code DONE} after them, and waits for a
 * line on standard input at each, so a tracer ({@code strace -f -c -e trace=fdatasync -p <pid>}) sees exactly the
 * measured messages.
 *
 * <p>{@code java -cp bench.jar:lib/* io.tetradb.bench.mongo.BulkWriteProbe [update|delete] [rounds=6] [warm=2]
 * [size=1000] [gate=false]}
 */
public final class BulkWriteProbe {
    private BulkWriteProbe() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "update";
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 6;
        int warm = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        int size = args.length > 3 ? Integer.parseInt(args[3]) : 1000;
        boolean gate = args.length > 4 && Boolean.parseBoolean(args[4]);
        Path base = Files.createDirectories(Path.of(System.getProperty("bench.dataDir", "target")));
        Path dir = Files.createTempDirectory(base, "bulkwrite-probe");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        double[] wallMs = new double[rounds];
        double[] cpuUs = new double[rounds];
        try (Endpoint e = Endpoint.tetra(dir, 1)) {
            MongoCollection<Document> c = e.collection("probe");
            int total = (warm + rounds) * size;
            for (int from = 0; from < total; from += 1000) {
                List<Document> docs = new ArrayList<>();
                for (int i = from; i < Math.min(total, from + 1000); i++) {
                    docs.add(new Document("_id", i).append("v", 0).append("s", "x".repeat(100)));
                }
                c.insertMany(docs);
            }
            for (int m = 0; m < warm + rounds; m++) {
                if (gate && m == warm) {
                    System.out.println("READY " + ProcessHandle.current().pid());
                    in.readLine();
                }
                List<WriteModel<Document>> ops = new ArrayList<>(size);
                for (int i = m * size; i < (m + 1) * size; i++) {
                    ops.add(mode.equals("delete") ? new DeleteOneModel<>(Filters.eq("_id", i))
                            : new UpdateOneModel<>(Filters.eq("_id", i), new Document("$inc", new Document("v", 1))));
                }
                Map<String, Long> before = e.serverCpuNanos();
                long t0 = System.nanoTime();
                var r = c.bulkWrite(ops);
                long wall = System.nanoTime() - t0;
                long cpu = e.serverCpuNanos().entrySet().stream()
                        .mapToLong(x -> x.getValue() - before.getOrDefault(x.getKey(), 0L)).sum();
                int done = mode.equals("delete") ? r.getDeletedCount() : r.getModifiedCount();
                if (done != size) {
                    throw new IllegalStateException("message " + m + " wrote " + done + " of " + size);
                }
                if (m >= warm) {
                    wallMs[m - warm] = wall / 1e6;
                    cpuUs[m - warm] = cpu / 1e3 / size;
                }
                System.out.printf("message %d: wall %.1f ms, server cpu %.2f us/statement%n", m, wall / 1e6,
                        cpu / 1e3 / size);
            }
            if (gate) {
                System.out.println("DONE");
                in.readLine();
            }
        }
        System.out.printf("PROBE bulkWrite.%s size %d: median wall %.1f ms/message, server cpu %.2f us/statement "
                + "(rounds %d)%n", mode, size, median(wallMs), median(cpuUs), rounds);
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
