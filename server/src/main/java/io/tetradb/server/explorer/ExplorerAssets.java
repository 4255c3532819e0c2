package io.tetradb.server.explorer;

import io.tetradb.cosmos.CosmosRoute;
import io.tetradb.server.admin.PartitionsPage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The explorer page's static files, classpath resources beside this class (no framework, nothing fetched from
 * elsewhere); the partition chart is the {@code /partitions} page's own script and style.
 */
final class ExplorerAssets {
    private static final String HTML = "text/html; charset=utf-8";
    private static final String JS = "text/javascript; charset=utf-8";
    private static final String CSS = "text/css; charset=utf-8";

    private static final Map<String, CosmosRoute.Response> FILES = Map.of(
            "index.html", file(HTML, load("index.html")),
            "explorer.js", file(JS, load("explorer.js")),
            "explorer.css", file(CSS, load("explorer.css")),
            PartitionsPage.CHART_SCRIPT, file(JS, PartitionsPage.load(PartitionsPage.CHART_SCRIPT)),
            PartitionsPage.CHART_STYLE, file(CSS, PartitionsPage.load(PartitionsPage.CHART_STYLE)));

    private ExplorerAssets() {
    }

    /** The file at {@code name} ({@code ""} is the page), or null. */
    static CosmosRoute.Response get(String name) {
        return FILES.get(name.isEmpty() ? "index.html" : name);
    }

    private static CosmosRoute.Response file(String type, String text) {
        return new CosmosRoute.Response(200, type, text.getBytes(StandardCharsets.UTF_8), Map.of(
                "Cache-Control", "no-cache",
                "X-Content-Type-Options", "nosniff",
                // the page runs its own files only: no inline script, nothing from another origin
                "Content-Security-Policy", "default-src 'self'; style-src 'self'; img-src 'self' data:",
                "X-Frame-Options", "DENY"));
    }

    private static String load(String name) {
        try (InputStream in = ExplorerAssets.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
