package io.tetradb.table.http;

import io.tetradb.table.model.TableException;
import io.tetradb.table.store.AccessPolicies.SignedIdentifier;

import java.security.MessageDigest;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Locale;

/**
 * Service shared access signatures for one table ({@code tn}, {@code sp}, {@code st}, {@code se}, {@code sv},
 * {@code spk/srk/epk/erk}, {@code sig}), signed with the account key:
 * <pre>
 * sp \n st \n se \n /table/account/tablename \n si \n sip \n spr \n sv \n spk \n srk \n epk \n erk
 * </pre>
 * Permissions: {@code r} get and query, {@code a} insert (and upsert), {@code u} update, merge (and upsert),
 * {@code d} delete; each operation of a {@code $batch} is checked against them as it would be alone
 * ({@link #checkBatchOperation}). Key ranges bound point operations and a batch's operations; a query under a SAS
 * with key ranges is refused (not narrowed). A SAS parameter given twice is 403 {@code AuthenticationFailed}. A SAS
 * for https only is refused (this endpoint speaks http); the signed IP range is not checked. A service SAS may name a
 * stored access policy of its table ({@code si}): the policy gives the start, expiry and permissions the SAS leaves
 * out (giving one in both is refused, as in Azure), and changing or removing the policy changes or revokes every SAS
 * that names it at once. Account SAS ({@code ss}, {@code srt}) is checked by {@link #checkAccountSas}.
 */
final class SasAuth {
    private final SharedKeyAuth keys;
    private final PolicyLookup policies;

    /** A table's stored access policies (empty when the table does not exist). */
    interface PolicyLookup {
        java.util.List<SignedIdentifier> policies(String account, String table);
    }

    /** What a service SAS grants once its stored access policy (if any) is applied. */
    private record Terms(String permissions, String start, String expiry) {
    }

    SasAuth(SharedKeyAuth keys, PolicyLookup policies) {
        this.keys = keys;
        this.policies = policies;
    }

    /** The query parameters a SAS is made of; Azure refuses a SAS that repeats one. */
    private static final java.util.Set<String> SAS_PARAMETERS = java.util.Set.of("sv", "ss", "srt", "sp", "se", "st",
            "spr", "sip", "si", "sig", "tn", "spk", "srk", "epk", "erk", "ses");

    static void refuseRepeatedParameters(ApiRequest r) {
        for (String name : SAS_PARAMETERS) {
            java.util.List<String> values = r.query().get(name);
            if (values != null && values.size() > 1) {
                throw SharedKeyAuth.failed("Server failed to authenticate the request. The shared access signature "
                        + "repeats the parameter " + name + ".");
            }
        }
    }

    void check(ApiRequest r, ResourcePath p) {
        if (r.param("ss") != null) {
            checkAccountSas(r, p);
            return;
        }
        String tn = r.param("tn");
        if (tn == null) {
            throw SharedKeyAuth.failed("only service SAS for one table (tn=...) is supported");
        }
        String toSign = String.join("\n", orEmpty(r.param("sp")), orEmpty(r.param("st")), orEmpty(r.param("se")),
                ("/table/" + p.account() + "/" + tn).toLowerCase(Locale.ROOT), orEmpty(r.param("si")),
                orEmpty(r.param("sip")), orEmpty(r.param("spr")), orEmpty(r.param("sv")), orEmpty(r.param("spk")),
                orEmpty(r.param("srk")), orEmpty(r.param("epk")), orEmpty(r.param("erk")));
        verifySignature(r, p, toSign);
        Terms terms = terms(r, p.account(), tn);
        checkTerms(r, terms);
        String sp = terms.permissions();
        boolean table = p.table() != null && p.table().equalsIgnoreCase(tn);
        String needed = switch (p.kind()) {
            case ENTITIES, ENTITY, BATCH -> entityPermissions(r, p);
            default -> null;
        };
        if (needed == null || (!table && p.kind() != ResourcePath.Kind.BATCH)) {
            throw new TableException(403, "AuthorizationResourceTypeMismatch",
                    "This request is not authorized to perform this operation using this resource type.");
        }
        requirePermissions(sp, needed);
        boolean ranged = r.param("spk") != null || r.param("epk") != null;
        if (p.kind() == ResourcePath.Kind.BATCH) {
            return; // each operation is checked by checkBatchOperation
        }
        if (ranged && p.kind() == ResourcePath.Kind.ENTITY) {
            if (!inRange(p.partitionKey(), p.rowKey(), r)) {
                throw new TableException(403, "AuthorizationFailure",
                        "This request is not authorized to perform this operation (key out of the SAS range).");
            }
        } else if (ranged) {
            throw new TableException(403, "AuthorizationFailure",
                    "queries and inserts under a SAS with key ranges are not supported");
        }
    }

