package io.tetradb.bench.scripts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.bench.BenchData;
import io.tetradb.bench.Benchmark;
import io.tetradb.bench.Report;
import io.tetradb.bench.Samples;
import io.tetradb.document.CosmosBatch;
import io.tetradb.document.CosmosBatchResponse;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosQueryRequestOptions;
import io.tetradb.document.CosmosStoredProcedure;
import io.tetradb.document.CosmosStoredProcedureProperties;
import io.tetradb.document.CosmosStoredProcedureRequestOptions;
import io.tetradb.document.CosmosUserDefinedFunctionProperties;
import io.tetradb.document.PartitionKey;

import java.nio.file.Path;
import java.util.List;

/**
 * Server-side JavaScript against its anchors, side by side in interleaved rounds: the same 10-write transaction as a
 * stored procedure and as a transactional batch (SYNC durability both), the per-call overhead of an empty stored
 * procedure on a warm engine, and a query calling a UDF on 10k items against the same query with the expression
 * inline.
 */
public final class ScriptsBenchmark implements Benchmark {
    private static final ObjectMapper M = new ObjectMapper();
    static final String TEN_WRITES = """
            function tenWrites(prefix, pk) {
              var coll = getContext().getCollection();
              for (var i = 0; i < 10; i++) {
                coll.createDocument(coll.getSelfLink(), {id: prefix + "-" + i, pk: pk, n: i, note: "ten writes"});
              }
              getContext().getResponse().setBody(10);
            }""";

    @Override
    public String name() {
        return "scripts";
    }

    @Override
    public String description() {
        return "stored procedure vs transactional batch (10 writes), empty sproc overhead, UDF vs inline query on 10k items";
    }

    @Override
    public void run(boolean quick, Report out) throws Exception {
        BenchData.runInFresh("scripts", out, dir -> measure(quick, out, dir));
    }

