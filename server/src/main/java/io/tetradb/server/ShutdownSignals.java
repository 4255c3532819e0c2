package io.tetradb.server;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

import java.util.concurrent.CountDownLatch;

/**
 * Stops the server exactly once, on SIGTERM/SIGINT or on any other JVM exit.
 *
 * <p>On SIGTERM the JVM's own handler would run the shutdown hooks and then exit with 143 (128 + 15), whatever the
 * hooks do. To report a clean shutdown as exit code 0, TERM and INT get a handler (sun.misc.Signal, in the
 * jdk.unsupported module) that just wakes the main thread, which stops the server and returns normally. The
 * shutdown hook stays as a fallback for everything else (SIGHUP, System.exit elsewhere, or if the handler could
 * not be installed, e.g. under -Xrs); the exit code is then the JVM's (143 on SIGTERM). A second signal while
 * stopping halts at once, for an operator who does not want to wait (the store recovers from its log).
 */
final class ShutdownSignals {
    private static final Logger log = LoggerFactory.getLogger(ShutdownSignals.class);

    private final Runnable stop;
    private boolean stopped;
    private final CountDownLatch signalled = new CountDownLatch(1);
    private final Thread hook;

    private ShutdownSignals(Runnable stop) {
        this.stop = stop;
        this.hook = new Thread(this::stopOnce, "tetradb-shutdown");
    }

    static ShutdownSignals install(Runnable stop) {
        ShutdownSignals s = new ShutdownSignals(stop);
        Runtime.getRuntime().addShutdownHook(s.hook);
        s.handle("TERM");
        s.handle("INT");
        return s;
    }

    private void handle(String name) {
        try {
            Signal.handle(new Signal(name), signal -> {
                if (signalled.getCount() == 0) {
                    Runtime.getRuntime().halt(128 + signal.getNumber());
                }
                signalled.countDown();
            });
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            log.debug("cannot handle SIG{}; the shutdown hook stops the server instead", name, e);
        }
    }

    /** Blocks until a signal arrives, then stops the server on this thread. */
    void awaitAndStop() {
        boolean interrupted = false;
        while (true) {
            try {
                signalled.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // only a signal ends the foreground run
            }
        }
        stopOnce();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down; the hook will find the work done
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Synchronized so that the hook, if the JVM exits meanwhile, waits for a stop already under way. */
    private synchronized void stopOnce() {
        if (!stopped) {
            stopped = true;
            stop.run();
        }
    }
}
