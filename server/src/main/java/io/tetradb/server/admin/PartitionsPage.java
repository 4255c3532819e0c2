package io.tetradb.server.admin;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The partition storage page: one self-contained HTML file (inline CSS and JS, no external assets). The chart itself
 * ({@code partitions-chart.css}/{@code .js}) is shared with the data explorer and inlined here at its
 * {@code @include} markers.
 */
public final class PartitionsPage {
    private static final String RESOURCE = "partitions.html";
    /** The chart's resources, for the data explorer to serve as they are. */
    public static final String CHART_SCRIPT = "partitions-chart.js";
    public static final String CHART_STYLE = "partitions-chart.css";
    private static final String HTML = load(RESOURCE)
            .replace("/*@include " + CHART_STYLE + "*/", load(CHART_STYLE))
            .replace("//@include " + CHART_SCRIPT, load(CHART_SCRIPT));

    private PartitionsPage() {
    }

    static String html() {
        return HTML;
    }

    /** A resource beside this class, as text. */
    public static String load(String name) {
        try (InputStream in = PartitionsPage.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
