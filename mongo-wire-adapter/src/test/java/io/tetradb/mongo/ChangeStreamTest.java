package io.tetradb.mongo;

import com.mongodb.MongoCommandException;
import com.mongodb.client.MongoChangeStreamCursor;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Aggregates;
import com.mongodb.client.model.ChangeStreamPreAndPostImagesOptions;
import com.mongodb.client.model.CreateCollectionOptions;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Updates;
import com.mongodb.client.model.changestream.ChangeStreamDocument;
import com.mongodb.client.model.changestream.FullDocument;
import com.mongodb.client.model.changestream.FullDocumentBeforeChange;
import com.mongodb.client.model.changestream.OperationType;
import io.tetradb.mongo.changestream.ResumeToken;
import io.tetradb.testing.TestTime;
import org.bson.BsonDocument;
import org.bson.BsonTimestamp;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** MongoDB change streams through the Java driver's {@code watch()} on a collection, a database and the deployment. */
class ChangeStreamTest extends MongoServerTestBase {

    private static MongoChangeStreamCursor<ChangeStreamDocument<Document>> open(
            com.mongodb.client.ChangeStreamIterable<Document> watch) {
        return watch.maxAwaitTime(20, TimeUnit.SECONDS).cursor();
    }

    private static List<ChangeStreamDocument<Document>> take(
            MongoChangeStreamCursor<ChangeStreamDocument<Document>> c, int n) {
        List<ChangeStreamDocument<Document>> out = new ArrayList<>();
        while (out.size() < n) {
            out.add(c.next());
        }
        return out;
    }

    @Test
    void collectionWatchShowsInsertUpdateReplaceAndDelete() {
        MongoCollection<Document> coll = fresh(client.getDatabase("cs"), "crud");
        try (var cursor = open(coll.watch())) {
            coll.insertOne(new Document("_id", 1).append("a", 1).append("b", "x").append("arr", List.of(1, 2))
                    .append("sub", new Document("p", 1).append("q", 2)));
            coll.updateOne(Filters.eq("_id", 1), Updates.combine(Updates.set("a", 2), Updates.unset("b"),
                    Updates.push("arr", 3), Updates.set("sub.q", 5)));
            coll.replaceOne(Filters.eq("_id", 1), new Document("_id", 1).append("z", true));
            coll.deleteOne(Filters.eq("_id", 1));
            List<ChangeStreamDocument<Document>> e = take(cursor, 4);

            assertEquals(OperationType.INSERT, e.get(0).getOperationType());
            assertEquals(1, e.get(0).getFullDocument().getInteger("a"));
            assertEquals("cs", e.get(0).getNamespace().getDatabaseName());
            assertEquals("crud", e.get(0).getNamespace().getCollectionName());
            assertEquals(BsonDocument.parse("{_id: 1}"), e.get(0).getDocumentKey());
            assertNotNull(e.get(0).getClusterTime());
            assertNotNull(e.get(0).getWallTime());

            assertEquals(OperationType.UPDATE, e.get(1).getOperationType());
            assertEquals(BsonDocument.parse("{a: 2, 'arr.2': 3, 'sub.q': 5}"),
                    e.get(1).getUpdateDescription().getUpdatedFields());
            assertEquals(List.of("b"), e.get(1).getUpdateDescription().getRemovedFields());
            assertNull(e.get(1).getFullDocument(), "no fullDocument for updates by default");

            assertEquals(OperationType.REPLACE, e.get(2).getOperationType());
            assertEquals(new Document("_id", 1).append("z", true), e.get(2).getFullDocument());

            assertEquals(OperationType.DELETE, e.get(3).getOperationType());
            assertEquals(BsonDocument.parse("{_id: 1}"), e.get(3).getDocumentKey());
            assertNull(e.get(3).getFullDocument());
            for (int i = 1; i < 4; i++) { // tokens and cluster times follow the event order
                assertTrue(e.get(i).getResumeToken().getString("_data").getValue()
                        .compareTo(e.get(i - 1).getResumeToken().getString("_data").getValue()) > 0);
                assertTrue(e.get(i).getClusterTime().compareTo(e.get(i - 1).getClusterTime()) > 0);
            }
        }
    }

