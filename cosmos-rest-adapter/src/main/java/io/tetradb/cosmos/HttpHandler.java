package io.tetradb.cosmos;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.AsciiString;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Turns each aggregated HTTP request into a {@link RestRequest} (or an extra route's request), runs it on the worker
 * pool (the store blocks on disk, never the event loop), and writes the answer with the headers every Cosmos response
 * carries: {@code x-ms-activity-id}, {@code x-ms-request-charge}, {@code Date}, gateway and service versions.
 */
final class HttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(HttpHandler.class);
    static final String CERTIFICATE_PATH = "/_explorer/emulator.pem";
    private static final AsciiString ACTIVITY_ID = AsciiString.cached("x-ms-activity-id");
    private static final AsciiString REQUEST_CHARGE = AsciiString.cached("x-ms-request-charge");
    private static final AsciiString GATEWAY_VERSION = AsciiString.cached("x-ms-gatewayversion");
    private static final AsciiString GATEWAY_VERSION_VALUE = AsciiString.cached("version=2.14.0");
    private static final AsciiString SERVICE_VERSION = AsciiString.cached("x-ms-serviceversion");
    private static final AsciiString SERVICE_VERSION_VALUE = AsciiString.cached("version=2.14.0.0");

    private final CosmosApi api;
    private final CosmosRestOptions options;
    private final ExecutorService pool;

    HttpHandler(CosmosApi api, CosmosRestOptions options, ExecutorService pool) {
        this.api = api;
        this.options = options;
        this.pool = pool;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
        boolean keepAlive = HttpUtil.isKeepAlive(req);
        if (req.decoderResult().isFailure()) {
            write(ctx, RestResponse.error(400, 0, "BadRequest", "The HTTP request is malformed."), false);
            return;
        }
        String uri = req.uri();
        int q = uri.indexOf('?');
        String rawPath = q < 0 ? uri : uri.substring(0, q);
        String query = q < 0 ? "" : uri.substring(q + 1);
        if (rawPath.startsWith("http://") || rawPath.startsWith("https://")) { // absolute-form request target
            int slash = rawPath.indexOf('/', rawPath.indexOf("//") + 2);
            rawPath = slash < 0 ? "/" : rawPath.substring(slash);
        }
        List<String> segments;
        try {
            segments = segments(rawPath);
        } catch (IllegalArgumentException e) {
            write(ctx, RestResponse.error(400, 0, "BadRequest", "The request path is not validly percent-encoded."),
                    keepAlive);
            return;
        }
        String path = "/" + String.join("/", segments);
        byte[] body = ByteBufUtil.getBytes(req.content());
        String method = req.method().name().toUpperCase(Locale.ROOT);
        if (segments.isEmpty() && options.browserHome() != null && isBrowser(method, req)) {
            write(ctx, redirect(options.browserHome()), keepAlive);
            return;
        }
        CosmosRoute route = route(path);
        Runnable work;
        if (path.equals(CERTIFICATE_PATH)) { // first: an extra route mounted under /_explorer/* must not hide it
            work = () -> write(ctx, certificate(), keepAlive);
        } else if (route != null) {
            CosmosRoute.Request rr = new CosmosRoute.Request(method, path, query,
                    CosmosApi.lowerCaseHeaders(req.headers()), body);
            work = () -> write(ctx, extra(route, rr), keepAlive);
        } else {
            boolean secure = ctx.pipeline().get(SslHandler.class) != null;
            // the headers object outlives the request's release (only the content is reference-counted): no copy
            RestRequest r = new RestRequest(method, segments, req.headers(), body, secure);
            if (isPointRead(method, segments)) {
                // one item by its key: a lookup that never waits for an fsync, answered on the event loop (two
                // thread hand-offs cost more than the read); writes and queries keep to the pool
                write(ctx, api.handle(r), keepAlive);
                return;
            }
            work = () -> write(ctx, api.handle(r), keepAlive);
        }
        try {
            pool.execute(work);
        } catch (RejectedExecutionException shuttingDown) {
            write(ctx, RestResponse.error(503, 0, "ServiceUnavailable", "The server is shutting down."), false);
        }
    }

    /**
     * A browser opening the endpoint's root: a GET that accepts HTML and carries no Cosmos authorization (the SDKs'
     * account read always signs, and asks for JSON).
     */
    static boolean isBrowser(String method, FullHttpRequest req) {
        String accept = req.headers().get(HttpHeaderNames.ACCEPT);
        return method.equals("GET") && !req.headers().contains(HttpHeaderNames.AUTHORIZATION)
                && accept != null && accept.toLowerCase(Locale.ROOT).contains("text/html");
    }

    private static RestResponse redirect(String location) {
        RestResponse r = new RestResponse(302, new byte[0], 0);
        r.headers.remove("Content-Type");
        r.header("Location", location);
        return r;
    }

    /** {@code GET /dbs/{db}/colls/{c}/docs/{id}}. */
    static boolean isPointRead(String method, List<String> segments) {
        return method.equals("GET") && segments.size() == 6 && segments.get(4).equals("docs");
    }

    /** The path's segments, percent-decoded ({@code +} stays a plus: this is a path, not a form). */
    static List<String> segments(String rawPath) {
        List<String> out = new ArrayList<>(8);
        int start = 0;
        int n = rawPath.length();
        while (start <= n) {
            int end = rawPath.indexOf('/', start);
            if (end < 0) {
                end = n;
            }
            if (end > start) {
                String s = rawPath.substring(start, end);
                // most segments (names, RIDs) have nothing encoded: skip the decoder's copy
                out.add(s.indexOf('%') < 0 && s.indexOf('+') < 0 ? s
                        : URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8));
            }
            start = end + 1;
        }
        return out;
    }

    private CosmosRoute route(String path) {
        Map<String, CosmosRoute> routes = options.routes();
        CosmosRoute exact = routes.get(path);
        if (exact != null) {
            return exact;
        }
        for (Map.Entry<String, CosmosRoute> e : routes.entrySet()) {
            String k = e.getKey();
            if (k.endsWith("*") && path.startsWith(k.substring(0, k.length() - 1))) {
                return e.getValue();
            }
        }
        return null;
    }

    private static RestResponse extra(CosmosRoute route, CosmosRoute.Request rr) {
        try {
            CosmosRoute.Response a = route.handle(rr);
            RestResponse out = new RestResponse(a.status(), a.body(), 0);
            out.headers.remove("Content-Type");
            if (a.contentType() != null) {
                out.header("Content-Type", a.contentType());
            }
            a.headers().forEach(out::header);
            return out;
        } catch (Exception | Error e) {
            LOG.error("route {} failed", rr.path(), e); // a pattern: the server limits its repeats
            return RestResponse.error(500, 0, "InternalServerError", String.valueOf(e));
        }
    }

    private RestResponse certificate() {
        byte[] pem = options.certificatePem();
        if (pem == null) {
            return RestResponse.error(404, 0, "NotFound", "This endpoint serves plain HTTP only: it has no "
                    + "certificate.");
        }
        RestResponse r = new RestResponse(200, pem, 0);
        r.headers.put("Content-Type", "application/x-pem-file");
        return r;
    }

    static void write(ChannelHandlerContext ctx, RestResponse a, boolean keepAlive) {
        // Netty's header validation off (its per-character check of every name and value was a visible part of a
        // small answer's cost): the names are the face's own, and values, which may hold a user's database or
        // container name, are made single-line by oneLine
        FullHttpResponse resp = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.valueOf(a.status), Unpooled.wrappedBuffer(a.body), false);
        HttpHeaders h = resp.headers();
        a.headers.forEach((k, v) -> h.add(k, oneLine(v))); // distinct names (a map): add skips set's lookup
        h.add(ACTIVITY_ID, activityId().toString());
        h.add(REQUEST_CHARGE, formatCharge(a.requestCharge));
        h.add(GATEWAY_VERSION, GATEWAY_VERSION_VALUE);
        h.add(SERVICE_VERSION, SERVICE_VERSION_VALUE);
        h.add(HttpHeaderNames.DATE, HttpDate.now());
        h.add(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(a.body.length));
        HttpUtil.setKeepAlive(resp, keepAlive);
        ctx.writeAndFlush(resp);
    }

    /** The value with any control character (CR, LF: a header injection) replaced by a space. */
    static String oneLine(String v) {
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c < 0x20 && c != '\t' || c == 0x7F) {
                StringBuilder b = new StringBuilder(v);
                for (int j = i; j < b.length(); j++) {
                    char d = b.charAt(j);
                    if (d < 0x20 && d != '\t' || d == 0x7F) {
                        b.setCharAt(j, ' ');
                    }
                }
                return b.toString();
            }
        }
        return v;
    }

    /** A random version-4 UUID; ThreadLocalRandom, as SecureRandom would serialize the request threads. */
    static UUID activityId() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        long high = r.nextLong() & ~0xF000L | 0x4000L;
        long low = r.nextLong() & ~(0xC000L << 48) | (0x8000L << 48);
        return new UUID(high, low);
    }

    static String formatCharge(double ru) {
        double scaled = ru * 100;
        long cents = Math.round(scaled);
        if (ru < 0 || ru > 1e12 || Math.abs(scaled - cents) > 0.49) {
            // a third decimal at the rounding edge: the decimal value decides, as BigDecimal rounds it
            return BigDecimal.valueOf(ru).setScale(2, RoundingMode.HALF_UP).toPlainString();
        }
        long frac = cents % 100;
        return (cents / 100) + (frac < 10 ? ".0" : ".") + frac;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("connection {} closed after an error", ctx.channel().remoteAddress(), cause);
        ctx.close();
    }
}
