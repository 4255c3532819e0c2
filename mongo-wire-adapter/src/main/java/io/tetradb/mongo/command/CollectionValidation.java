package io.tetradb.mongo.command;

import io.tetradb.core.store.ContainerStore;
import io.tetradb.mongo.query.FieldPath;
import io.tetradb.mongo.query.FilterMatcher;
import io.tetradb.mongo.store.DocStream;
import io.tetradb.mongo.store.IndexCatalog;
import io.tetradb.mongo.store.MongoCatalog;
import io.tetradb.mongo.store.MongoCollection;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code validate}: reads every document of the collection, counts each index's keys as MongoDB's key generation
 * makes them (one per distinct array element, a null key for a missing field, none for a sparse index's missing
 * fields or a document outside a partial index's filter), and checks the core's stored index entries against what
 * the documents call for ({@link ContainerStore#checkIndexes()}, the core's own consistency check).
 */
final class CollectionValidation {
    private final MongoCatalog catalog;
    private final IndexCatalog indexes;

    CollectionValidation(MongoCatalog catalog, IndexCatalog indexes) {
        this.catalog = catalog;
        this.indexes = indexes;
    }

    BsonDocument validate(CommandContext ctx, BsonDocument cmd) {
        String name = Args.string(cmd, "validate");
        if (Args.bool(cmd, "repair", false)) {
            throw new MongoError(ErrorCode.ILLEGAL_OPERATION,
                    "Running the validate command with { repair: true } can only be performed in standalone mode.");
        }
        MongoCollection coll = catalog.collection(ctx.database(), name);
        if (coll == null) {
            throw new MongoError(ErrorCode.NAMESPACE_NOT_FOUND, "Collection '" + ctx.database() + "." + name
                    + "' does not exist to validate.");
        }
        List<BsonDocument> specs = indexes.list(coll);
        long[] keys = new long[specs.size()];
        List<FilterMatcher> partial = new ArrayList<>();
        for (BsonDocument spec : specs) {
            partial.add(spec.get("partialFilterExpression") instanceof BsonDocument f ? FilterMatcher.compile(f) : null);
        }
        long records = 0;
        DocStream all = coll.candidates(new BsonDocument());
        while (all.hasNext()) {
            BsonDocument doc = all.next().doc();
            records++;
            for (int i = 0; i < specs.size(); i++) {
                if (partial.get(i) == null || partial.get(i).test(doc)) {
                    keys[i] += keyCount(specs.get(i), doc);
                }
            }
        }
        ctx.charge(all.takeRequestCharge());
        ContainerStore.IndexCheck check = coll.container().checkIndexes();
        BsonDocument keysPerIndex = new BsonDocument();
        BsonDocument indexDetails = new BsonDocument();
        for (int i = 0; i < specs.size(); i++) {
            String index = specs.get(i).getString("name").getValue();
            keysPerIndex.append(index, DatabaseCommands.number(keys[i]));
            indexDetails.append(index, new BsonDocument("valid", BsonBoolean.valueOf(check.consistent())));
        }
        BsonArray errors = new BsonArray();
        if (!check.consistent()) {
            errors.add(new BsonString("the store's index entries do not match the documents: " + check.missing()
                    + " missing, " + check.extra() + " extra (of " + check.expected() + " expected)"));
        }
        return Replies.ok(new BsonDocument("ns", new BsonString(coll.namespace()))
                .append("nInvalidDocuments", new BsonInt32(0))
                .append("nNonCompliantDocuments", new BsonInt32(0))
                .append("nrecords", DatabaseCommands.number(records))
                .append("nIndexes", new BsonInt32(specs.size()))
                .append("keysPerIndex", keysPerIndex)
                .append("indexDetails", indexDetails)
                .append("valid", BsonBoolean.valueOf(check.consistent()))
                .append("repaired", BsonBoolean.FALSE)
                .append("warnings", new BsonArray())
                .append("errors", errors)
                .append("extraIndexEntries", new BsonArray())
                .append("missingIndexEntries", new BsonArray())
                .append("corruptRecords", new BsonArray()));
    }

    /** How many keys the index holds for {@code doc}: the product of each key field's distinct values. */
    static long keyCount(BsonDocument spec, BsonDocument doc) {
        BsonDocument key = spec.getDocument("key", new BsonDocument());
        boolean sparse = spec.get("sparse") instanceof BsonBoolean b && b.getValue();
        long count = 1;
        boolean anyPresent = false;
        for (String field : key.keySet()) {
            if (field.equals("$**") || field.endsWith(".$**")) {
                BsonDocument withoutId = doc.clone();
                withoutId.remove("_id"); // a wildcard index leaves _id out unless asked
                return leafCount(withoutId);
            }
            Set<BsonValue> distinct = new HashSet<>();
            for (BsonValue v : new FieldPath(field).values(doc)) {
                if (v instanceof BsonArray a && !a.isEmpty()) {
                    distinct.addAll(a);
                } else if (v != null) {
                    distinct.add(v);
                }
            }
            anyPresent |= !distinct.isEmpty();
            count *= Math.max(1, distinct.size()); // a missing field is one null key
        }
        return sparse && !anyPresent ? 0 : count;
    }

    /** A wildcard index's keys: one per leaf value (array elements each). */
    private static long leafCount(BsonValue v) {
        if (v instanceof BsonDocument d) {
            long n = 0;
            for (BsonValue x : d.values()) {
                n += leafCount(x);
            }
            return n;
        }
        if (v instanceof BsonArray a) {
            long n = 0;
            for (BsonValue x : a) {
                n += leafCount(x);
            }
            return Math.max(n, 1);
        }
        return 1;
    }
}