    @Test
    void truncatedArraysAndWholeFieldReplacement() {
        MongoCollection<Document> coll = fresh(client.getDatabase("cs"), "arrays");
        coll.insertOne(new Document("_id", 1).append("arr", List.of(1, 2, 3)).append("s", new Document("k", 1)));
        try (var cursor = open(coll.watch())) {
            coll.updateOne(Filters.eq("_id", 1), Updates.combine(Updates.popLast("arr"), Updates.set("s", 7)));
            ChangeStreamDocument<Document> e = cursor.next();
            assertEquals(BsonDocument.parse("{s: 7}"), e.getUpdateDescription().getUpdatedFields());
            assertEquals("arr", e.getUpdateDescription().getTruncatedArrays().get(0).getField());
            assertEquals(2, e.getUpdateDescription().getTruncatedArrays().get(0).getNewSize());
        }
    }

    @Test
    void updateLookupReadsTheCurrentVersionAtReadTime() {
        MongoCollection<Document> coll = fresh(client.getDatabase("cs"), "lookup");
        try (var cursor = open(coll.watch().fullDocument(FullDocument.UPDATE_LOOKUP))) {
            coll.insertOne(new Document("_id", "k").append("n", 0));
            coll.updateOne(Filters.eq("_id", "k"), Updates.inc("n", 1));
            coll.updateOne(Filters.eq("_id", "k"), Updates.inc("n", 1));
            coll.insertOne(new Document("_id", "gone"));
            coll.updateOne(Filters.eq("_id", "gone"), Updates.set("x", 1));
            coll.deleteOne(Filters.eq("_id", "gone"));
            List<ChangeStreamDocument<Document>> e = take(cursor, 6);
            assertEquals(2, e.get(1).getFullDocument().getInteger("n"), "looked up now: the latest version");
            assertEquals(BsonDocument.parse("{n: 1}"), e.get(1).getUpdateDescription().getUpdatedFields());
            assertEquals(OperationType.UPDATE, e.get(4).getOperationType());
            assertNull(e.get(4).getFullDocument(), "deleted since: null");
        }
    }

    @Test
    void resumeAfterAndStartAtOperationTime() {
        MongoCollection<Document> coll = fresh(client.getDatabase("cs"), "resume");
        BsonDocument token;
        BsonTimestamp second;
        try (var cursor = open(coll.watch())) {
            for (int i = 1; i <= 3; i++) {
                coll.insertOne(new Document("_id", i));
            }
            List<ChangeStreamDocument<Document>> e = take(cursor, 2);
            token = e.get(0).getResumeToken();
            second = e.get(1).getClusterTime();
        }
        coll.insertOne(new Document("_id", 4));
        try (var cursor = open(coll.watch().resumeAfter(token))) {
            assertEquals(List.of(2, 3, 4), take(cursor, 3).stream().map(d -> d.getDocumentKey().getInt32("_id")
                    .getValue()).toList());
        }
        try (var cursor = open(coll.watch().startAtOperationTime(second))) {
            assertEquals(List.of(2, 3, 4), take(cursor, 3).stream().map(d -> d.getDocumentKey().getInt32("_id")
                    .getValue()).toList());
        }
        try (var cursor = open(coll.watch().startAfter(token))) {
            assertEquals(2, cursor.next().getDocumentKey().getInt32("_id").getValue());
        }
    }

    @Test
    void postBatchResumeTokenResumesAfterTheLastPositionSeen() {
        MongoCollection<Document> coll = fresh(client.getDatabase("cs"), "pbrt");
        BsonDocument token;
        try (var cursor = coll.watch().maxAwaitTime(10, TimeUnit.MILLISECONDS).cursor()) {
            assertNull(cursor.tryNext());
            token = cursor.getResumeToken();
            assertNotNull(token);
        }
        coll.insertOne(new Document("_id", "after"));
        try (var cursor = open(coll.watch().resumeAfter(token))) {
            assertEquals("after", cursor.next().getDocumentKey().getString("_id").getValue());
        }
    }

