package io.tetradb.server.gremlin.security;

import org.apache.tinkerpop.gremlin.server.auth.AuthenticatedUser;
import org.apache.tinkerpop.gremlin.server.auth.AuthenticationException;
import org.apache.tinkerpop.gremlin.server.auth.Authenticator;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Gremlin Server's authentication against {@link GremlinCredentials}: SASL PLAIN (what gremlin-driver, the Console's
 * {@code remote-secure.yaml} and the JavaScript and Python drivers send), and the user name/password map of
 * Gremlin Server's HTTP basic handler. Gremlin Server instantiates it by class name; the credentials come in the
 * settings' {@code authentication.config} under {@link #CREDENTIALS} (settings are built in code, not YAML).
 */
public final class GremlinAuthenticator implements Authenticator {
    public static final String CREDENTIALS = "credentials";
    /** Logins waiting for a login thread beyond this are answered 429 at once (a flood hashes no more than this). */
    static final int LOGIN_QUEUE = 256;
    private GremlinCredentials credentials;
    private ThreadPoolExecutor logins;

    @Override
    public boolean requireAuthentication() {
        return true;
    }

    @Override
    public void setup(Map<String, Object> config) {
        if (config == null || !(config.get(CREDENTIALS) instanceof GremlinCredentials c)) {
            throw new IllegalStateException("the Gremlin authenticator needs its credentials in the settings");
        }
        this.credentials = c;
        // half the cores: a flood of logins leaves the event loop and the evaluation threads room to run
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
        AtomicInteger n = new AtomicInteger();
        logins = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(LOGIN_QUEUE),
                r -> {
                    Thread t = new Thread(r, "gremlin-login-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        logins.allowCoreThreadTimeOut(true);
    }

    /** The threads that check logins for {@link OffLoopLogin} (bounded queue: rejects when full). */
    Executor logins() {
        return logins;
    }

    /** Checks a SASL PLAIN response (off the event loop); the verdict goes to the negotiator afterwards. */
    PrecheckedLogin precheck(byte[] response) {
        try {
            return PrecheckedLogin.accepted(response, verifiedPlain(response));
        } catch (AuthenticationException e) {
            return PrecheckedLogin.refused(response, e);
        }
    }

    /** RFC 4616: one message {@code [authzid] NUL authcid NUL passwd}. */
    private AuthenticatedUser verifiedPlain(byte[] response) throws AuthenticationException {
        if (response == null || response.length > 4096) {
            throw new AuthenticationException("SASL PLAIN response missing or too long");
        }
        String text = new String(response, StandardCharsets.UTF_8);
        int first = text.indexOf('\0');
        int second = first < 0 ? -1 : text.indexOf('\0', first + 1);
        if (first < 0 || second < 0 || text.indexOf('\0', second + 1) >= 0) {
            throw new AuthenticationException("SASL PLAIN response malformed");
        }
        return verified(text.substring(first + 1, second), text.substring(second + 1));
    }

    @Override
    public SaslNegotiator newSaslNegotiator(InetAddress remoteAddress) {
        return new PlainNegotiator();
    }

    @Override
    public AuthenticatedUser authenticate(Map<String, String> given) throws AuthenticationException {
        return verified(given.get("username"), given.get("password"));
    }

    private AuthenticatedUser verified(String user, String password) throws AuthenticationException {
        GremlinPrincipal p = credentials.check(user, password);
        if (p == null) {
            // one message for an unknown user and a wrong password, so that names cannot be probed
            throw new AuthenticationException("Username and/or password are incorrect");
        }
        return p;
    }

    /** SASL PLAIN: one message; its verdict comes from {@link OffLoopLogin} when it checked it already. */
    private final class PlainNegotiator implements SaslNegotiator {
        private AuthenticatedUser user;

        @Override
        public byte[] evaluateResponse(byte[] response) throws AuthenticationException {
            PrecheckedLogin checked = PrecheckedLogin.forResponse(response);
            user = checked != null ? checked.user() : verifiedPlain(response);
            return null;
        }

        @Override
        public boolean isComplete() {
            return user != null;
        }

        @Override
        public AuthenticatedUser getAuthenticatedUser() throws AuthenticationException {
            if (user == null) {
                throw new AuthenticationException("SASL negotiation not complete");
            }
            return user;
        }
    }
}
