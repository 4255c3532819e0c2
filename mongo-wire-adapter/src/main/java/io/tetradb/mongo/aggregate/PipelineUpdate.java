package io.tetradb.mongo.aggregate;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.update.DocumentUpdate;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;

/** An update given as an aggregation pipeline ({@code $set $addFields $unset $project $replaceRoot $replaceWith}). */
public final class PipelineUpdate implements DocumentUpdate {
    private final AggregationPipeline pipeline;

    public PipelineUpdate(BsonArray stages) {
        this.pipeline = new AggregationPipeline(stages);
    }

    @Override
    public BsonDocument apply(BsonDocument original, boolean inserting) {
        BsonDocument out = pipeline.applyTo(original.clone());
        BsonValue id = original.get("_id");
        if (id != null) {
            BsonValue after = out.get("_id");
            if (after == null) {
                BsonDocument withId = new BsonDocument("_id", id);
                out.forEach(withId::append);
                out = withId;
            } else if (!after.equals(id)) {
                throw new MongoError(ErrorCode.IMMUTABLE_FIELD,
                        "Performing an update on the path '_id' would modify the immutable field '_id'");
            }
        }
        return out;
    }

    @Override
    public boolean isReplacement() {
        return false;
    }
}
