package io.tetradb.core.store;

import io.tetradb.core.partition.PhysicalPartition;
import io.tetradb.core.throughput.PartitionBudget;
import io.tetradb.core.throughput.ThroughputSettings;

import java.util.ArrayList;
import java.util.List;

/**
 * What the partition page and {@code /api/metrics} show about throughput: per container its provisioned RU/s and per
 * physical partition (or shared database budget) the RU consumed per second, the normalized utilisation (the hottest
 * second's RU / the partition's budget, as Cosmos DB's "Normalized RU Consumption"), the throttled requests and the
 * logical partitions that consumed the most RU.
 */
public final class ThroughputMetrics {
    private ThroughputMetrics() {
    }

    public record Container(String database, String container, String mode, int throughput, Integer autoscaleMax,
                            int currentThroughput, boolean sharedWithDatabase, boolean replacePending,
                            boolean rateLimiting, int windowSeconds, List<Partition> partitions) {
    }

    /** {@code id} is the physical partition's id, or −1 − i for the i-th budget of a shared database. */
    public record Partition(int id, String name, double budgetRuPerSecond, double averageRuPerSecond,
                            double hottestSecondRu, double normalizedUtilization, long throttled, long throttledTotal,
                            double ruTotal, double burstReserveRu, List<Logical> topLogicalPartitions) {
    }

    public record Logical(String partitionKey, double ru) {
    }

    /** Every container's throughput over the last {@code windowSeconds} (at most 299). */
    static List<Container> of(CoreStore store, int windowSeconds) {
        List<Container> out = new ArrayList<>();
        RateLimiter limiter = store.rateLimiter();
        long now = limiter.now();
        for (DatabaseDefinition db : store.listDatabases()) {
            for (ContainerDefinition def : store.listContainers(db.id())) {
                ContainerStore c = store.container(db.id(), def.id());
                ThroughputCatalog.ContainerThroughput t = store.throughput().effective(c);
                List<PartitionBudget> budgets = limiter.budgets(c).all();
                List<PhysicalPartition> physical = c.partitionMap().partitions();
                List<Partition> partitions = new ArrayList<>();
                for (int i = 0; i < budgets.size(); i++) {
                    PartitionBudget b = budgets.get(i);
                    int id = t.sharedWithDatabase() || i >= physical.size() ? -1 - i : physical.get(i).id();
                    PartitionBudget.Usage u = b.usage(now, windowSeconds);
                    partitions.add(new Partition(id, b.name(), round(u.budgetRuPerSecond()),
                            round(u.averageRuPerSecond()), round(u.hottestSecondRu()),
                            Math.round(u.normalizedUtilization() * 1000) / 1000.0, u.throttledInWindow(),
                            u.throttledTotal(), round(u.ruTotal()), round(b.burstReserve(now)),
                            b.topLogicalPartitions(5).stream()
                            .map(e -> new Logical(e.getKey(), round(e.getValue()))).toList()));
                }
                ThroughputSettings s = t.settings();
                out.add(new Container(db.id(), def.id(), s.isAutoscale() ? "autoscale" : "manual",
                        s.maxRuPerSecond(), s.isAutoscale() ? s.autoscaleMax() : null,
                        limiter.currentThroughput(s, budgets), t.sharedWithDatabase(), t.replacePending(),
                        limiter.isEnabled(), windowSeconds, partitions));
            }
        }
        return out;
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
