package io.tetradb.server.fuzz;

import java.util.concurrent.atomic.AtomicLong;

/** Reads the server process's VmRSS every 250 ms while a run lasts and keeps the largest value seen. */
final class RssSampler implements AutoCloseable {
    private final ServerProcess server;
    private final AtomicLong max = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    RssSampler(ServerProcess server) {
        this.server = server;
        max.set(server.rssBytes());
        thread = new Thread(this::sample, "rss-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    private void sample() {
        while (running) {
            long rss = server.rssBytes();
            max.accumulateAndGet(rss, Math::max);
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    long maxBytes() {
        return max.get();
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(5_000);
        max.accumulateAndGet(server.rssBytes(), Math::max);
    }
}
