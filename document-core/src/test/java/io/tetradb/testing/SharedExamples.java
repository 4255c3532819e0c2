package io.tetradb.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Finds the repository's {@code examples/} directory (the seed scenarios) from any module's working directory, so a
 * plain clone tests itself without anything beside it.
 */
public final class SharedExamples {
    private SharedExamples() {
    }

    /** The examples directory; fails loudly when it is missing rather than letting a test pass on no data. */
    public static Path dir() {
        for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path candidate = p.resolve("examples");
            if (Files.isDirectory(candidate) && Files.isRegularFile(p.resolve("pom.xml"))
                    && Files.isRegularFile(candidate.resolve("README.md"))) {
                return candidate;
            }
        }
        throw new IllegalStateException("examples/ not found above " + Paths.get("").toAbsolutePath());
    }
}
