package io.tetradb.bench;

import java.util.Map;

/**
 * The note every benchmark run starts with: whether malloc may put RocksDB's memtable blocks on transparent huge
 * pages ({@code GLIBC_TUNABLES=glibc.malloc.hugetlb=1}, which {@code bench/run} sets on Linux as {@code ./tetradb}
 * does). On this VM it decides several µs of a write's server CPU (one page fault per 2 MiB of memtable instead of
 * one per 4 KiB), so a figure is read with it.
 */
final class NativeMemoryNote {
    private NativeMemoryNote() {
    }

    /** The note's text for the process environment {@code env}. */
    static String of(Map<String, String> env) {
        String tunables = env.get("GLIBC_TUNABLES");
        if (tunables != null && tunables.contains("glibc.malloc.hugetlb=1")) {
            return "native memory: GLIBC_TUNABLES=" + tunables + " (malloc's large blocks, RocksDB's 8 MiB memtable "
                    + "blocks among them, on transparent huge pages; every side in this JVM alike)";
        }
        return "native memory: malloc without transparent huge pages (GLIBC_TUNABLES"
                + (tunables == null ? " unset" : "=" + tunables) + "): RocksDB's memtables fault once per 4 KiB";
    }
}
