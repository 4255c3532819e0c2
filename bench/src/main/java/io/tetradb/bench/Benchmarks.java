package io.tetradb.bench;

import io.tetradb.bench.core.CoreBenchmark;
import io.tetradb.bench.cosmos.CosmosBenchmark;
import io.tetradb.bench.feed.FeedBenchmark;
import io.tetradb.bench.graph.GraphBenchmark;
import io.tetradb.bench.itemformat.ItemFormatBenchmark;
import io.tetradb.bench.mongo.MongoBenchmark;
import io.tetradb.bench.query.QueryBenchmark;
import io.tetradb.bench.scripts.ScriptsBenchmark;
import io.tetradb.bench.table.TableBenchmark;
import io.tetradb.bench.ttl.TtlBenchmark;
import io.tetradb.bench.wal.WalSyncBenchmark;

import java.util.List;
import java.util.Optional;

/** The registry of benchmarks: one line per benchmark. */
public final class Benchmarks {
    public static final List<Benchmark> ALL = List.of(
            new CoreBenchmark(),
            new QueryBenchmark(),
            new GraphBenchmark(),
            new TableBenchmark(),
            new MongoBenchmark(),
            new CosmosBenchmark(),
            new WalSyncBenchmark(),
            new ScriptsBenchmark(),
            new TtlBenchmark(),
            new FeedBenchmark(),
            new io.tetradb.bench.throttle.ThrottleBenchmark(),
            new ItemFormatBenchmark(),
            new io.tetradb.bench.mongounique.MongoUniqueBenchmark(),
            new io.tetradb.bench.cluster.ClusterBenchmark()
    );

    private Benchmarks() {
    }

    public static Optional<Benchmark> find(List<Benchmark> all, String name) {
        return all.stream().filter(b -> b.name().equals(name)).findFirst();
    }
}
