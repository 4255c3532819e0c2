package io.tetradb.server.explorer;

import io.tetradb.cosmos.CosmosRoute;
import io.tetradb.server.admin.AdminAccess;

import java.net.URI;
import java.util.Locale;

/**
 * Who may use the explorer. On a loopback-bound server its API is open to this machine: only to requests that name a
 * loopback host (a DNS-rebinding page names its own) and, when a browser says where a request comes from, only from
 * the explorer's own origin (no cross-site writes). Beyond loopback the API needs the Cosmos keys, as Cosmos DB's own
 * Data Explorer does when it is opened with a connection string: the page asks for the key once, keeps it in the
 * tab (sessionStorage, never sent) and signs each call with a master-key {@code Authorization} header
 * ({@link AdminAccess}); HTTP basic with the key as the password is accepted too, for scripts and {@code curl -u}.
 * The read-only key reads and queries; saving or deleting an item needs the master key (403 otherwise), as the
 * Cosmos read-only key cannot write.
 */
final class ExplorerAccess {
    private ExplorerAccess() {
    }

    /** A request of a server bound beyond loopback: 401 without a key, 403 for a write with the read-only key. */
    static ExplorerError keyRefusal(CosmosRoute.Request r, AdminAccess access) {
        String crossSite = crossOrigin(r);
        if (crossSite != null) {
            return new ExplorerError(403, crossSite);
        }
        if (!r.path().startsWith(ExplorerApi.PREFIX)) {
            return null; // the page, its script and styles: no data, and the sign-in needs them
        }
        AdminAccess.Grant grant = access.grant(r.method(), name -> r.headers().get(name));
        if (grant == AdminAccess.Grant.NONE) {
            return new ExplorerError(401, "the data explorer needs the Cosmos key on a server bound beyond "
                    + "loopback: sign in with the master key (or the read-only key to read)");
        }
        if (grant == AdminAccess.Grant.READ && !isRead(r)) {
            return new ExplorerError(403, "the read-only key cannot " + r.method() + " " + r.path()
                    + ": saving and deleting items needs the master key");
        }
        return null;
    }

    /** Reads: every GET, and a query (a POST that reads, as Cosmos DB lets its read-only key query). */
    static boolean isRead(CosmosRoute.Request r) {
        return r.method().equals("GET") || r.method().equals("POST") && r.path().endsWith("/query");
    }

    /** Why this request is refused (403), or null. */
    static String refusal(CosmosRoute.Request r) {
        String host = r.headers().get("host");
        if (host == null || !isLoopbackName(hostName(host))) {
            return "the data explorer answers only requests for localhost, 127.0.0.1 or [::1] (Host: " + host + ")";
        }
        return crossOrigin(r);
    }

    /** Why a request a browser says came from another site's page is refused, or null. */
    private static String crossOrigin(CosmosRoute.Request r) {
        String host = r.headers().get("host");
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
