package io.tetradb.mongo.command;

import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.CoreStore;
import io.tetradb.core.store.DatabaseDefinition;
import io.tetradb.core.store.ThroughputCatalog;
import io.tetradb.core.throughput.ThroughputSettings;
import io.tetradb.mongo.bson.DocumentMapper;
import io.tetradb.mongo.store.MongoCatalog;
import io.tetradb.mongo.store.MongoCollection;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.BsonValue;

/**
 * Cosmos DB's API for MongoDB extension commands for throughput: {@code db.runCommand({customAction: ...})} with
 * CreateDatabase, UpdateDatabase, GetDatabase, CreateCollection, UpdateCollection and GetCollection, taking
 * {@code offerThroughput} or {@code autoScaleSettings: {maxThroughput}} (and {@code shardKey} for collections), with
 * the replies Cosmos DB documents ({@code {ok: 1}}, or the database/collection with {@code provisionedThroughput} and
 * {@code autoScaleSettings}; an autoscale resource reports the 10 % floor as {@code provisionedThroughput}).
 */
final class CustomActionCommands {
    private final MongoCatalog catalog;

    CustomActionCommands(MongoCatalog catalog) {
        this.catalog = catalog;
    }

    void register(CommandDispatcher d) {
        d.register("customAction", this::run);
    }

    private BsonDocument run(CommandContext ctx, BsonDocument cmd) {
        String action = Args.string(cmd, "customAction");
        String db = ctx.database();
        return switch (action) {
            case "CreateDatabase" -> createDatabase(db, cmd);
            case "UpdateDatabase" -> updateDatabase(db, cmd);
            case "GetDatabase" -> getDatabase(db);
            case "CreateCollection" -> createCollection(db, cmd);
            case "UpdateCollection" -> updateCollection(db, cmd);
            case "GetCollection" -> getCollection(db, cmd);
            default -> throw new MongoError(ErrorCode.COMMAND_NOT_FOUND, "customAction '" + action + "' is not one of "
                    + "CreateDatabase, UpdateDatabase, GetDatabase, CreateCollection, UpdateCollection, GetCollection");
        };
    }

    private CoreStore store() {
        return catalog.store();
    }

    /** The throughput a command asks for, or null when it names none. */
    private static ThroughputSettings throughput(BsonDocument cmd) {
        ThroughputSettings s = null;
        if (cmd.containsKey("autoScaleSettings")) {
            BsonDocument auto = Args.document(cmd, "autoScaleSettings");
            BsonValue max = auto.get("maxThroughput");
            if (max == null || !max.isNumber()) {
                throw new MongoError(ErrorCode.BAD_VALUE, "autoScaleSettings needs a numeric maxThroughput");
            }
            s = ThroughputSettings.autoscale(max.asNumber().intValue());
        }
        if (cmd.containsKey("offerThroughput")) {
            if (s != null) {
                throw new MongoError(ErrorCode.BAD_VALUE, "give either offerThroughput or autoScaleSettings, not both");
            }
            BsonValue v = cmd.get("offerThroughput");
            if (!v.isNumber()) {
                throw new MongoError(ErrorCode.BAD_VALUE, "offerThroughput must be a number");
            }
            s = ThroughputSettings.manual(v.asNumber().intValue());
        }
        if (s != null && s.validationError() != null) {
            throw new MongoError(ErrorCode.BAD_VALUE, s.validationError());
        }
        return s;
    }

    private BsonDocument createDatabase(String db, BsonDocument cmd) {
        ThroughputSettings s = throughput(cmd);
        try {
            DatabaseDefinition d = store().createDatabase(db, s == null ? null : s.maxRuPerSecond());
            if (s != null && s.isAutoscale()) {
                store().throughput().recordDatabase(d, s);
            }
        } catch (StoreException e) {
            if (e.status() == Status.CONFLICT) {
                throw new MongoError(ErrorCode.NAMESPACE_EXISTS, "Database " + db + " already exists.");
            }
            throw e;
        }
        return Replies.ok();
    }

