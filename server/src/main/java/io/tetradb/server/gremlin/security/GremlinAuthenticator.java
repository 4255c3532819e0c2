package io.tetradb.server.gremlin.security;

import org.apache.tinkerpop.gremlin.server.auth.AuthenticatedUser;
import org.apache.tinkerpop.gremlin.server.auth.AuthenticationException;
import org.apache.tinkerpop.gremlin.server.auth.Authenticator;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Gremlin Server's authentication against {@link GremlinCredentials}: SASL PLAIN (what gremlin-driver, the Console's
 * {@code remote-secure.yaml} and the JavaScript and Python drivers send), and the user name/password map of
 * Gremlin Server's HTTP basic handler. Gremlin Server instantiates it by class name; the credentials come in the
 * settings' {@code authentication.config} under {@link #CREDENTIALS} (settings are built in code, not YAML).
 */
public final class GremlinAuthenticator implements Authenticator {
    public static final String CREDENTIALS = "credentials";
    private GremlinCredentials credentials;

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

    /** RFC 4616: one message {@code [authzid] NUL authcid NUL passwd}. */
    private final class PlainNegotiator implements SaslNegotiator {
        private AuthenticatedUser user;

        @Override
        public byte[] evaluateResponse(byte[] response) throws AuthenticationException {
            if (response == null || response.length > 4096) {
                throw new AuthenticationException("SASL PLAIN response missing or too long");
            }
            String text = new String(response, StandardCharsets.UTF_8);
            int first = text.indexOf('\0');
            int second = first < 0 ? -1 : text.indexOf('\0', first + 1);
            if (first < 0 || second < 0 || text.indexOf('\0', second + 1) >= 0) {
                throw new AuthenticationException("SASL PLAIN response malformed");
            }
            user = verified(text.substring(first + 1, second), text.substring(second + 1));
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