    @Test
    void databaseAndDeploymentWatchesSeeEveryCollection() {
        MongoDatabase db1 = client.getDatabase("csdb1");
        MongoDatabase db2 = client.getDatabase("csdb2");
        db1.getCollection("a").insertOne(new Document("_id", 0)); // exists before the watch
        try (var dbCursor = open(db1.watch()); var all = open(client.watch())) {
            db1.getCollection("a").insertOne(new Document("_id", 1));
            db1.getCollection("b").insertOne(new Document("_id", 2)); // created after the watch started
            db2.getCollection("c").insertOne(new Document("_id", 3));
            db1.getCollection("a").insertOne(new Document("_id", 4));
            List<ChangeStreamDocument<Document>> inDb = take(dbCursor, 3);
            assertEquals(List.of("a", "b", "a"), inDb.stream().map(d -> d.getNamespace().getCollectionName()).toList());
            List<ChangeStreamDocument<Document>> everywhere = take(all, 4);
            assertEquals(List.of("csdb1.a", "csdb1.b", "csdb2.c", "csdb1.a"),
                    everywhere.stream().map(d -> d.getNamespace().getFullName()).toList());
        }
    }

    @Test
    void pipelineStagesFilterAndShapeEvents() {
        MongoCollection<Document> coll = fresh(client.getDatabase("cs"), "stages");
        try (var cursor = open(coll.watch(List.of(
                Aggregates.match(Filters.in("operationType", List.of("insert", "delete"))),
                Aggregates.addFields(new com.mongodb.client.model.Field<>("tag", "seen")),
                Aggregates.project(Projections.include("operationType", "documentKey", "tag")))))) {
            coll.insertOne(new Document("_id", 1));
            coll.updateOne(Filters.eq("_id", 1), Updates.set("x", 1));
            coll.deleteOne(Filters.eq("_id", 1));
            List<ChangeStreamDocument<Document>> e = take(cursor, 2);
            assertEquals(OperationType.INSERT, e.get(0).getOperationType());
            assertNull(e.get(0).getFullDocument(), "projected away");
            assertEquals(OperationType.DELETE, e.get(1).getOperationType());
        }
        MongoCommandException refused = assertThrows(MongoCommandException.class, () -> coll.watch(List.of(
                Aggregates.group("$operationType"))).cursor());
        assertEquals(20, refused.getErrorCode());
        MongoCommandException notFirst = assertThrows(MongoCommandException.class, () -> coll.aggregate(List.of(
                Aggregates.match(new Document()), new Document("$changeStream", new Document()))).first());
        assertEquals(40602, notFirst.getErrorCode());
        MongoCommandException idChanged = assertThrows(MongoCommandException.class, () -> {
            try (var c = open(coll.watch(List.of(Aggregates.project(Projections.exclude("_id")))))) {
                coll.insertOne(new Document("_id", 9));
                c.next();
            }
        });
        assertEquals(280, idChanged.getErrorCode());
    }

    @Test
    void aBlockedGetMoreWakesUpOnAConcurrentInsert() throws Exception {
        MongoCollection<Document> coll = fresh(client.getDatabase("cs"), "wake");
        // an await far longer than the test waits: the event must arrive through the wake-up, not at the end of the
        // wait (the test's patience is minutes on a loaded machine; the await is an hour)
        try (var cursor = coll.watch().maxAwaitTime(60, TimeUnit.MINUTES).cursor()) {
            CompletableFuture<ChangeStreamDocument<Document>> next = CompletableFuture.supplyAsync(cursor::next);
            coll.insertOne(new Document("_id", "ping"));
            ChangeStreamDocument<Document> e = next.get(TestTime.patience(java.time.Duration.ZERO).toSeconds(),
                    TimeUnit.SECONDS);
            assertEquals("ping", e.getDocumentKey().getString("_id").getValue());
        }
    }

