package io.tetradb.mongo.command;

import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** {@code hostInfo}: the machine and operating system the server runs on, in mongod's fields and types. */
final class HostInfo {
    private HostInfo() {
    }

    static String hostname() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }

    /** The processor architecture as {@code uname -m} names it (mongod's {@code cpuArch}): x86_64, aarch64, … */
    static String cpuArch() {
        String arch = System.getProperty("os.arch", "unknown").toLowerCase(Locale.ROOT);
        return switch (arch) {
            case "amd64", "x86_64" -> "x86_64";
            case "x86", "i386", "i486", "i586", "i686" -> "i686";
            case "arm64", "aarch64" -> "aarch64";
            default -> arch;
        };
    }

    /** The machine's physical memory (not the JVM's heap), in MiB. */
    static long memSizeMB() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getTotalMemorySize() / (1024 * 1024);
        }
        return Runtime.getRuntime().maxMemory() / (1024 * 1024);
    }

    static BsonDocument reply() {
        int cores = Runtime.getRuntime().availableProcessors();
        long mem = memSizeMB();
        String osType = System.getProperty("os.name", "unknown");
        String osName = osType;
        String osVersion = System.getProperty("os.version", "");
        if (osType.equals("Linux")) {
            // mongod names the distribution and its version, from /etc/os-release
            String name = osRelease("NAME");
            String version = osRelease("VERSION_ID");
            osName = name != null ? name : osName;
            osVersion = version != null ? version : osVersion;
        }
        return Replies.ok(new BsonDocument("system", new BsonDocument("currentTime",
                new BsonDateTime(System.currentTimeMillis()))
                .append("hostname", new BsonString(hostname()))
                .append("cpuAddrSize", new BsonInt32(64))
                .append("memSizeMB", new BsonInt64(mem))
                .append("memLimitMB", new BsonInt64(mem))
                .append("numCores", new BsonInt32(cores))
                .append("numCoresAvailableToProcess", new BsonInt32(cores))
                .append("cpuArch", new BsonString(cpuArch()))
                .append("numaEnabled", BsonBoolean.FALSE)
                .append("numNumaNodes", new BsonInt32(1)))
                .append("os", new BsonDocument("type", new BsonString(osType))
                        .append("name", new BsonString(osName))
                        .append("version", new BsonString(osVersion)))
                .append("extra", new BsonDocument("versionString", new BsonString(osType + " "
                        + System.getProperty("os.version", "")))
                        .append("kernelVersion", new BsonString(System.getProperty("os.version", "")))));
    }

    private static String osRelease(String key) {
        try {
            for (String line : Files.readAllLines(Path.of("/etc/os-release"))) {
                if (line.startsWith(key + "=")) {
                    return line.substring(key.length() + 1).replace("\"", "");
                }
            }
        } catch (IOException | RuntimeException e) {
            // not every Linux has it; os.name/os.version stand in
        }
        return null;
    }
}
