package io.tetradb.server.admin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which faces of the server listen yet. The admin endpoint starts first (so a supervisor can poll it) and the other
 * faces after it, Gremlin Server taking seconds; {@code /health} is a readiness check over this: 503 until every
 * configured face listens, 200 after, 503 again once shutdown begins.
 */
public final class Readiness {
    /** One face's state, as {@code /health} reports it. */
    public enum State { STARTING, LISTENING, FAILED, STOPPING }

    /** What {@code /health} answers: {@code status} is {@code ok}, {@code starting}, {@code failed} or {@code stopping}. */
    public record Report(String status, List<Face> faces) {
        public boolean ready() {
            return "ok".equals(status);
        }
    }

    /** One face in the report; {@code url} is null until the face listens. */
    public record Face(String name, String state, String url) {
    }

    private final Map<String, Face> faces = new LinkedHashMap<>();
    private boolean stopping;

    /** A readiness over these faces (in start order), all starting. */
    public Readiness(List<String> faceNames) {
        for (String name : faceNames) {
            faces.put(name, new Face(name, label(State.STARTING), null));
        }
    }

    /** A readiness with nothing left to start: for an admin endpoint that serves alone. */
    public static Readiness ready() {
        return new Readiness(List.of());
    }

    public synchronized void listening(String name, String url) {
        set(name, State.LISTENING, url);
    }

    public synchronized void failed(String name) {
        set(name, State.FAILED, null);
    }

    /** Shutdown began: the server is no longer ready, whatever still listens. */
    public synchronized void stopping() {
        stopping = true;
        faces.replaceAll((name, f) -> new Face(name, label(State.STOPPING), f.url()));
    }

    public synchronized Report report() {
        List<Face> list = new ArrayList<>(faces.values());
        if (stopping) {
            return new Report("stopping", list);
        }
        boolean anyFailed = list.stream().anyMatch(f -> f.state().equals(label(State.FAILED)));
        boolean allListening = list.stream().allMatch(f -> f.state().equals(label(State.LISTENING)));
        return new Report(anyFailed ? "failed" : allListening ? "ok" : "starting", list);
    }

    private void set(String name, State state, String url) {
        if (!faces.containsKey(name)) {
            throw new IllegalArgumentException("no face " + name);
        }
        if (!stopping) {
            faces.put(name, new Face(name, label(state), url));
        }
    }

    private static String label(State state) {
        return state.name().toLowerCase(java.util.Locale.ROOT);
    }
}