    /**
     * Account SAS: {@code account \n sp \n ss \n srt \n st \n se \n sip \n spr \n sv \n}; the services must
     * include {@code t}; tables need resource type {@code c} (list {@code l}, create {@code c}/{@code a}/{@code w},
     * delete {@code d}), entities {@code o} (as for a service SAS: {@code r a u d}).
     */
    private void checkAccountSas(ApiRequest r, ResourcePath p) {
        String sp = orEmpty(r.param("sp"));
        String toSign = String.join("\n", p.account(), sp, orEmpty(r.param("ss")), orEmpty(r.param("srt")),
                orEmpty(r.param("st")), orEmpty(r.param("se")), orEmpty(r.param("sip")), orEmpty(r.param("spr")),
                orEmpty(r.param("sv")), "");
        verifySignature(r, p, toSign);
        checkTerms(r, new Terms(sp, r.param("st"), r.param("se")));
        if (!orEmpty(r.param("ss")).contains("t")) {
            throw new TableException(403, "AuthorizationServiceMismatch",
                    "This request is not authorized to perform this operation using this service.");
        }
        String srt = orEmpty(r.param("srt"));
        String type;
        String needed;
        switch (p.kind()) {
            case TABLES -> {
                type = "c";
                needed = r.method().equals("GET") ? "l" : sp.contains("a") || sp.contains("w") ? "" : "c";
            }
            case TABLE -> {
                type = "c";
                needed = r.method().equals("DELETE") ? "d" : "l";
            }
            case ENTITIES, ENTITY, BATCH -> {
                type = "o";
                needed = entityPermissions(r, p);
            }
            default -> throw new TableException(403, "AuthorizationResourceTypeMismatch",
                    "This request is not authorized to perform this operation using this resource type.");
        }
        if (!srt.contains(type)) {
            throw new TableException(403, "AuthorizationResourceTypeMismatch",
                    "This request is not authorized to perform this operation using this resource type.");
        }
        requirePermissions(sp, needed);
    }

    /**
     * The permissions, start and expiry of a service SAS: its own, completed by the stored access policy it names.
     * A policy that does not exist (any more) fails the request, which is how a policy's removal revokes its SASs.
     */
    private Terms terms(ApiRequest r, String account, String table) {
        String si = r.param("si");
        if (si == null) {
            return new Terms(orEmpty(r.param("sp")), r.param("st"), r.param("se"));
        }
        SignedIdentifier policy = policies.policies(account, table).stream().filter(x -> x.id().equals(si))
                .findFirst().orElseThrow(() -> SharedKeyAuth.failed("Server failed to authenticate the request. "
                        + "The stored access policy '" + si + "' does not exist on the table " + table + "."));
        return new Terms(fromOne(r, "sp", policy.permission(), "permissions", si),
                fromOne(r, "st", policy.start(), "start time", si), fromOne(r, "se", policy.expiry(), "expiry", si));
    }

    private static String fromOne(ApiRequest r, String parameter, String fromPolicy, String what, String si) {
        String fromSas = r.param(parameter);
        if (fromSas != null && fromPolicy != null) {
            throw SharedKeyAuth.failed("Server failed to authenticate the request. The " + what + " are given both "
                    + "by the signature (" + parameter + ") and by the stored access policy '" + si + "'.");
        }
        return fromSas != null ? fromSas : fromPolicy;
    }

