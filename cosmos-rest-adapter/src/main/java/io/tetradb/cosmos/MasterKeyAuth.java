package io.tetradb.cosmos;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * Cosmos DB master-key authorization: {@code authorization: type=master&ver=1.0&sig=<base64 HMAC-SHA256>} over
 * {@code verb\nresourceType\nresourceLink\nx-ms-date\n\n}, all lower-case except a name-based link. The link rules
 * follow what the SDKs sign (docs/cosmos-rest.md §1): a feed/create path signs its parent link and the last segment
 * as type, a single resource signs its full link; a RID-addressed path signs only its last RID, lower-cased.
 */
final class MasterKeyAuth {
    /** Who signed: the read-write key, or the read-only second key. */
    enum Grant { READ_WRITE, READ_ONLY }

    /** The key pair in force (replaced by a rotation while requests are checked). */
    private final CosmosKeys keys;
    private final Duration skew;
    private final Clock clock;
    /**
     * The last {@code x-ms-date} seen and its instant: an SDK signs many requests with the same second's date, and
     * parsing an RFC 1123 date with {@code DateTimeFormatter} costs more than the HMAC. The skew is still checked
     * against the clock on every request.
     */
    private volatile ParsedDate lastDate;

    private record ParsedDate(String text, Instant at) {
    }

    MasterKeyAuth(String key, String readOnlyKey, Duration skew, Clock clock) {
        this(CosmosKeys.of(key, readOnlyKey), skew, clock);
    }

    MasterKeyAuth(CosmosKeys keys, Duration skew, Clock clock) {
        this.keys = keys;
        this.skew = skew;
        this.clock = clock;
    }

    static byte[] decodeKey(String key) {
        try {
            byte[] k = Base64.getDecoder().decode(key == null ? "" : key.trim());
            if (k.length == 0) {
                throw new IllegalArgumentException("empty");
            }
            return k;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("a Cosmos master key must be non-empty base64", e);
        }
    }

