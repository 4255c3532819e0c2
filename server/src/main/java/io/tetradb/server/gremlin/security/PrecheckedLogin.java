package io.tetradb.server.gremlin.security;

import org.apache.tinkerpop.gremlin.server.auth.AuthenticatedUser;
import org.apache.tinkerpop.gremlin.server.auth.AuthenticationException;

import java.util.Arrays;

/**
 * A SASL PLAIN response already checked off the event loop ({@link OffLoopLogin}), handed to the negotiator that
 * Gremlin Server's authentication handler calls on the event loop right after, in the same call: the negotiator
 * takes the verdict instead of hashing the password again there.
 */
final class PrecheckedLogin {
    private static final ThreadLocal<PrecheckedLogin> CURRENT = new ThreadLocal<>();

    private final byte[] response;
    private final AuthenticatedUser user;
    private final AuthenticationException failure;

    private PrecheckedLogin(byte[] response, AuthenticatedUser user, AuthenticationException failure) {
        this.response = response;
        this.user = user;
        this.failure = failure;
    }

    static PrecheckedLogin accepted(byte[] response, AuthenticatedUser user) {
        return new PrecheckedLogin(response, user, null);
    }

    static PrecheckedLogin refused(byte[] response, AuthenticationException failure) {
        return new PrecheckedLogin(response, null, failure);
    }

    /** Runs {@code action} (on the event loop) with this verdict available to {@link #forResponse}. */
    void handOver(Runnable action) {
        CURRENT.set(this);
        try {
            action.run();
        } finally {
            CURRENT.remove();
        }
    }

    /** The verdict handed over for exactly this response, or null (then the negotiator checks it itself). */
    static PrecheckedLogin forResponse(byte[] response) {
        PrecheckedLogin p = CURRENT.get();
        return p != null && Arrays.equals(p.response, response) ? p : null;
    }

    AuthenticatedUser user() throws AuthenticationException {
        if (failure != null) {
            throw failure;
        }
        return user;
    }
}
