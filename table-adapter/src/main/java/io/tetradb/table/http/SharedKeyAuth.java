package io.tetradb.table.http;

import io.tetradb.table.model.TableException;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * Checks a request's {@code Authorization} header: Shared Key and Shared Key Lite in the Table service's flavour.
 * <pre>
 * SharedKey      StringToSign = VERB \n Content-MD5 \n Content-Type \n Date \n CanonicalizedResource
 * SharedKeyLite  StringToSign = Date \n CanonicalizedResource
 * </pre>
 * {@code Date} is {@code x-ms-date} when present, else {@code Date}. The canonicalized resource is
 * {@code /account} + the request's encoded path (+ {@code ?comp=...}); with path-style URLs the path starts with the
 * account again, so the account appears twice ({@code /devstoreaccount1/devstoreaccount1/Tables}), as the SDKs and
 * Azurite compute it; the single form is accepted too. The date must be within 15 minutes of the server's clock. The Java SDK signs Shared Key Lite with an empty date line
 * when it sends {@code x-ms-date}; that form is accepted as well. Anything else is 403 {@code AuthenticationFailed}.
 */
final class SharedKeyAuth {
    /** Azurite's / the storage emulator's well-known account and key. */
    static final String DEV_ACCOUNT = "devstoreaccount1";
    static final String DEV_KEY =
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    private final AccountKeys keys;

    SharedKeyAuth(AccountKeys keys) {
        this.keys = keys;
    }

    boolean knows(String account) {
        return keys.knows(account);
    }

    /** The account's keys (primary, then secondary): a signature made with either is valid. */
    List<byte[]> keys(String account) {
        return keys.keys(account);
    }

    /** Throws 403 AuthenticationFailed unless the request is signed with the key of {@code account}. */
    void check(ApiRequest r, String account) {
        String auth = r.header("Authorization");
        if (auth == null) {
            throw failed("the request carries no Authorization header and no shared access signature");
        }
        int space = auth.indexOf(' ');
        int colon = auth.lastIndexOf(':');
        if (space < 0 || colon < space) {
            throw failed("the Authorization header is malformed");
        }
        String scheme = auth.substring(0, space);
        String signer = auth.substring(space + 1, colon);
        String signature = auth.substring(colon + 1);
        List<byte[]> accountKeys = keys.keys(signer);
        if (accountKeys.isEmpty() || !signer.equals(account)) {
            throw failed("the account " + signer + " is not known here or does not own " + account);
        }
        String msDate = r.header("x-ms-date");
        String date = msDate != null ? msDate : orEmpty(r.header("Date"));
        checkFresh(date);
        List<String> candidates = new ArrayList<>();
        for (String resource : resources(r, signer)) {
            if (scheme.equals("SharedKey")) {
                candidates.add(r.verb().toUpperCase(Locale.ROOT) + "\n" + orEmpty(r.header("Content-MD5")) + "\n"
                        + orEmpty(r.header("Content-Type")) + "\n" + date + "\n" + resource);
            } else if (scheme.equals("SharedKeyLite")) {
                candidates.add(date + "\n" + resource);
                if (msDate != null) {
                    candidates.add("\n" + resource);
                }
            } else {
                throw failed("unsupported authorization scheme " + scheme);
            }
        }
        byte[] given;
        try {
            given = Base64.getDecoder().decode(signature);
        } catch (IllegalArgumentException e) {
            throw failed("the signature is not base64");
        }
        for (byte[] key : accountKeys) {
            for (String c : candidates) {
                if (MessageDigest.isEqual(given, hmac(key, c))) {
                    return;
                }
            }
        }
        throw failed("Server failed to authenticate the request. Make sure the value of Authorization header is "
                + "formed correctly including the signature.");
    }

    /** A signed request is valid for 15 minutes either side of its date, as in Azure (no replays later). */
    private static void checkFresh(String date) {
        java.time.Instant at;
        try {
            at = HttpDates.parse(date);
        } catch (java.time.format.DateTimeParseException e) {
            throw failed("the request needs an x-ms-date (or Date) header in RFC 1123 form, got '" + date + "'");
        }
        if (Math.abs(java.time.Duration.between(at, java.time.Instant.now()).toMinutes()) > 15) {
            throw failed("the request's date " + date + " is more than 15 minutes from the server's time");
        }
    }

    private static List<String> resources(ApiRequest r, String account) {
        String path = r.rawPath().isEmpty() ? "/" : r.rawPath();
        String comp = r.param("comp");
        String suffix = comp == null ? "" : "?comp=" + comp;
        List<String> out = new ArrayList<>();
        out.add("/" + account + path + suffix);
        String prefix = "/" + account;
        if (path.startsWith(prefix + "/") || path.equals(prefix)) {
            String rest = path.substring(prefix.length());
            out.add("/" + account + (rest.isEmpty() ? "/" : rest) + suffix);
        }
        return out;
    }

    static byte[] hmac(byte[] key, String text) {
        return mac(key).doFinal(text.getBytes(StandardCharsets.UTF_8));
    }

    /** Each request thread's initialized HMAC of the last key it used: a Mac is costly to look up and initialize. */
    private static final ThreadLocal<KeyedMac> MACS = new ThreadLocal<>();

    private record KeyedMac(byte[] key, Mac mac) {
    }

    private static Mac mac(byte[] key) {
        KeyedMac m = MACS.get();
        if (m == null || !java.util.Arrays.equals(m.key(), key)) {
            try {
                Mac mac = Mac.getInstance("HmacSHA256");
                mac.init(new SecretKeySpec(key, "HmacSHA256"));
                m = new KeyedMac(key.clone(), mac);
                MACS.set(m);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        }
        return m.mac(); // doFinal resets it for the next use
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }

    static TableException failed(String why) {
        return new TableException(403, "AuthenticationFailed", why);
    }
}
