package io.tetradb.mongo.command;

import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.types.ObjectId;

import java.util.List;

/**
 * The one-member replica set this server presents (see {@link AdminCommands#hello}): its name, its only member (the
 * address the client reached, always PRIMARY, elected once at start in term 1), and what {@code hello},
 * {@code replSetGetStatus} ({@code rs.status()}), {@code replSetGetConfig} ({@code rs.conf()}) and
 * {@code serverStatus.repl} say about it — the same facts in each.
 */
final class ReplicaSet {
    static final String NAME = "tetradb";
    static final int VERSION = 1;
    static final long TERM = 1;
    /** Fixed, as a set's id stays the same across its members' restarts. */
    static final ObjectId REPLICA_SET_ID = new ObjectId("7e7da0000000000000000001");
    static final ObjectId ELECTION_ID = new ObjectId("7fffffff0000000000000001");
    private static final long STARTED = System.currentTimeMillis();
    /** The election at start: the member has been primary since then. */
    private static final BsonTimestamp ELECTION_TIME = new BsonTimestamp((int) (STARTED / 1000), 1);

    private ReplicaSet() {
    }

    /** This member's {@code host:port} as the connection reached it. */
    static String me(CommandContext ctx) {
        return ctx.connection().local() != null ? ctx.connection().local() : "localhost:27017";
    }

    /** The last applied (and majority-committed: there is one member) operation time: now. */
    static BsonDocument opTime(long now) {
        return new BsonDocument("ts", new BsonTimestamp((int) (now / 1000), 1)).append("t", new BsonInt64(TERM));
    }

    /** {@code replSetGetStatus} of the one member, as a MongoDB 7.0 primary answers it. */
    static BsonDocument status(CommandContext ctx) {
        adminOnly(ctx, "replSetGetStatus");
        long now = System.currentTimeMillis();
        BsonDocument opTime = opTime(now);
        BsonDateTime wall = new BsonDateTime(now);
        BsonDocument member = new BsonDocument("_id", new BsonInt32(0))
                .append("name", new BsonString(me(ctx)))
                .append("health", new BsonDouble(1))
                .append("state", new BsonInt32(1))
                .append("stateStr", new BsonString("PRIMARY"))
                .append("uptime", new BsonInt32((int) ((now - STARTED) / 1000)))
                .append("optime", opTime)
                .append("optimeDate", wall)
                .append("lastAppliedWallTime", wall)
                .append("lastDurableWallTime", wall)
                .append("syncSourceHost", new BsonString(""))
                .append("syncSourceId", new BsonInt32(-1))
                .append("infoMessage", new BsonString(""))
                .append("electionTime", ELECTION_TIME)
                .append("electionDate", new BsonDateTime(STARTED))
                .append("configVersion", new BsonInt32(VERSION))
                .append("configTerm", new BsonInt32((int) TERM))
                .append("self", BsonBoolean.TRUE)
                .append("lastHeartbeatMessage", new BsonString(""));
        return Replies.ok(new BsonDocument("set", new BsonString(NAME))
                .append("date", wall)
                .append("myState", new BsonInt32(1))
                .append("term", new BsonInt64(TERM))
                .append("syncSourceHost", new BsonString(""))
                .append("syncSourceId", new BsonInt32(-1))
                .append("heartbeatIntervalMillis", new BsonInt64(2000))
                .append("majorityVoteCount", new BsonInt32(1))
                .append("writeMajorityCount", new BsonInt32(1))
                .append("votingMembersCount", new BsonInt32(1))
                .append("writableVotingMembersCount", new BsonInt32(1))
                .append("optimes", new BsonDocument("lastCommittedOpTime", opTime)
                        .append("lastCommittedWallTime", wall)
                        .append("readConcernMajorityOpTime", opTime)
                        .append("appliedOpTime", opTime)
                        .append("durableOpTime", opTime)
                        .append("lastAppliedWallTime", wall)
                        .append("lastDurableWallTime", wall))
                .append("lastStableRecoveryTimestamp", opTime.get("ts"))
                .append("members", new BsonArray(List.of(member))));
    }

    /** {@code replSetGetConfig}: the set's configuration (one voting member, MongoDB's default settings). */
    static BsonDocument config(CommandContext ctx) {
        adminOnly(ctx, "replSetGetConfig");
        BsonDocument member = new BsonDocument("_id", new BsonInt32(0))
                .append("host", new BsonString(me(ctx)))
                .append("arbiterOnly", BsonBoolean.FALSE)
                .append("buildIndexes", BsonBoolean.TRUE)
                .append("hidden", BsonBoolean.FALSE)
                .append("priority", new BsonDouble(1))
                .append("tags", new BsonDocument())
                .append("secondaryDelaySecs", new BsonInt64(0))
                .append("votes", new BsonInt32(1));
        BsonDocument settings = new BsonDocument("chainingAllowed", BsonBoolean.TRUE)
                .append("heartbeatIntervalMillis", new BsonInt32(2000))
                .append("heartbeatTimeoutSecs", new BsonInt32(10))
                .append("electionTimeoutMillis", new BsonInt32(10000))
                .append("catchUpTimeoutMillis", new BsonInt32(-1))
                .append("catchUpTakeoverDelayMillis", new BsonInt32(30000))
                .append("getLastErrorModes", new BsonDocument())
                .append("getLastErrorDefaults", new BsonDocument("w", new BsonInt32(1))
                        .append("wtimeout", new BsonInt32(0)))
                .append("replicaSetId", new BsonObjectId(REPLICA_SET_ID));
        return Replies.ok(new BsonDocument("config", new BsonDocument("_id", new BsonString(NAME))
                .append("version", new BsonInt32(VERSION))
                .append("term", new BsonInt32((int) TERM))
                .append("members", new BsonArray(List.of(member)))
                .append("protocolVersion", new BsonInt64(1))
                .append("writeConcernMajorityJournalDefault", BsonBoolean.TRUE)
                .append("settings", settings)));
    }

    /** The replica set facts of {@code hello} (and {@code serverStatus.repl}). */
    static void describe(CommandContext ctx, BsonDocument d, BsonDocument topologyVersion) {
        String me = me(ctx);
        d.append("topologyVersion", topologyVersion);
        d.append("hosts", new BsonArray(List.of(new BsonString(me))));
        d.append("setName", new BsonString(NAME));
        d.append("setVersion", new BsonInt32(VERSION));
        d.append("primary", new BsonString(me));
        d.append("secondary", BsonBoolean.FALSE);
        d.append("me", new BsonString(me));
        d.append("electionId", new BsonObjectId(ELECTION_ID));
        long now = System.currentTimeMillis();
        BsonDocument opTime = opTime(now);
        d.append("lastWrite", new BsonDocument("opTime", opTime).append("lastWriteDate", new BsonDateTime(now))
                .append("majorityOpTime", opTime).append("majorityWriteDate", new BsonDateTime(now)));
    }

    private static void adminOnly(CommandContext ctx, String command) {
        if (!ctx.database().equals("admin")) {
            throw new MongoError(ErrorCode.UNAUTHORIZED, command + " may only be run against the admin database.");
        }
    }
}