    private void verifySignature(ApiRequest r, ResourcePath p, String toSign) {
        byte[] given;
        try {
            given = Base64.getDecoder().decode(r.param("sig"));
        } catch (IllegalArgumentException e) {
            throw SharedKeyAuth.failed("the SAS signature is not base64");
        }
        boolean signed = false;
        for (byte[] key : keys.keys(p.account())) { // either of the account's two keys
            signed |= MessageDigest.isEqual(given, SharedKeyAuth.hmac(key, toSign));
        }
        if (!signed) {
            throw SharedKeyAuth.failed("Signature did not match. String to sign used was " + toSign.replace("\n", "\\n"));
        }
    }

    private static void checkTerms(ApiRequest r, Terms terms) {
        Instant now = Instant.now();
        if (terms.expiry() == null || time(terms.expiry()).isBefore(now)) {
            throw SharedKeyAuth.failed("Signed expiry time has passed or is missing");
        }
        if (terms.start() != null && time(terms.start()).isAfter(now)) {
            throw SharedKeyAuth.failed("Signed start time is in the future");
        }
        String protocols = r.param("spr");
        String used = r.https() ? "https" : "http";
        if (protocols != null && !java.util.Arrays.asList(protocols.split(",")).contains(used)) {
            throw new TableException(403, "AuthorizationProtocolMismatch",
                    "This request is not authorized to perform this operation using this protocol (the SAS allows "
                            + protocols + "; this request came over " + used + ").");
        }
    }

    private static String entityPermissions(ApiRequest r, ResourcePath p) {
        return switch (p.kind()) {
            case ENTITIES -> r.method().equals("GET") ? "r" : "a";
            case ENTITY -> switch (r.method()) {
                case "GET" -> "r";
                case "DELETE" -> "d";
                case "PUT", "MERGE", "PATCH" -> r.header("If-Match") == null ? "au" : "u";
                default -> "?";
            };
            case BATCH -> ""; // the operations inside are checked one by one
            default -> "?";
        };
    }

    /**
     * Checks one operation of a {@code $batch} authorised by the SAS of {@code outer} (already verified by
     * {@link #check}): the permissions it needs alone ({@code a} insert, {@code u} update/merge, both for an upsert,
     * {@code d} delete, {@code r} a read), a service SAS's table, and its key range ({@code pk}/{@code rk}: the
     * operation's entity). 403 with Azure's code otherwise.
     */
    void checkBatchOperation(ApiRequest outer, ApiRequest sub, ResourcePath sp, String pk, String rk) {
        boolean account = outer.param("ss") != null;
        String tn = outer.param("tn");
        if (!account && (sp.table() == null || tn == null || !sp.table().equalsIgnoreCase(tn))) {
            throw new TableException(403, "AuthorizationResourceTypeMismatch",
                    "the shared access signature does not grant the table " + sp.table());
        }
        String permissions = account ? orEmpty(outer.param("sp")) : terms(outer, sp.account(), tn).permissions();
        requirePermissions(permissions, entityPermissions(sub, sp));
        if (!account && (outer.param("spk") != null || outer.param("epk") != null) && !inRange(pk, rk, outer)) {
            throw new TableException(403, "AuthorizationFailure",
                    "This request is not authorized to perform this operation (key out of the SAS range).");
        }
    }

    private static void requirePermissions(String sp, String needed) {
        for (char c : needed.toCharArray()) {
            if (sp.indexOf(c) < 0) {
                throw new TableException(403, "AuthorizationPermissionMismatch",
                        "This request is not authorized to perform this operation using this permission.");
            }
        }
    }

    private static boolean inRange(String pk, String rk, ApiRequest r) {
        String spk = r.param("spk");
        String srk = r.param("srk");
        String epk = r.param("epk");
        String erk = r.param("erk");
        if (spk != null) {
            int c = pk.compareTo(spk);
            if (c < 0 || c == 0 && srk != null && rk.compareTo(srk) < 0) {
                return false;
            }
        }
        if (epk != null) {
            int c = pk.compareTo(epk);
            return c < 0 || c == 0 && (erk == null || rk.compareTo(erk) <= 0);
        }
        return true;
    }

    private static Instant time(String s) {
        try {
            return OffsetDateTime.parse(s).toInstant();
        } catch (DateTimeParseException e) {
            throw SharedKeyAuth.failed("the SAS time '" + s + "' is not ISO-8601");
        }
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }
}
