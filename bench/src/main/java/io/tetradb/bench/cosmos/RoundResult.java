package io.tetradb.bench.cosmos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The Node driver's answer to one round: operations done, the round's wall time, the driver process's CPU time
 * (user + system) and each operation's latency, all measured inside the driver ({@code process.hrtime},
 * {@code process.cpuUsage}).
 */
record RoundResult(long ops, long elapsedNanos, long clientCpuMicros, long[] latencyNanos) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Parses one answer line; an answer with {@code ok: false} becomes an exception carrying the driver's error. */
    static RoundResult parse(String line) {
        JsonNode a = answer(line);
        JsonNode lat = a.path("latNs");
        long[] latencies = new long[lat.size()];
        for (int i = 0; i < latencies.length; i++) {
            latencies[i] = lat.get(i).asLong();
        }
        long ops = a.path("ops").asLong(-1);
        if (ops < 0 || ops != latencies.length || a.path("elapsedNs").asLong() <= 0) {
            throw new IllegalStateException("malformed round answer from the cosmos driver: " + abbreviate(line));
        }
        return new RoundResult(ops, a.path("elapsedNs").asLong(), a.path("clientCpuUs").asLong(), latencies);
    }

    /** Parses an answer line and fails unless it says {@code ok: true}. */
    static JsonNode answer(String line) {
        if (line == null) {
            throw new IllegalStateException("the cosmos driver (node) exited without answering");
        }
        JsonNode a;
        try {
            a = JSON.readTree(line);
        } catch (IOException e) {
            throw new UncheckedIOException("not a JSON answer from the cosmos driver: " + abbreviate(line), e);
        }
        if (!a.path("ok").asBoolean(false)) {
            throw new IllegalStateException("cosmos driver: " + a.path("error").asText(abbreviate(line)));
        }
        return a;
    }

    private static String abbreviate(String s) {
        return s.length() > 300 ? s.substring(0, 300) + "..." : s;
    }
}
