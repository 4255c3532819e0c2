package io.tetradb.server.explorer;

import io.tetradb.cosmos.CosmosRestOptions;
import io.tetradb.cosmos.CosmosRoute;
import io.tetradb.document.CosmosClient;
import io.tetradb.server.admin.AdminAccess;

import java.net.InetAddress;

/**
 * The data explorer on the Cosmos port, as the emulator has its own at {@code /_explorer/}: a page (databases →
 * containers → items, a SQL box with charge, metrics and explain, the partition chart) whose script talks to
 * {@link ExplorerApi}. {@code /_explorer/emulator.pem} stays the certificate (the Cosmos face serves it first), and
 * a browser opening {@code /} is sent here while the SDKs' signed {@code GET /} still reads the account.
 */
public final class DataExplorer {
    public static final String HOME = "/_explorer/";

    private DataExplorer() {
    }

    /** {@code options} with the explorer mounted, open to this machine only (a loopback-bound server's rule). */
    public static CosmosRestOptions mount(CosmosRestOptions options, CosmosClient client, InetAddress bind) {
        if (!bind.isLoopbackAddress()) {
            throw new IllegalArgumentException("beyond loopback the explorer needs the Cosmos keys: "
                    + "mount(options, client, AdminAccess.keys(...))");
        }
        return mount(options, client, AdminAccess.open());
    }

    /**
     * {@code options} with the explorer mounted. {@code access} open (a loopback-bound server): the page's own
     * loopback origin only ({@link ExplorerAccess#refusal}); with keys (beyond loopback): the page and its files to
     * anyone (they hold no data), the API to requests signed with the master key, or the read-only key for its read
     * routes ({@link ExplorerAccess#keyRefusal}).
     */
    public static CosmosRestOptions mount(CosmosRestOptions options, CosmosClient client, AdminAccess access) {
        ExplorerApi api = new ExplorerApi(client);
        CosmosRoute route = request -> serve(api, request, access);
        return options.withRoute("/_explorer", route).withRoute(HOME + "*", route).withBrowserHome(HOME);
    }

    private static CosmosRoute.Response serve(ExplorerApi api, CosmosRoute.Request r, AdminAccess access) {
        ExplorerError refusal = access.isOpen() ? ExplorerAccess.refusal(r) == null ? null
                : new ExplorerError(403, ExplorerAccess.refusal(r))
                : ExplorerAccess.keyRefusal(r, access);
        if (refusal != null) {
            return ExplorerApi.error(refusal);
        }
        if (r.path().startsWith(ExplorerApi.PREFIX)) {
            return api.handle(r);
        }
        String name = r.path().length() <= HOME.length() ? "" : r.path().substring(HOME.length());
        CosmosRoute.Response file = ExplorerAssets.get(name);
        if (file == null) {
            return ExplorerApi.error(ExplorerError.notFound("no explorer file " + r.path()));
        }
        if (!r.method().equals("GET")) {
            return ExplorerApi.error(new ExplorerError(405, r.method() + " is not allowed on " + r.path()));
        }
        return file;
    }
}
