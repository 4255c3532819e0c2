package io.tetradb.server.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Secrets re-read without a restart: polls {@code tetradb.yaml} once a second and, when its bytes change, lets the
 * subclass put what it reads in force. Polled rather than watched: a poll sees an editor's rename-into-place and a
 * mounted secret's symlink swap alike, and costs one small read. A file that is unreadable for a moment (being
 * replaced) is looked at again next time.
 */
abstract class ConfigFileWatcher implements AutoCloseable {
    static final long PERIOD_MS = 1000;

    protected final Path file;
    private ScheduledExecutorService timer;
    private volatile byte[] lastSeen;

    ConfigFileWatcher(Path file) {
        this.file = file;
        this.lastSeen = bytes();
    }

    /** Starts the polling (after the subclass is fully built); returns this. */
    final <W extends ConfigFileWatcher> W start(String threadName) {
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::check, PERIOD_MS, PERIOD_MS, TimeUnit.MILLISECONDS);
        @SuppressWarnings("unchecked")
        W self = (W) this;
        return self;
    }

    /** One look at the file (the timer's work; tests call it to be sure a change was seen). */
    final synchronized void check() {
        byte[] now = bytes();
        if (Arrays.equals(now, lastSeen)) {
            return;
        }
        lastSeen = now;
        changed();
    }

    /** The file's bytes changed: read it and put what it holds in force, or keep what is in force and log why. */
    protected abstract void changed();

    private byte[] bytes() {
        try {
            return Files.exists(file) ? Files.readAllBytes(file) : new byte[0];
        } catch (IOException e) {
            return lastSeen; // unreadable for a moment (being replaced): try again next time
        }
    }

    @Override
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
