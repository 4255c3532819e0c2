package io.tetradb.server.explorer;

import io.tetradb.cosmos.CosmosRoute;

import java.net.InetAddress;
import java.net.URI;
import java.util.Locale;

/**
 * Who may use the explorer. Its API reads and writes every container without the Cosmos key (a browser cannot sign
 * master-key requests), so it is served only on a loopback-bound server, where only this machine reaches it, and
 * only to requests that name a loopback host (a DNS-rebinding page names its own) and, when a browser says where a
 * request comes from, only from the explorer's own origin (no cross-site writes).
 */
final class ExplorerAccess {
    private ExplorerAccess() {
    }

    /**
     * Whether the explorer is served on a server bound to {@code bind}. Issue 19 (credentials on every face) replaces
     * this with a sign-in that asks for the Cosmos key beyond loopback; until then no other address is served.
     */
    static boolean servedOn(InetAddress bind) {
        return bind.isLoopbackAddress();
    }

    /** Why this request is refused (403), or null. */
    static String refusal(CosmosRoute.Request r) {
        String host = r.headers().get("host");
        if (host == null || !isLoopbackName(hostName(host))) {
            return "the data explorer answers only requests for localhost, 127.0.0.1 or [::1] (Host: " + host + ")";
        }
        String origin = r.headers().get("origin");
        if (origin != null) {
            URI o;
            try {
                o = URI.create(origin);
            } catch (IllegalArgumentException e) {
                return "the Origin header " + origin + " is not a URL";
            }
            String originHost = o.getRawAuthority();
            if (originHost == null || !originHost.equalsIgnoreCase(host)) {
                return "the data explorer answers only its own page (Origin " + origin + ", Host " + host + ")";
            }
        }
        return null;
    }

    private static String hostName(String hostHeader) {
        String h = hostHeader.trim().toLowerCase(Locale.ROOT);
        if (h.startsWith("[")) {
            int end = h.indexOf(']');
            return end < 0 ? h : h.substring(0, end + 1);
        }
        int colon = h.lastIndexOf(':');
        return colon < 0 ? h : h.substring(0, colon);
    }

    private static boolean isLoopbackName(String name) {
        return name.equals("localhost") || name.endsWith(".localhost") || name.equals("[::1]")
                || name.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
    }
}
