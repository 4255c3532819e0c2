package io.tetradb.mongo.command;

import io.tetradb.mongo.auth.UserDirectory;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * {@code killAllSessions} and {@code killAllSessionsByPattern}, as mongod 7.0 runs them: the selected sessions end,
 * their cursors closed, their open transactions aborted and their running commands interrupted ({@link
 * SessionEnding}). A session belongs to the user that started it
 * ({@link SessionOwner}), so {@code killAllSessions: [{user: "ann", db: "app"}]} ends ann's sessions and leaves the
 * others'; {@code []} ends every session. A user that does not exist is 11 UserNotFound (mongod looks each one up).
 * Patterns: {@code {}} (every session), {@code {uid}} (a user's digest), {@code {lsid: {id, uid}}} (one session);
 * {@code users}/{@code roles} in a pattern are mongod's impersonation data, which needs the {@code impersonate}
 * privilege no built-in role but {@code __system} has: refused with 13 when users exist, ignored when none do (mongod
 * without authorization). Cursors opened without a session belong to no session and stay.
 */
final class SessionKills {
    private static final int UID_BYTES = 32;

    private final SessionEnding ending;
    private final UserDirectory users;
    private final BooleanSupplier authorization;

    SessionKills(SessionEnding ending, UserDirectory users, BooleanSupplier authorization) {
        this.ending = ending;
        this.users = users;
        this.authorization = authorization;
    }

    /** {@code {killAllSessions: [{user, db}, …]}}; the empty list ends every session. */
    BsonDocument killAllSessions(BsonDocument cmd) {
        BsonArray list = array(cmd, "killAllSessions", "KillAllSessionsCmd");
        if (list.isEmpty()) {
            endAll();
            return Replies.ok();
        }
        Set<SessionOwner> owners = new HashSet<>();
        for (BsonValue v : list) {
            owners.add(existingUser(v, "KillAllSessionsUser"));
        }
        ending.kill((session, owner) -> owners.contains(owner));
        return Replies.ok();
    }

    /** {@code {killAllSessionsByPattern: [{uid}, {lsid: {id, uid}}, {}, …]}}; the empty list ends every session. */
    BsonDocument killAllSessionsByPattern(BsonDocument cmd) {
        BsonArray list = array(cmd, "killAllSessionsByPattern", "KillAllSessionsByPatternCmd");
        List<Pattern> patterns = new ArrayList<>();
        for (BsonValue v : list) {
            patterns.add(pattern(v));
        }
        if (list.isEmpty() || patterns.stream().anyMatch(p -> p.uid() == null && p.lsid() == null)) {
            endAll();
            return Replies.ok();
        }
        ending.kill((session, owner) -> patterns.stream().anyMatch(p -> p.matches(session, owner)));
        return Replies.ok();
    }

    private void endAll() {
        ending.kill((session, owner) -> true);
    }

    /** One pattern: {@code uid} (32 bytes) or {@code lsid} ({@code id} a UUID, {@code uid} its user's digest). */
    private Pattern pattern(BsonValue v) {
        if (!v.isDocument()) {
            throw wrongType("KillAllSessionsByPatternCmd.killAllSessionsByPattern", v, "object");
        }
        BsonDocument d = v.asDocument();
        byte[] uid = null;
        BsonValue lsid = null;
        for (String k : d.keySet()) {
            BsonValue f = d.get(k);
            switch (k) {
                case "uid" -> uid = digest(f, "KillAllSessionsByPattern.uid");
                case "lsid" -> {
                    if (!f.isDocument()) {
                        throw wrongType("KillAllSessionsByPattern.lsid", f, "object");
                    }
                    BsonDocument l = f.asDocument();
                    for (String lk : l.keySet()) {
                        if (!lk.equals("id") && !lk.equals("uid")) {
                            throw new MongoError(ErrorCode.IDL_UNKNOWN_FIELD, "BSON field 'LogicalSessionId." + lk
                                    + "' is an unknown field.");
                        }
                    }
                    if (!l.containsKey("id") || !l.containsKey("uid")) {
                        throw new MongoError(ErrorCode.IDL_MISSING_FIELD, "BSON field 'LogicalSessionId."
                                + (l.containsKey("id") ? "uid" : "id") + "' is missing but a required field");
                    }
                    if (!l.get("id").isBinary() || l.get("id").asBinary().getData().length != 16) {
                        throw wrongType("LogicalSessionId.id", l.get("id"), "uuid");
                    }
                    lsid = l.get("id");
                    byte[] lsidUid = digest(l.get("uid"), "LogicalSessionId.uid");
                    if (uid != null && !Arrays.equals(uid, lsidUid)) {
                        return Pattern.NONE; // two different users: no session is both
                    }
                    uid = lsidUid;
                }
                case "users", "roles" -> {
                    if (!f.isArray()) {
                        throw wrongType("KillAllSessionsByPattern." + k, f, "array");
                    }
                    if (authorization.getAsBoolean()) {
                        throw new MongoError(ErrorCode.UNAUTHORIZED,
                                "Not authorized to impersonate in killAllSessionsByPattern");
                    }
                }
                default -> throw new MongoError(ErrorCode.IDL_UNKNOWN_FIELD, "BSON field 'KillAllSessionsByPattern."
                        + k + "' is an unknown field.");
            }
        }
        return new Pattern(uid, lsid);
    }

    /** Sessions of the user with digest {@code uid} (any when null), only {@code lsid} when given. */
    private record Pattern(byte[] uid, BsonValue lsid) {
        static final Pattern NONE = new Pattern(new byte[0], null);

        boolean matches(BsonValue session, SessionOwner owner) {
            return (lsid == null || lsid.equals(session)) && (uid == null || Arrays.equals(uid, owner.uid()));
        }
    }

    private SessionOwner existingUser(BsonValue v, String type) {
        if (!v.isDocument()) {
            throw wrongType("KillAllSessionsCmd.killAllSessions", v, "object");
        }
        BsonDocument d = v.asDocument();
        for (String k : d.keySet()) {
            if (!k.equals("user") && !k.equals("db")) {
                throw new MongoError(ErrorCode.IDL_UNKNOWN_FIELD, "BSON field '" + type + "." + k
                        + "' is an unknown field.");
            }
        }
        for (String k : List.of("user", "db")) {
            if (!d.containsKey(k)) {
                throw new MongoError(ErrorCode.IDL_MISSING_FIELD, "BSON field '" + type + "." + k
                        + "' is missing but a required field");
            }
            if (!d.get(k).isString()) {
                throw wrongType(type + "." + k, d.get(k), "string");
            }
        }
        String user = d.getString("user").getValue();
        String db = d.getString("db").getValue();
        if (!users.exists(db, user)) {
            throw new MongoError(ErrorCode.USER_NOT_FOUND, "Could not find user \"" + user + "\" for db \"" + db
                    + "\"");
        }
        return SessionOwner.of(user, db);
    }

    private static BsonArray array(BsonDocument cmd, String field, String type) {
        BsonValue v = cmd.get(field);
        if (!v.isArray()) {
            throw wrongType(type + "." + field, v, "array");
        }
        return v.asArray();
    }

    private static byte[] digest(BsonValue v, String field) {
        if (!v.isBinary()) {
            throw wrongType(field, v, "binData");
        }
        BsonBinary b = v.asBinary();
        if (b.getData().length != UID_BYTES) {
            throw new MongoError(ErrorCode.BAD_VALUE, "Unsupported SHA256Block hash length: " + b.getData().length);
        }
        return b.getData();
    }

    private static MongoError wrongType(String field, BsonValue v, String expected) {
        return new MongoError(ErrorCode.TYPE_MISMATCH, "BSON field '" + field + "' is the wrong type '"
                + io.tetradb.mongo.bson.BsonTypeNames.name(v) + "', expected type '" + expected + "'");
    }
}
