package io.tetradb.cosmos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;

/**
 * Resource tokens ({@code _token} of a permission): {@code type=resource&ver=1.0&sig=<claims>;<mac>;}, where the
 * claims (database RID, user, permission, the permission's etag, mode, container RID, item id, partition key, issue
 * and expiry times) are base64url JSON and the mac is HMAC-SHA256 over them with a secret derived from the master
 * key. Nobody without the master key can make or alter one; changing the master key invalidates every token. The
 * clients treat the token as opaque (they send it URL-encoded as the whole {@code authorization} header).
 */
final class ResourceTokens {
    static final String PREFIX = "type=resource&ver=1.0&sig=";
    static final String EXPIRY_HEADER = "x-ms-documentdb-expiry-seconds";
    /** Cosmos DB's default validity, and its documented maximum (5 h) and observed minimum (10 min). */
    static final int DEFAULT_SECONDS = 3600;
    static final int MAX_SECONDS = 5 * 3600;
    static final int MIN_SECONDS = 600;
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    /** The secret is derived from the master key in force: a rotated key invalidates every earlier token. */
    private final CosmosKeys keys;
    private final Clock clock;

    ResourceTokens(String masterKey, Clock clock) {
        this(CosmosKeys.of(masterKey, null), clock);
    }

    ResourceTokens(CosmosKeys keys, Clock clock) {
        this.keys = keys;
        this.clock = clock;
    }

    /** What a token grants: one container (or one item of it), read or all, optionally one partition key. */
    /**
     * {@code collRid} null: the whole database; {@code item} one item; {@code child} one script or conflict of the
     * container, as {@code <sprocs|triggers|udfs|conflicts>/<id>}.
     */
    record Claims(String dbRid, String user, String permission, String permissionEtag, boolean all, String collRid,
                  String item, String child, JsonNode partitionKey, long issued, long expires) {
    }

    /** Whether the (URL-encoded) authorization header carries a resource token rather than a master-key signature. */
    static boolean isResourceToken(String header) {
        if (header == null) {
            return false;
        }
        String h = decode(header);
        return h != null && h.regionMatches(true, 0, "type=resource&", 0, "type=resource&".length());
    }

    /** The validity a permission request asks for ({@code x-ms-documentdb-expiry-seconds}); 400 outside Cosmos's range. */
    static int expirySeconds(RestRequest r) {
        String v = r.header(EXPIRY_HEADER);
        if (v == null) {
            return DEFAULT_SECONDS;
        }
        try {
            int s = Integer.parseInt(v.trim());
            if (s >= MIN_SECONDS && s <= MAX_SECONDS) {
                return s;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw CosmosError.badRequest("Value '" + v + "' specified for the header '" + EXPIRY_HEADER + "' is invalid: "
                + "a resource token is valid for " + MIN_SECONDS + " to " + MAX_SECONDS + " seconds (10 minutes to 5 "
                + "hours; " + DEFAULT_SECONDS + " by default).");
    }

    String mint(String dbRid, String user, String permission, String permissionEtag, boolean all, String collRid,
                String item, String child, JsonNode partitionKey, int seconds) {
        long now = clock.instant().getEpochSecond();
        ObjectNode c = Json.object();
        c.put("db", dbRid).put("u", user).put("p", permission).put("e", permissionEtag).put("m", all ? "All" : "Read");
        if (collRid != null) {
            c.put("c", collRid);
        }
        if (item != null) {
            c.put("i", item);
        }
        if (child != null) {
            c.put("ch", child);
        }
        if (partitionKey != null) {
            c.set("k", partitionKey);
        }
        c.put("iat", now).put("exp", now + seconds);
        byte[] claims = Json.bytes(c);
        return PREFIX + B64.encodeToString(claims) + ";" + B64.encodeToString(mac(claims))
                + ";";
    }

    /** The claims of a token this server made and that has not expired; 401 otherwise, as Cosmos DB answers. */
    Claims verify(String header) {
        String h = decode(header);
        String sig = h == null ? null : MasterKeyAuth.param(h, "sig");
        String[] parts = sig == null ? new String[0] : sig.split(";");
        if (parts.length != 2) {
            throw invalid();
        }
        byte[] claims;
        byte[] mac;
        try {
            claims = Base64.getUrlDecoder().decode(parts[0]);
            mac = Base64.getUrlDecoder().decode(parts[1]);
        } catch (IllegalArgumentException e) {
            throw invalid();
        }
        if (!MessageDigest.isEqual(mac, mac(claims))) {
            throw invalid();
        }
        JsonNode c;
        try {
            c = Json.MAPPER.readTree(claims);
        } catch (IOException e) {
            throw invalid();
        }
        long now = clock.instant().getEpochSecond();
        long issued = c.path("iat").asLong();
        long expires = c.path("exp").asLong();
        if (now >= expires || now < issued - 300) {
            throw new CosmosError(401, "The authorization token is not valid at the current time. Please create "
                    + "another token and retry (token start time: " + http(issued) + ", token expiry time: "
                    + http(expires) + ", current server time: " + http(now) + ").");
        }
        return new Claims(c.path("db").asText(), c.path("u").asText(), c.path("p").asText(), c.path("e").asText(),
                c.path("m").asText().equals("All"), c.hasNonNull("c") ? c.get("c").asText() : null,
                c.hasNonNull("i") ? c.get("i").asText() : null, c.hasNonNull("ch") ? c.get("ch").asText() : null,
                c.get("k"), issued, expires);
    }

    private byte[] mac(byte[] claims) {
        try {
            javax.crypto.Mac m = javax.crypto.Mac.getInstance("HmacSHA256");
            m.init(new javax.crypto.spec.SecretKeySpec(keys.current().tokenSecret, "HmacSHA256"));
            return m.doFinal(claims);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static CosmosError invalid() {
        return new CosmosError(401, "The input authorization token can't serve the request. Please check that the "
                + "expected payload is built as per the protocol, and check the key being used.");
    }

    private static String http(long epochSeconds) {
        return DateTimeFormatter.RFC_1123_DATE_TIME.format(Instant.ofEpochSecond(epochSeconds).atZone(ZoneOffset.UTC));
    }

    private static String decode(String header) {
        try {
            return URLDecoder.decode(header.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
