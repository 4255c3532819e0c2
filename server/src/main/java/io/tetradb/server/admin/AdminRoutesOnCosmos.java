package io.tetradb.server.admin;

import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.tetradb.cosmos.CosmosRestOptions;
import io.tetradb.cosmos.CosmosRoute;
import io.tetradb.document.CosmosClient;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The admin routes ({@code /health}, {@code /api/partitions}, {@code /partitions}) mounted on the Cosmos port, as the
 * emulator's port carries its own pages: the same handlers as the separate admin endpoint, without Cosmos auth (they
 * are read-only). {@code /} stays the Cosmos account document the SDKs read.
 */
public final class AdminRoutesOnCosmos {
    static final List<String> PATHS = List.of("/health", "/api/partitions", "/partitions", "/api/metrics", "/metrics");

    private AdminRoutesOnCosmos() {
    }

    /** {@code options} with the admin routes added. */
    public static CosmosRestOptions mount(CosmosRestOptions options, CosmosClient client, Readiness readiness) {
        return mount(options, client, readiness, AdminAccess.open());
    }

    /** {@code options} with the admin routes added, each answering only requests {@code access} allows. */
    public static CosmosRestOptions mount(CosmosRestOptions options, CosmosClient client, Readiness readiness,
                                          AdminAccess access) {
        AdminRoutes routes = new AdminRoutes(client::readAllPartitionStatistics,
                () -> client.readAllThroughputMetrics(ThroughputReport.WINDOW_SECONDS), readiness);
        CosmosRestOptions mounted = options;
        for (String path : PATHS) {
            mounted = mounted.withRoute(path, request -> !access.allows(request.method(), request.headers()::get)
                    ? refusal() : answer(routes.handle(HttpMethod.valueOf(request.method()),
                    request.query().isEmpty() ? request.path() : request.path() + "?" + request.query())));
        }
        return mounted;
    }

    /** 401 with the challenge a browser answers by asking for the key. */
    private static CosmosRoute.Response refusal() {
        return answer(AdminHttpHandler.unauthorized());
    }

    private static CosmosRoute.Response answer(FullHttpResponse r) {
        try {
            Map<String, String> headers = new LinkedHashMap<>();
            r.headers().forEach(h -> {
                if (!h.getKey().equalsIgnoreCase(HttpHeaderNames.CONTENT_TYPE.toString())
                        && !h.getKey().equalsIgnoreCase(HttpHeaderNames.CONTENT_LENGTH.toString())) {
                    headers.put(h.getKey(), h.getValue());
                }
            });
            return new CosmosRoute.Response(r.status().code(), r.headers().get(HttpHeaderNames.CONTENT_TYPE),
                    ByteBufUtil.getBytes(r.content()), headers);
        } finally {
            r.release();
        }
    }
}
