package io.tetradb.server.admin;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The partition storage page: one self-contained HTML file (inline CSS and JS, no external assets). */
final class PartitionsPage {
    private static final String RESOURCE = "partitions.html";
    private static final String HTML = load();

    private PartitionsPage() {
    }

    static String html() {
        return HTML;
    }

    private static String load() {
        try (InputStream in = PartitionsPage.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCE);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
