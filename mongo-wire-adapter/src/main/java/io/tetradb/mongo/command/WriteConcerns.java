package io.tetradb.mongo.command;

import org.bson.BsonDocument;
import org.bson.BsonValue;

/**
 * What a write command's {@code writeConcern} asks of durability, as MongoDB reads it on a replica set primary
 * (what this server says it is). Without a write concern (what drivers send by default) the server default
 * {@code w: "majority"} applies, which journals: the write is acknowledged after its WAL fsync. {@code j: true}
 * journals too. {@code w: 0} or {@code w: 1} without {@code j}, or {@code j: false}, are acknowledged once applied;
 * the store syncs them within 100 ms, as MongoDB commits its journal. Other {@code w} values (a number of members,
 * a tag set) journal: this one member is all there is.
 */
final class WriteConcerns {
    private WriteConcerns() {
    }

    static boolean unjournaled(BsonDocument command) {
        BsonValue wc = command.get("writeConcern");
        if (wc == null || !wc.isDocument()) {
            return false;
        }
        BsonDocument d = wc.asDocument();
        BsonValue j = d.get("j");
        if (j != null && j.isBoolean()) {
            return !j.asBoolean().getValue();
        }
        BsonValue w = d.get("w");
        return w != null && w.isNumber() && w.asNumber().intValue() <= 1;
    }
}
