package io.tetradb.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** Finds {@code ../shared/examples} (beside the repository: CI clones main with shared/ next to it). */
public final class SharedExamples {
    private SharedExamples() {
    }

    /** The examples directory; fails loudly when it is missing rather than letting a test pass on no data. */
    public static Path dir() {
        for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path candidate = p.resolve("shared/examples");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("shared/examples not found above " + Paths.get("").toAbsolutePath());
    }
}