    private BsonDocument updateDatabase(String db, BsonDocument cmd) {
        ThroughputSettings s = required(cmd);
        store().throughput().replaceDatabase(db, s);
        return Replies.ok();
    }

    private BsonDocument getDatabase(String db) {
        DatabaseDefinition d = store().readDatabase(db);
        BsonDocument out = new BsonDocument("database", new BsonString(db));
        ThroughputSettings s = store().throughput().database(d);
        if (s != null) {
            describe(out, s, store().rateLimiter().currentThroughput(s, store().rateLimiter().databaseBudgets(d)));
        }
        return Replies.ok(out);
    }

    private BsonDocument createCollection(String db, BsonDocument cmd) {
        String name = Args.string(cmd, "collection");
        ThroughputSettings s = throughput(cmd);
        String shardKey = cmd.containsKey("shardKey") ? Args.string(cmd, "shardKey") : null;
        if (s != null && s.maxRuPerSecond() > ThroughputSettings.MAX_PER_PARTITION && shardKey == null) {
            throw new MongoError(ErrorCode.BAD_VALUE, "a collection with more than "
                    + ThroughputSettings.MAX_PER_PARTITION + " RU/s needs a shardKey");
        }
        if (catalog.collection(db, name) != null) {
            throw new MongoError(ErrorCode.NAMESPACE_EXISTS, "Collection " + db + "." + name + " already exists.");
        }
        Integer ru = s == null ? null : s.maxRuPerSecond();
        if (shardKey != null) {
            catalog.shard(db, name, shardKey, ru);
        } else {
            catalog.create(db, name, true, ru);
        }
        if (s != null && s.isAutoscale()) {
            store().throughput().recordContainer(store().container(db, name), s);
        }
        return Replies.ok();
    }

    private BsonDocument updateCollection(String db, BsonDocument cmd) {
        String name = Args.string(cmd, "collection");
        ThroughputSettings s = required(cmd);
        existing(db, name);
        store().throughput().replaceContainer(db, name, s);
        return Replies.ok();
    }

    private BsonDocument getCollection(String db, BsonDocument cmd) {
        String name = Args.string(cmd, "collection");
        MongoCollection coll = existing(db, name);
        ContainerStore c = coll.container();
        BsonDocument out = new BsonDocument("database", new BsonString(db)).append("collection", new BsonString(name));
        String path = c.definition().partitionKey().paths().get(0);
        if (!MongoCatalog.PARTITION_KEY_PATH.equals(path)) {
            out.append("shardKeyDefinition", new BsonDocument(DocumentMapper.userName(path.substring(1)),
                    new BsonString("hashed")));
        }
        ThroughputCatalog.ContainerThroughput t = store().throughput().effective(c);
        if (!t.sharedWithDatabase()) {
            describe(out, t.settings(), store().rateLimiter().currentThroughput(t.settings(),
                    store().rateLimiter().budgets(c).all()));
        }
        return Replies.ok(out);
    }

    private MongoCollection existing(String db, String name) {
        MongoCollection coll = catalog.collection(db, name);
        if (coll == null) {
            throw new MongoError(ErrorCode.NAMESPACE_NOT_FOUND, "Collection " + db + "." + name + " does not exist.");
        }
        return coll;
    }

    private static ThroughputSettings required(BsonDocument cmd) {
        ThroughputSettings s = throughput(cmd);
        if (s == null) {
            throw new MongoError(ErrorCode.BAD_VALUE, "give offerThroughput or autoScaleSettings: {maxThroughput}");
        }
        return s;
    }

    /** Manual: the RU/s; autoscale: as Cosmos DB documents it, the floor it scales down to (10 %) and the maximum. */
    private static void describe(BsonDocument out, ThroughputSettings s, int current) {
        out.append("provisionedThroughput", new BsonInt32(s.isAutoscale() ? s.autoscaleMax() / 10 : current));
        if (s.isAutoscale()) {
            out.append("autoScaleSettings", new BsonDocument("maxThroughput", new BsonInt32(s.autoscaleMax())));
        }
    }
}