    @Test
    void dropOfAWatchedCollectionIsDropThenInvalidate() {
        MongoCollection<Document> coll = fresh(client.getDatabase("cs"), "dropped");
        coll.insertOne(new Document("_id", 1));
        try (var cursor = open(coll.watch())) {
            coll.drop();
            List<ChangeStreamDocument<Document>> e = take(cursor, 2);
            assertEquals(OperationType.DROP, e.get(0).getOperationType());
            assertEquals("dropped", e.get(0).getNamespace().getCollectionName());
            assertEquals(OperationType.INVALIDATE, e.get(1).getOperationType());
            BsonDocument invalidate = e.get(1).getResumeToken();
            MongoCommandException resume = assertThrows(MongoCommandException.class,
                    () -> coll.watch().resumeAfter(invalidate).cursor());
            assertEquals(260, resume.getErrorCode());
            try (var after = open(coll.watch().startAfter(invalidate))) {
                coll.insertOne(new Document("_id", "new"));
                assertEquals(OperationType.INSERT, after.next().getOperationType());
            }
        }
    }

    @Test
    void databaseStreamSeesDropsThenDropDatabaseAndInvalidate() {
        MongoDatabase db = client.getDatabase("csdropdb");
        db.getCollection("x").insertOne(new Document("_id", 1));
        db.getCollection("y").insertOne(new Document("_id", 1));
        try (var cursor = open(db.watch())) {
            db.getCollection("x").insertOne(new Document("_id", 2));
            assertEquals(OperationType.INSERT, cursor.next().getOperationType());
            db.drop();
            List<ChangeStreamDocument<Document>> e = take(cursor, 4);
            assertEquals(List.of(OperationType.DROP, OperationType.DROP, OperationType.DROP_DATABASE,
                    OperationType.INVALIDATE), e.stream().map(ChangeStreamDocument::getOperationType).toList());
            assertEquals(java.util.Set.of("x", "y"), java.util.Set.of(e.get(0).getNamespace().getCollectionName(),
                    e.get(1).getNamespace().getCollectionName()));
            assertEquals("csdropdb", e.get(2).getDatabaseName());
        }
    }

    @Test
    void preImagesNeedTheCollectionOption() {
        MongoDatabase db = client.getDatabase("cs");
        db.getCollection("images").drop();
        db.createCollection("images", new CreateCollectionOptions()
                .changeStreamPreAndPostImagesOptions(new ChangeStreamPreAndPostImagesOptions(true)));
        MongoCollection<Document> coll = db.getCollection("images");
        MongoCollection<Document> plain = fresh(db, "noimages");
        try (var cursor = open(coll.watch().fullDocumentBeforeChange(FullDocumentBeforeChange.REQUIRED)
                .fullDocument(FullDocument.REQUIRED));
             var without = open(plain.watch().fullDocumentBeforeChange(FullDocumentBeforeChange.WHEN_AVAILABLE))) {
            coll.insertOne(new Document("_id", 1).append("v", "old"));
            coll.updateOne(Filters.eq("_id", 1), Updates.set("v", "new"));
            coll.deleteOne(Filters.eq("_id", 1));
            List<ChangeStreamDocument<Document>> e = take(cursor, 3);
            assertEquals("old", e.get(1).getFullDocumentBeforeChange().getString("v"));
            assertEquals("new", e.get(1).getFullDocument().getString("v"));
            assertEquals("new", e.get(2).getFullDocumentBeforeChange().getString("v"));

            plain.insertOne(new Document("_id", 1));
            plain.deleteOne(Filters.eq("_id", 1));
            List<ChangeStreamDocument<Document>> p = take(without, 2);
            assertNull(p.get(1).getFullDocumentBeforeChange(), "the collection does not keep pre-images");
        }
        try (var required = open(plain.watch().fullDocumentBeforeChange(FullDocumentBeforeChange.REQUIRED))) {
            plain.insertOne(new Document("_id", 2));
            plain.deleteOne(Filters.eq("_id", 2));
            required.next(); // the insert
            com.mongodb.MongoServerException e = assertThrows(com.mongodb.MongoServerException.class, required::next);
            assertEquals(47, e.getCode());
        }
        db.runCommand(new Document("collMod", "noimages").append("changeStreamPreAndPostImages",
                new Document("enabled", true)));
        try (var cursor = open(plain.watch().fullDocumentBeforeChange(FullDocumentBeforeChange.REQUIRED))) {
            plain.insertOne(new Document("_id", 3).append("v", 3));
            plain.deleteOne(Filters.eq("_id", 3));
            assertEquals(3, take(cursor, 2).get(1).getFullDocumentBeforeChange().getInteger("v"));
        }
    }

