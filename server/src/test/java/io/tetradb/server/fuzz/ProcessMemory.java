package io.tetradb.server.fuzz;

import java.io.IOException;

/**
 * The server process's memory at one moment, read from outside: VmRSS from {@code /proc}, the RSS {@code /health}
 * reports, and the heap in use after a full GC (jcmd).
 */
record ProcessMemory(long rssBytes, long healthRssBytes, long liveHeapBytes) {
    static ProcessMemory of(ServerProcess server) throws IOException, InterruptedException {
        long live = server.liveHeapAfterGcBytes();
        long healthRss = server.healthMemory().path("rssBytes").asLong(-1);
        return new ProcessMemory(server.rssBytes(), healthRss, live);
    }

    static long mb(long bytes) {
        return bytes < 0 ? bytes : bytes >> 20;
    }
}
