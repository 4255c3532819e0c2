package io.tetradb.server.fuzz;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a long fuzz run prints at a hang: the server's threads, the fuzzing JVM's own, and the CPU each got. */
class HangDumpTest {
    @TempDir
    Path tmp;

    @Test
    void aHangDumpHoldsTheServersThreadsOurOwnAndTheCpuTheServerGot() throws Exception {
        try (ServerProcess server = ServerProcess.start(tmp.resolve("data"), "1g")) {
            String dump = HangDump.dump(server, "test-part");
            assertTrue(dump.startsWith("FUZZ-HANG test-part at "), dump);
            assertTrue(dump.contains("Full thread dump"), "the server's jcmd Thread.print: " + dump);
            assertTrue(dump.contains("mongo-io"), "the server's Mongo event loop is among its threads: " + dump);
            assertTrue(dump.contains("\"main\""), "the fuzzing JVM's own threads: " + dump);
            assertTrue(Pattern.compile("server state=\\S utime=\\d+ stime=\\d+ ticks").matcher(dump).find(),
                    "the server's CPU time: " + dump);
            assertTrue(dump.contains("2 s later: load "), dump);
        }
    }
}
