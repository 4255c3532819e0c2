package io.tetradb.server;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The server process's stderr, written by one daemon thread from a bounded buffer, so that no server thread waits
 * on it: when nobody reads the pipe (a stalled log shipper, a paused terminal) the kernel's 64 KB fills and a plain
 * {@code System.err} write blocks the thread that logs — an event loop, a command thread — for as long. Here a write
 * that does not fit in the buffer is dropped and counted, and a line saying how much was lost follows once the pipe
 * moves again. Installed by {@code tetradb start} only (tests in one JVM keep their stderr).
 */
final class NonBlockingStderr extends OutputStream {
    private static final int CAPACITY = 1 << 20;
    private final OutputStream out;
    private final byte[] ring = new byte[CAPACITY];
    private int head;
    private int size;
    private long droppedBytes;

    private NonBlockingStderr(OutputStream out) {
        this.out = out;
    }

    /** Replaces {@code System.err} (slf4j-simple looks it up at each line) before anything logs. */
    static void install() {
        NonBlockingStderr stderr = new NonBlockingStderr(new FileOutputStream(FileDescriptor.err));
        Thread writer = new Thread(stderr::drain, "tetradb-stderr-writer");
        writer.setDaemon(true);
        writer.start();
        System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stderr.awaitEmpty(2_000), "tetradb-stderr-flush"));
    }

    @Override
    public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
        if (len > CAPACITY - size) {
            droppedBytes += len;
            return;
        }
        int tail = (head + size) % CAPACITY;
        int first = Math.min(len, CAPACITY - tail);
        System.arraycopy(b, off, ring, tail, first);
        System.arraycopy(b, off + first, ring, 0, len - first);
        size += len;
        notifyAll();
    }

    private void drain() {
        byte[] chunk = new byte[64 * 1024];
        while (true) {
            int n;
            long dropped;
            synchronized (this) {
                while (size == 0) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                n = Math.min(chunk.length, Math.min(size, CAPACITY - head));
                System.arraycopy(ring, head, chunk, 0, n);
                head = (head + n) % CAPACITY;
                size -= n;
                dropped = droppedBytes;
                droppedBytes = 0;
                notifyAll();
            }
            try {
                out.write(chunk, 0, n);
                if (dropped > 0) {
                    out.write(("\n[stderr: " + dropped + " bytes of log dropped while nobody read it]\n")
                            .getBytes(StandardCharsets.UTF_8));
                }
                out.flush();
            } catch (IOException e) {
                // stderr closed: nothing to tell it
            }
        }
    }

    /** At exit: give the writer a moment to pass on the last lines (never blocks the exit for long). */
    private synchronized void awaitEmpty(long millis) {
        long deadline = System.currentTimeMillis() + millis;
        while (size > 0 && System.currentTimeMillis() < deadline) {
            try {
                wait(Math.max(1, deadline - System.currentTimeMillis()));
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
