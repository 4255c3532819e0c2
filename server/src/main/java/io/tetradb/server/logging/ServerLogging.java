package io.tetradb.server.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.joran.spi.JoranException;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.util.StatusPrinter2;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The server process's logging: Logback, configured by the classpath's {@code logback.xml} (async, never blocking,
 * repeats limited: see there), or by {@code DATA/logback.xml} when the data directory has one, or by
 * {@code -Dlogback.configurationFile} (which wins; Logback reads it itself); {@code --log-level} then sets the root
 * level. java.util.logging (and {@code System.Logger}, commons-logging through it) is routed into the same appender,
 * and so are uncaught exceptions, which the JVM would otherwise print to stderr on the failing thread.
 */
public final class ServerLogging {
    public static final String DATA_DIR_CONFIG = "logback.xml";

    private ServerLogging() {
    }

    /** Called by {@code tetradb start} before the server opens; an unusable file or level is a usage error. */
    public static void configure(Path dataDir, String rootLevel) {
        LoggerContext context = context();
        if (context == null) {
            return; // another slf4j binding (a test's classpath): leave it alone
        }
        Path file = dataDir.toAbsolutePath().normalize().resolve(DATA_DIR_CONFIG);
        if (System.getProperty("logback.configurationFile") == null && Files.isRegularFile(file)) {
            context.reset();
            JoranConfigurator configurator = new JoranConfigurator();
            configurator.setContext(context);
            try {
                configurator.doConfigure(file.toFile());
            } catch (JoranException e) {
                // the status list below says what was wrong
            }
            if (context.getStatusManager().getCopyOfStatusList().stream()
                    .anyMatch(s -> s.getLevel() == Status.ERROR)) {
                new StatusPrinter2().printInCaseOfErrorsOrWarnings(context);
                throw new IllegalArgumentException(file + " is not a usable Logback configuration (errors above)");
            }
        }
        if (rootLevel != null) {
            Level level = Level.toLevel(rootLevel, null);
            if (level == null || !level.levelStr.equalsIgnoreCase(rootLevel.strip())) {
                throw new IllegalArgumentException("--log-level is trace, debug, info, warn, error or off, not '"
                        + rootLevel + "'");
            }
            context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).setLevel(level);
        }
        if (!SLF4JBridgeHandler.isInstalled()) {
            SLF4JBridgeHandler.removeHandlersForRootLogger(); // JUL's ConsoleHandler writes stderr on the caller
            SLF4JBridgeHandler.install();
        }
        Thread.setDefaultUncaughtExceptionHandler((thread, error) -> LoggerFactory.getLogger("io.tetradb.uncaught")
                .error("uncaught exception in thread {}", thread.getName(), error));
    }

    /** At exit: the queued lines written (Logback waits at most its {@code maxFlushTime}, 1 s, for a stalled stderr). */
    public static void stop() {
        LoggerContext context = context();
        if (context != null) {
            context.stop();
        }
    }

    private static LoggerContext context() {
        ILoggerFactory factory = LoggerFactory.getILoggerFactory();
        return factory instanceof LoggerContext c ? c : null;
    }
}
