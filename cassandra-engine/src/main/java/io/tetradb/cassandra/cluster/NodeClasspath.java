package io.tetradb.cassandra.cluster;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The class path of a Cassandra node: Apache Cassandra 5.0.9's jars, resolved from Maven Central by the small Maven
 * project {@code cassandra-engine/node} into its {@code target/lib}. They never join TetraDB's own class path (their
 * Netty, Guava and Jackson differ). {@link #build} runs Maven once when the jars are missing.
 */
public final class NodeClasspath {
    private final Path lib;

    private NodeClasspath(Path lib) {
        this.lib = lib;
    }

    /** The node project's jars, building the project first when its {@code target/lib} is missing. */
    public static NodeClasspath build(Path nodeProject) {
        Path lib = nodeProject.resolve("target").resolve("lib");
        if (!Files.isDirectory(lib) || !hasJars(lib)) {
            runMaven(nodeProject);
        }
        if (!hasJars(lib)) {
            throw new IllegalStateException("no Cassandra jars in " + lib + " after building " + nodeProject);
        }
        return new NodeClasspath(lib);
    }

    String value() {
        try (Stream<Path> jars = Files.list(lib)) {
            return String.join(File.pathSeparator, jars.filter(p -> p.toString().endsWith(".jar"))
                    .map(Path::toString).sorted().toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean hasJars(Path lib) {
        try (Stream<Path> jars = Files.list(lib)) {
            return jars.anyMatch(p -> p.getFileName().toString().startsWith("cassandra-all"));
        } catch (IOException e) {
            return false;
        }
    }

    private static void runMaven(Path project) {
        List<String> cmd = List.of("mvn", "-B", "-q", "-f", project.resolve("pom.xml").toString(), "package");
        try {
            Process p = new ProcessBuilder(cmd).inheritIO().start();
            if (!p.waitFor(20, TimeUnit.MINUTES) || p.exitValue() != 0) {
                throw new IllegalStateException("building the Cassandra node jars failed: " + String.join(" ", cmd));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run Maven to fetch Cassandra's jars (" + String.join(" ", cmd)
                    + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while building " + project);
        }
    }
}