    /** Checks the request's signature and date; 401 or 403 as Cosmos DB answers them. */
    Grant verify(RestRequest r) {
        String auth = r.header("authorization");
        if (auth == null) {
            throw new CosmosError(401, "Required Header authorization is missing. Ensure a valid Authorization "
                    + "token is passed.");
        }
        String date = r.header("x-ms-date");
        if (date == null) {
            date = r.header("date");
        }
        if (date == null) {
            throw new CosmosError(401, "Required Header x-ms-date is missing.");
        }
        checkDate(date);
        String decoded;
        try {
            decoded = URLDecoder.decode(auth.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new CosmosError(401, "The authorization header is not URL-encoded correctly.");
        }
        String type = param(decoded, "type");
        if (type != null && type.equalsIgnoreCase("aad")) {
            // refused on purpose: accepting a JWT unchecked would let anyone in, and checking one needs an Entra ID
            // tenant's signing keys and Cosmos DB data-plane role assignments, neither of which this server has
            throw new CosmosError(401, "Microsoft Entra ID tokens (type=aad) are not accepted by this endpoint: it "
                    + "has no Entra ID tenant to validate them against and no role assignments to authorize them. "
                    + "Sign with the account key (type=master; the SDKs' key(...) option) or use a resource token "
                    + "(type=resource) of a permission.");
        }
        if (type != null && !type.equalsIgnoreCase("master")) {
            throw new CosmosError(401, "The authorization type '" + type + "' is not one of master, resource or aad.");
        }
        String sig = param(decoded, "sig");
        if (sig == null || type == null) {
            throw new CosmosError(401, "The authorization header is not of the form type=master&ver=1.0&sig=...");
        }
        byte[] given;
        try {
            given = Base64.getDecoder().decode(sig.replace(' ', '+'));
        } catch (IllegalArgumentException e) {
            throw new CosmosError(401, "The signature in the authorization header is not base64.");
        }
        String verb = r.method().toLowerCase(Locale.ROOT);
        String dateLower = date.toLowerCase(Locale.ROOT);
        CosmosKeys.Pair pair = keys.current(); // one pair for the whole check
        for (String[] typeAndLink : candidates(r.segments())) {
            byte[] payload = (verb + "\n" + typeAndLink[0] + "\n" + typeAndLink[1] + "\n" + dateLower + "\n\n")
                    .getBytes(StandardCharsets.UTF_8);
            if (MessageDigest.isEqual(given, pair.macs.get().doFinal(payload))) {
                return Grant.READ_WRITE;
            }
            if (pair.readOnlyMacs != null && MessageDigest.isEqual(given, pair.readOnlyMacs.get().doFinal(payload))) {
                return Grant.READ_ONLY;
            }
        }
        throw new CosmosError(401, "The input authorization token can't serve the request. The wrong key is being "
                + "used or the expected payload is not built as per the protocol. Server used the following "
                + "payload to sign: '" + verb + "\\n" + candidates(r.segments()).get(0)[0] + "\\n"
                + candidates(r.segments()).get(0)[1] + "\\n" + dateLower + "\\n\\n'");
    }

    private void checkDate(String date) {
        ParsedDate last = lastDate;
        Instant at;
        if (last != null && last.text().equals(date)) {
            at = last.at();
        } else {
            at = parseDate(date);
            lastDate = new ParsedDate(date, at);
        }
        Duration off = Duration.between(at, clock.instant()).abs();
        if (off.compareTo(skew) > 0) {
            throw new CosmosError(403, "The authorization token is not valid at the current time. Please create "
                    + "another token and retry (token start time: " + date + "; current time: "
                    + DateTimeFormatter.RFC_1123_DATE_TIME.format(clock.instant().atZone(java.time.ZoneOffset.UTC))
                    + "). The allowed clock skew is " + skew.toMinutes() + " minutes.");
        }
    }

    private static Instant parseDate(String date) {
        try {
            return ZonedDateTime.parse(date.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        } catch (DateTimeParseException e) {
            throw new CosmosError(401, "The x-ms-date header '" + date + "' is not an RFC 1123 date.");
        }
    }

    /** A parameter of an authorization header ({@code type=…&ver=…&sig=…}), case-insensitive by name. */
    static String param(String header, String name) {
        for (String part : header.split("&")) {
            int eq = part.indexOf('=');
            if (eq > 0 && part.substring(0, eq).trim().equalsIgnoreCase(name)) {
                return part.substring(eq + 1);
            }
        }
        return null;
    }

    /**
     * The (resourceType, resourceLink) pairs a client may have signed for this path: the name-based form, and for a
     * path whose second segment reads as a database RID also the RID-based one (Java signs those by RID).
     */
    static List<String[]> candidates(List<String> s) {
        int n = s.size();
        if (n == 0) {
            return java.util.Collections.singletonList(new String[]{"", ""});
        }
        String type;
        String link;
        String lastRid;
        if (n % 2 == 1) {
            type = s.get(n - 1);
            link = String.join("/", s.subList(0, n - 1));
            lastRid = n >= 2 ? s.get(n - 2) : "";
        } else {
            type = s.get(n - 2);
            link = String.join("/", s);
            lastRid = s.get(n - 1);
        }
        type = type.toLowerCase(Locale.ROOT);
        if (s.get(0).equalsIgnoreCase("offers")) {
            return java.util.Collections.singletonList(new String[]{type, (n == 1 ? "" : lastRid).toLowerCase(Locale.ROOT)});
        }
        if (n == 6 && s.get(4).equals("operations")) {
            String coll = String.join("/", s.subList(0, 4));
            // Java signs a container operation (partitionkeydelete) as a request on the container itself
            return java.util.Collections.singletonList(new String[]{"colls", coll});
        }
        if (n >= 2 && s.get(0).equals("dbs") && ResourceIds.isDatabaseRid(s.get(1))) {
            return List.of(new String[]{type, lastRid.toLowerCase(Locale.ROOT)}, new String[]{type, link});
        }
        return java.util.Collections.singletonList(new String[]{type, link});
    }

    static byte[] hmac(byte[] key, String payload) {
        return newMac(key).doFinal(payload.getBytes(StandardCharsets.UTF_8));
    }

    static Mac newMac(byte[] key) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The header value a client sends: what the SDKs compute (used by tests and known-answer checks). */
    static String sign(String key, String verb, String resourceType, String link, String date) {
        String payload = verb.toLowerCase(Locale.ROOT) + "\n" + resourceType.toLowerCase(Locale.ROOT) + "\n" + link
                + "\n" + date.toLowerCase(Locale.ROOT) + "\n\n";
        return Base64.getEncoder().encodeToString(hmac(decodeKey(key), payload));
    }
}