    private static void measure(boolean quick, Report out, Path dir) throws Exception {
        int rounds = quick ? 3 : 5;
        int callsPerRound = quick ? 150 : 500;
        // Rhino compiles each script to its own classes, which the JIT compiles only after some thousand calls:
        // without this warm-up a quick run measured mostly the JIT (ratio 1.7 against 1.2 once warm)
        int warmUpCalls = quick ? 1500 : 3000;
        int emptyCalls = quick ? 2000 : 10000;
        int udfItems = 10_000;
        int queriesPerRound = quick ? 3 : 6;
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabaseIfNotExists("bench");
            client.getDatabase("bench").createContainerIfNotExists("c", "/pk");
            CosmosContainer c = client.getDatabase("bench").getContainer("c");
            c.getScripts().createStoredProcedure(new CosmosStoredProcedureProperties("tenWrites", TEN_WRITES));
            c.getScripts().createStoredProcedure(new CosmosStoredProcedureProperties("empty", "function empty() {}"));
            c.getScripts().createUserDefinedFunction(new CosmosUserDefinedFunctionProperties("gross",
                    "function gross(price) { return price * 1.2 + 1; }"));
            CosmosStoredProcedure tenWrites = c.getScripts().getStoredProcedure("tenWrites");
            CosmosStoredProcedure empty = c.getScripts().getStoredProcedure("empty");

            out.note("scripts: single thread, SYNC durability (fsync per commit) on both sides; 10 creates of ~100 B "
                    + "items into one logical partition per call; " + warmUpCalls + " warm-up calls per side, then "
                    + rounds + " interleaved rounds of " + callsPerRound + " calls");
            out.note("scripts: server CPU per call = the calling thread's CPU time during the call (script, "
                    + "transaction, RocksDB write) + the store's tetradb-* threads' (WAL fsync); GC, JIT and RocksDB's "
                    + "background threads not counted");
            Samples sproc = new Samples();
            Samples batch = new Samples();
            CallCpu sprocCpu = new CallCpu();
            CallCpu batchCpu = new CallCpu();
            int seq = 0;
            for (int w = 0; w < warmUpCalls; w++) { // warm-up: engine, compiled script, JIT
                runSproc(tenWrites, "w" + (seq++));
                runBatch(c, "w" + (seq++));
            }
            for (int r = 0; r < rounds; r++) {
                // call by call alternately, so that the machine's noise hits both sides alike
                long sprocNanos = 0;
                long batchNanos = 0;
                for (int i = 0; i < callsPerRound; i++) {
                    String sPrefix = "s" + (seq++);
                    sprocCpu.start();
                    long s = System.nanoTime();
                    runSproc(tenWrites, sPrefix);
                    long m = System.nanoTime();
                    sprocCpu.stop();
                    String bPrefix = "b" + (seq++);
                    batchCpu.start();
                    long m2 = System.nanoTime();
                    runBatch(c, bPrefix);
                    long e = System.nanoTime();
                    batchCpu.stop();
                    sproc.latency(m - s);
                    batch.latency(e - m2);
                    sprocNanos += m - s;
                    batchNanos += e - m2;
                }
                sproc.round(callsPerRound * 10L, sprocNanos);
                batch.round(callsPerRound * 10L, batchNanos);
            }
            out.bench("scripts.ten-writes.sproc", 0, "items_per_s", sproc);
            out.bench("scripts.ten-writes.batch", 0, "items_per_s", batch);
            sprocCpu.report(out, "scripts.ten-writes.sproc-cpu");
            batchCpu.report(out, "scripts.ten-writes.batch-cpu");
            out.ratio("sproc/batch latency p50", sproc.percentileMicros(0.5) / batch.percentileMicros(0.5));
            out.ratio("sproc/batch server-cpu", sprocCpu.serverMicrosPerCall() / batchCpu.serverMicrosPerCall());

            out.note("scripts: empty stored procedure (function empty() {}), read-only so no commit; "
                    + emptyCalls + " calls after as many warm-up calls");
            CosmosStoredProcedureRequestOptions inP = new CosmosStoredProcedureRequestOptions()
                    .setPartitionKey(new PartitionKey("p0"));
            for (int i = 0; i < emptyCalls; i++) {
                empty.execute(null, inP);
            }
            Samples emptySamples = new Samples();
            CallCpu emptyCpu = new CallCpu();
            for (int r = 0; r < rounds; r++) {
                long t0 = System.nanoTime();
                emptyCpu.start(); // per round: a call is too short to read two CPU clocks around it
                for (int i = 0; i < emptyCalls / rounds; i++) {
                    long s = System.nanoTime();
                    empty.execute(null, inP);
                    emptySamples.latency(System.nanoTime() - s);
                }
                emptyCpu.stop(emptyCalls / rounds);
                emptySamples.round(emptyCalls / rounds, System.nanoTime() - t0);
            }
            out.bench("scripts.empty-sproc.core", 0, "ops_per_s", emptySamples);
            emptyCpu.report(out, "scripts.empty-sproc.core-cpu");

            out.note("scripts: " + udfItems + " items over 100 logical partitions; SELECT VALUE udf.gross(c.price) "
                    + "vs SELECT VALUE c.price * 1.2 + 1 over all of them (cross-partition scan), "
                    + queriesPerRound + " queries per round");
            for (int p = 0; p < 100; p++) {
                CosmosBatch b = CosmosBatch.createCosmosBatch(new PartitionKey("u" + p));
                for (int i = 0; i < udfItems / 100; i++) {
                    b.createItemOperation(M.createObjectNode().put("id", "u" + p + "-" + i).put("pk", "u" + p)
                            .put("price", (p * 31 + i) % 1000));
                }
                c.executeCosmosBatch(b);
            }
            String udf = "SELECT VALUE udf.gross(c.price) FROM c WHERE IS_DEFINED(c.price)";
            String inline = "SELECT VALUE c.price * 1.2 + 1 FROM c WHERE IS_DEFINED(c.price)";
            for (int w = 0; w < queriesPerRound; w++) { // warm-up
                query(c, udf, udfItems);
                query(c, inline, udfItems);
            }
            Samples udfSamples = new Samples();
            Samples inlineSamples = new Samples();
            CallCpu udfCpu = new CallCpu();
            CallCpu inlineCpu = new CallCpu();
            for (int r = 0; r < rounds; r++) {
                long udfNanos = 0;
                long inlineNanos = 0;
                for (int i = 0; i < queriesPerRound; i++) { // query by query alternately
                    udfCpu.start();
                    long s = System.nanoTime();
                    query(c, udf, udfItems);
                    long m = System.nanoTime();
                    udfCpu.stop();
                    inlineCpu.start();
                    long m2 = System.nanoTime();
                    query(c, inline, udfItems);
                    long e = System.nanoTime();
                    inlineCpu.stop();
                    udfSamples.latency(m - s);
                    inlineSamples.latency(e - m2);
                    udfNanos += m - s;
                    inlineNanos += e - m2;
                }
                udfSamples.round((long) queriesPerRound * udfItems, udfNanos);
                inlineSamples.round((long) queriesPerRound * udfItems, inlineNanos);
            }
            out.bench("scripts.query-10k.udf", udfItems, "items_per_s", udfSamples);
            out.bench("scripts.query-10k.inline", udfItems, "items_per_s", inlineSamples);
            udfCpu.report(out, "scripts.query-10k.udf-cpu");
            inlineCpu.report(out, "scripts.query-10k.inline-cpu");
            out.ratio("udf/inline latency p50", udfSamples.percentileMicros(0.5) / inlineSamples.percentileMicros(0.5));
        }
    }

    private static void runSproc(CosmosStoredProcedure p, String prefix) {
        String pk = "p" + (prefix.hashCode() & 7);
        p.execute(List.of(prefix, pk), new CosmosStoredProcedureRequestOptions().setPartitionKey(new PartitionKey(pk)));
    }

    private static void runBatch(CosmosContainer c, String prefix) {
        String pk = "p" + (prefix.hashCode() & 7);
        CosmosBatch b = CosmosBatch.createCosmosBatch(new PartitionKey(pk));
        for (int i = 0; i < 10; i++) {
            ObjectNode item = M.createObjectNode().put("id", prefix + "-" + i).put("pk", pk).put("n", i)
                    .put("note", "ten writes");
            b.createItemOperation(item);
        }
        CosmosBatchResponse r = c.executeCosmosBatch(b);
        if (!r.isSuccessStatusCode()) {
            throw new IllegalStateException("batch failed: " + r.getErrorMessage());
        }
    }

    private static void query(CosmosContainer c, String q, int expected) {
        long n = c.queryItems(q, new CosmosQueryRequestOptions().setMaxItemCount(expected), JsonNode.class).stream().count();
        if (n != expected) {
            throw new IllegalStateException(q + " returned " + n + " results, expected " + expected);
        }
    }
}