    /**
     * feed-images: the records of an insert or update keep no copy of the document; a stream read after later writes
     * gets each event's version — from the document while it is at that version, from the version key the
     * superseding write kept once it is not — never the document as it is now.
     */
    @Test
    void preImagesOfSupersededVersionsComeFromTheVersionKeys() {
        MongoDatabase db = client.getDatabase("cs");
        db.getCollection("versions").drop();
        db.createCollection("versions", new CreateCollectionOptions()
                .changeStreamPreAndPostImagesOptions(new ChangeStreamPreAndPostImagesOptions(true)));
        MongoCollection<Document> coll = db.getCollection("versions");
        BsonTimestamp start;
        try (var first = open(coll.watch())) {
            coll.insertOne(new Document("_id", "k").append("v", 1).append("s", "one"));
            start = first.next().getClusterTime();
        }
        coll.updateOne(Filters.eq("_id", "k"), Updates.set("v", 2));
        coll.updateOne(Filters.eq("_id", "k"), Updates.combine(Updates.set("v", 3), Updates.unset("s")));
        coll.insertOne(new Document("_id", "d").append("v", 10));
        coll.updateOne(Filters.eq("_id", "d"), Updates.set("v", 11));
        coll.deleteOne(Filters.eq("_id", "d"));
        for (FullDocument post : List.of(FullDocument.REQUIRED, FullDocument.WHEN_AVAILABLE)) {
            try (var cursor = open(coll.watch().startAtOperationTime(start).fullDocument(post)
                    .fullDocumentBeforeChange(FullDocumentBeforeChange.REQUIRED))) {
                List<ChangeStreamDocument<Document>> e = take(cursor, 6);
                assertEquals(List.of(OperationType.INSERT, OperationType.UPDATE, OperationType.UPDATE,
                        OperationType.INSERT, OperationType.UPDATE, OperationType.DELETE),
                        e.stream().map(ChangeStreamDocument::getOperationType).toList());
                assertEquals(new Document("_id", "k").append("v", 1).append("s", "one"), e.get(0).getFullDocument(),
                        "the insert shows the document as inserted, not as it is now");
                assertEquals(new Document("_id", "k").append("v", 1).append("s", "one"),
                        e.get(1).getFullDocumentBeforeChange());
                assertEquals(new Document("_id", "k").append("v", 2).append("s", "one"), e.get(1).getFullDocument());
                assertEquals(BsonDocument.parse("{v: 2}"), e.get(1).getUpdateDescription().getUpdatedFields());
                assertEquals(new Document("_id", "k").append("v", 2).append("s", "one"),
                        e.get(2).getFullDocumentBeforeChange());
                assertEquals(new Document("_id", "k").append("v", 3), e.get(2).getFullDocument());
                assertEquals(BsonDocument.parse("{v: 3}"), e.get(2).getUpdateDescription().getUpdatedFields());
                assertEquals(List.of("s"), e.get(2).getUpdateDescription().getRemovedFields());
                assertEquals(new Document("_id", "d").append("v", 10), e.get(3).getFullDocument(),
                        "an insert of a document deleted since");
                assertEquals(new Document("_id", "d").append("v", 10), e.get(4).getFullDocumentBeforeChange());
                assertEquals(new Document("_id", "d").append("v", 11), e.get(4).getFullDocument());
                assertEquals(new Document("_id", "d").append("v", 11), e.get(5).getFullDocumentBeforeChange());
                assertNull(e.get(5).getFullDocument());
            }
        }
    }

    @Test
    void aTokenOlderThanTheRetainedFeedIsHistoryLost() {
        MongoCollection<Document> coll = fresh(client.getDatabase("cs"), "lost");
        BsonDocument ancient = new ResumeToken(1, 1000, 1, ResumeToken.Kind.EVENT).toBson();
        MongoCommandException e = assertThrows(MongoCommandException.class,
                () -> coll.watch().resumeAfter(ancient).cursor());
        assertEquals(286, e.getErrorCode());
        MongoCommandException bad = assertThrows(MongoCommandException.class,
                () -> coll.watch().resumeAfter(BsonDocument.parse("{_data: 'zz'}")).cursor());
        assertEquals(260, bad.getErrorCode());
    }
}
