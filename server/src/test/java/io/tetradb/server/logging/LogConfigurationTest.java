package io.tetradb.server.logging;

import io.tetradb.server.TetraDbCommand;
import io.tetradb.server.fuzz.ServerProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How a user sets the server's logging: {@code DATA/logback.xml}, {@code --log-level}; bad ones refused at start. */
@Timeout(300)
class LogConfigurationTest {
    @Test
    void theDataDirectorysLogbackXmlAndTheLogLevelOptionAreUsedAndJavaUtilLoggingGoesThroughThem(@TempDir Path tmp)
            throws Exception {
        Path data = Files.createDirectories(tmp.resolve("data"));
        Path logFile = tmp.resolve("custom.log");
        Files.writeString(data.resolve(ServerLogging.DATA_DIR_CONFIG), """
                <configuration>
                  <appender name="FILE" class="ch.qos.logback.core.FileAppender">
                    <file>%s</file>
                    <encoder><pattern>%%level %%logger - %%msg%%n</pattern></encoder>
                  </appender>
                  <root level="INFO"><appender-ref ref="FILE"/></root>
                </configuration>
                """.formatted(logFile));
        // a transport that does not load here: document-core warns through System.Logger (java.util.logging)
        String before = System.getProperty("tetradb.test.serverJvmArgs", "");
        System.setProperty("tetradb.test.serverJvmArgs", before + " -Dtetradb.net.transport=kqueue");
        List<String> stderr;
        try (ServerProcess server = ServerProcess.start(data, "1g", true, List.of("--log-level", "debug"))) {
            stderr = server.stderrTail();
        } finally {
            System.setProperty("tetradb.test.serverJvmArgs", before);
        }
        List<String> lines = Files.readAllLines(logFile, StandardCharsets.UTF_8);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("DEBUG ")), "--log-level debug over the file's INFO");
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("WARN io.tetradb.core.net.NettyTransport - ")
                && l.contains("kqueue transport is not available")), "System.Logger's warning in the file: " + lines);
        assertTrue(stderr.stream().noneMatch(l -> l.contains("kqueue transport is not available")),
                "java.util.logging's own console handler is gone: " + stderr);
    }

    @Test
    void anUnknownLevelIsAUsageError(@TempDir Path tmp) {
        StringWriter err = new StringWriter();
        int code = TetraDbCommand.commandLine().setErr(new PrintWriter(err))
                .execute("start", "--data-dir", tmp.toString(), "--log-level", "loud");
        assertEquals(2, code);
        assertTrue(err.toString().contains("--log-level is trace, debug, info, warn, error or off, not 'loud'"),
                err.toString());
    }

    @Test
    void anUnusableLogbackXmlInTheDataDirectoryStopsTheStart(@TempDir Path tmp) throws Exception {
        Path data = Files.createDirectories(tmp.resolve("data"));
        Files.writeString(data.resolve(ServerLogging.DATA_DIR_CONFIG),
                "<configuration><appender name=\"X\" class=\"no.such.Appender\"/>"
                        + "<root><appender-ref ref=\"X\"/></root></configuration>");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), TetraDbCommand.class.getName(), "start",
                "--data-dir", data.toString(), "--cosmos-port", "0", "--gremlin-port", "0", "--mongo-port", "0",
                "--table-port", "0"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(tmp.resolve("out.txt").toFile()).start();
        try {
            assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the start is refused, not served");
            String out = Files.readString(tmp.resolve("out.txt"));
            assertEquals(2, process.exitValue(), out);
            assertTrue(out.contains(data.resolve(ServerLogging.DATA_DIR_CONFIG).toAbsolutePath().normalize()
                    + " is not a usable Logback configuration"), out);
            assertTrue(out.contains("no.such.Appender"), "Logback's own account of the error: " + out);
        } finally {
            process.destroyForcibly();
        }
    }
}
