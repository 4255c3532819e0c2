package io.tetradb.server;

/** The server could not start; the message is one line meant for the operator, without a stack trace. */
public class StartupException extends RuntimeException {
    public StartupException(String message, Throwable cause) {
        super(message, cause);
    }
}
