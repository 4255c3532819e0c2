package io.tetradb.server.admin;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Locale;
import java.util.function.Function;

/**
 * Who may read the admin routes ({@code /health}, {@code /api/...}, {@code /partitions}, {@code /metrics}). On a
 * loopback-bound server, anyone on the machine ({@link #open()}); beyond loopback, only a holder of the Cosmos
 * master key ({@link #masterKey}), which it shows in one of two ways:
 * <ul>
 * <li>HTTP basic authentication with the key as the password (any user name): what a browser, {@code curl -u} or a
 * Prometheus {@code basic_auth} scrape sends;</li>
 * <li>a Cosmos master-key {@code Authorization} header ({@code type=master&ver=1.0&sig=…}, the signature over
 * {@code verb\n\n\nx-ms-date\n\n} lower-cased: the resource type and link of a route outside the Cosmos resource
 * model are empty) with an {@code x-ms-date} within 15 minutes, as Cosmos DB checks its own requests.</li>
 * </ul>
 * A refusal is 401 with {@code WWW-Authenticate: Basic realm="TetraDB"} so that a browser asks for the key.
 * The read-only key, shown the same ways, grants reads only ({@link Grant#READ}): every admin route, and the data
 * explorer's read routes, as Cosmos DB's read-only key reads and queries but never writes.
 */
public final class AdminAccess {
    static final String REALM = "Basic realm=\"TetraDB\", charset=\"UTF-8\"";
    private static final Duration SKEW = Duration.ofMinutes(15);

    /** The master key in force, read per request (it may be rotated), or null: open. */
    private final java.util.function.Supplier<String> keyInForce;
    /** The read-only key in force (its supplier may answer null: none). */
    private final java.util.function.Supplier<String> readOnlyKeyInForce;

    /** What a request's credentials allow. */
    public enum Grant { NONE, READ, ALL }

    private AdminAccess(java.util.function.Supplier<String> keyInForce) {
        this(keyInForce, () -> null);
    }

    private AdminAccess(java.util.function.Supplier<String> keyInForce,
                        java.util.function.Supplier<String> readOnlyKeyInForce) {
        this.keyInForce = keyInForce;
        this.readOnlyKeyInForce = readOnlyKeyInForce;
    }

    /** Holders of the master key in force (everything) or of the read-only key in force (reads). */
    public static AdminAccess keys(java.util.function.Supplier<String> masterKey,
                                   java.util.function.Supplier<String> readOnlyKey) {
        return new AdminAccess(masterKey, readOnlyKey);
    }

    /** Everyone (a loopback-bound server). */
    public static AdminAccess open() {
        return new AdminAccess(null);
    }

    /** Holders of {@code base64Key}, the Cosmos master key. */
    public static AdminAccess masterKey(String base64Key) {
        Base64.getDecoder().decode(base64Key);
        return new AdminAccess(() -> base64Key);
    }

    /** Holders of the Cosmos master key in force when a request comes (rotated without a restart). */
    public static AdminAccess masterKey(java.util.function.Supplier<String> base64Key) {
        return new AdminAccess(base64Key);
    }

    public boolean isOpen() {
        return keyInForce == null;
    }

    /** Whether a request with this verb and these headers (looked up by lower-case name) may pass (any key). */
    public boolean allows(String method, Function<String, String> header) {
        return grant(method, header) != Grant.NONE;
    }

    /** What a request with this verb and these headers (looked up by lower-case name) may do. */
    public Grant grant(String method, Function<String, String> header) {
        if (keyInForce == null) {
            return Grant.ALL;
        }
        String auth = header.apply("authorization");
        if (auth == null) {
            return Grant.NONE;
        }
        if (shows(method, auth, header, keyInForce.get())) {
            return Grant.ALL;
        }
        String readOnly = readOnlyKeyInForce.get();
        return readOnly != null && shows(method, auth, header, readOnly) ? Grant.READ : Grant.NONE;
    }

    private static boolean shows(String method, String auth, Function<String, String> header, String keyText) {
        if (auth.regionMatches(true, 0, "Basic ", 0, 6)) {
            return basic(auth.substring(6).strip(), keyText);
        }
        return master(method, auth, header.apply("x-ms-date"), Base64.getDecoder().decode(keyText));
    }

    private static boolean basic(String token, String keyText) {
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(token), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return false;
        }
        int colon = decoded.indexOf(':');
        return colon >= 0 && MessageDigest.isEqual(decoded.substring(colon + 1).getBytes(StandardCharsets.UTF_8),
                keyText.getBytes(StandardCharsets.UTF_8));
    }

    private static boolean master(String method, String header, String date, byte[] key) {
        if (date == null || !fresh(date)) {
            return false;
        }
        String decoded = URLDecoder.decode(header, StandardCharsets.UTF_8);
        String sig = null;
        boolean masterType = false;
        for (String part : decoded.split("&")) {
            if (part.equals("type=master")) {
                masterType = true;
            } else if (part.startsWith("sig=")) {
                sig = part.substring(4);
            }
        }
        if (!masterType || sig == null) {
            return false;
        }
        String payload = method.toLowerCase(Locale.ROOT) + "\n\n\n" + date.toLowerCase(Locale.ROOT) + "\n\n";
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            byte[] expected = mac.doFinal(payload.getBytes(StandardCharsets.UTF_8));
            return MessageDigest.isEqual(Base64.getDecoder().decode(sig), expected);
        } catch (IllegalArgumentException e) {
            return false;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean fresh(String date) {
        try {
            Instant at = ZonedDateTime.parse(date, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            return Duration.between(at, Instant.now()).abs().compareTo(SKEW) <= 0;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return keyInForce == null ? "AdminAccess[open]" : "AdminAccess[master key]";
    }
}
