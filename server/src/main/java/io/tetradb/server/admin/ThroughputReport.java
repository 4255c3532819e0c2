package io.tetradb.server.admin;

import io.tetradb.core.store.ThroughputMetrics;

import java.util.List;
import java.util.Locale;

/**
 * Throughput metrics as {@code GET /api/metrics} (JSON, the core's records) and {@code GET /metrics} (Prometheus
 * text exposition format 0.0.4): per physical partition the RU consumed per second and its budget, the normalized
 * utilisation (hottest second's RU / budget), throttled requests and the RU consumed, over the last minute.
 */
final class ThroughputReport {
    /** The window the averages and the hottest second are taken over. */
    static final int WINDOW_SECONDS = 60;
    static final String PROMETHEUS_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private ThroughputReport() {
    }

    record Json(int windowSeconds, List<ThroughputMetrics.Container> containers) {
    }

    static Json json(List<ThroughputMetrics.Container> containers) {
        return new Json(WINDOW_SECONDS, containers);
    }

    static String prometheus(List<ThroughputMetrics.Container> containers) {
        StringBuilder out = new StringBuilder();
        family(out, "tetradb_container_provisioned_ru_per_second", "gauge",
                "RU/s provisioned for the container (manual, or the autoscale maximum; shared: the database's)");
        for (ThroughputMetrics.Container c : containers) {
            sample(out, "tetradb_container_provisioned_ru_per_second", labels(c, null), c.throughput());
        }
        family(out, "tetradb_container_current_ru_per_second", "gauge",
                "RU/s in force now (autoscale: between 10 % and 100 % of the maximum)");
        for (ThroughputMetrics.Container c : containers) {
            sample(out, "tetradb_container_current_ru_per_second", labels(c, null), c.currentThroughput());
        }
        partitionFamily(out, containers, "tetradb_partition_budget_ru_per_second", "gauge",
                "the physical partition's share of the provisioned RU/s", ThroughputMetrics.Partition::budgetRuPerSecond);
        partitionFamily(out, containers, "tetradb_partition_ru_per_second", "gauge",
                "RU consumed per second, averaged over the last minute", ThroughputMetrics.Partition::averageRuPerSecond);
        partitionFamily(out, containers, "tetradb_partition_normalized_utilization", "gauge",
                "the hottest second's RU of the last minute / the partition's budget",
                ThroughputMetrics.Partition::normalizedUtilization);
        partitionFamily(out, containers, "tetradb_partition_throttled_requests_total", "counter",
                "requests refused with 429 since the server started", p -> p.throttledTotal());
        partitionFamily(out, containers, "tetradb_partition_request_units_total", "counter",
                "RU consumed since the server started", ThroughputMetrics.Partition::ruTotal);
        return out.toString();
    }

    private static void partitionFamily(StringBuilder out, List<ThroughputMetrics.Container> containers, String name,
                                        String type, String help,
                                        java.util.function.ToDoubleFunction<ThroughputMetrics.Partition> value) {
        family(out, name, type, help);
        for (ThroughputMetrics.Container c : containers) {
            for (ThroughputMetrics.Partition p : c.partitions()) {
                sample(out, name, labels(c, p), value.applyAsDouble(p));
            }
        }
    }

    private static void family(StringBuilder out, String name, String type, String help) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private static void sample(StringBuilder out, String name, String labels, double value) {
        out.append(name).append(labels).append(' ').append(format(value)).append('\n');
    }

    private static String format(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.format(Locale.ROOT, "%s", v);
    }

    private static String labels(ThroughputMetrics.Container c, ThroughputMetrics.Partition p) {
        StringBuilder b = new StringBuilder("{database=\"").append(escape(c.database()))
                .append("\",container=\"").append(escape(c.container())).append('"');
        if (p != null) {
            b.append(",partition=\"").append(escape(p.name())).append('"');
        }
        return b.append('}').toString();
    }

    /** Label values escape backslash, double quote and newline (the exposition format's rule). */
    static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
