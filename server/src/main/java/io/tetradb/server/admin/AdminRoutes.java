package io.tetradb.server.admin;

import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.tetradb.core.store.PartitionStatistics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** Path → handler for the admin endpoint. Every route is a read-only GET. */
final class AdminRoutes {
    private static final Logger log = LoggerFactory.getLogger(AdminRoutes.class);

    private final Map<String, Supplier<FullHttpResponse>> routes;

    /**
     * @param statistics where the partition statistics come from (the client's, or a stand-in in tests)
     * @param readiness  which faces listen yet: {@code /health} answers 200 only when all do
     */
    AdminRoutes(Supplier<List<PartitionStatistics>> statistics, Readiness readiness) {
        this(statistics, List::of, readiness);
    }

    /** @param throughput the throughput metrics ({@code /api/metrics}, {@code /metrics}) */
    AdminRoutes(Supplier<List<PartitionStatistics>> statistics,
                Supplier<List<io.tetradb.core.store.ThroughputMetrics.Container>> throughput, Readiness readiness) {
        Supplier<FullHttpResponse> page = () -> HttpResponses.html(PartitionsPage.html());
        this.routes = Map.of(
                "/health", () -> health(readiness.report()),
                "/api/metrics", () -> HttpResponses.json(HttpResponseStatus.OK,
                        ThroughputReport.json(throughput.get())),
                "/metrics", () -> HttpResponses.text(ThroughputReport.PROMETHEUS_TYPE,
                        ThroughputReport.prometheus(throughput.get())),
                "/api/partitions", () -> HttpResponses.json(HttpResponseStatus.OK,
                        PartitionsReport.of(statistics.get())),
                "/", page,
                "/partitions", page);
    }

    private static FullHttpResponse health(Readiness.Report report) {
        // the readiness report, then the process's memory (RSS, heap) for whoever watches the budget
        Map<String, Object> body = new java.util.LinkedHashMap<>();
        body.put("status", report.status());
        body.put("faces", report.faces());
        body.put("memory", MemoryReport.now());
        return HttpResponses.json(report.ready() ? HttpResponseStatus.OK : HttpResponseStatus.SERVICE_UNAVAILABLE,
                body);
    }

    /** Never throws: unknown path → 404, other method → 405, failure → 500. */
    FullHttpResponse handle(HttpMethod method, String uri) {
        String path = new QueryStringDecoder(uri).path();
        Supplier<FullHttpResponse> route = routes.get(path);
        if (route == null) {
            return HttpResponses.error(HttpResponseStatus.NOT_FOUND, "NotFound", "no resource at " + path);
        }
        if (!HttpMethod.GET.equals(method)) {
            FullHttpResponse r = HttpResponses.error(HttpResponseStatus.METHOD_NOT_ALLOWED, "MethodNotAllowed",
                    method + " is not allowed on " + path);
            r.headers().set(HttpHeaderNames.ALLOW, HttpMethod.GET.name());
            return r;
        }
        try {
            return route.get();
        } catch (RuntimeException e) {
            log.error("GET {} failed", path, e);
            return HttpResponses.error(HttpResponseStatus.INTERNAL_SERVER_ERROR, "InternalServerError",
                    e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName());
        }
    }
}
