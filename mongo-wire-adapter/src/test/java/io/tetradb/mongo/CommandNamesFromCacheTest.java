package io.tetradb.mongo;

import com.mongodb.MongoCommandException;
import com.mongodb.ReadConcern;
import com.mongodb.client.ClientSession;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * mongo-cpu (session 21): a command document's element names are read through the event loop's cache of names
 * ({@code CachedNamesBsonInput.forCommand} in {@code RequestDecoder}). Through the Java driver, request after
 * request (the cache warm, names of every length: up to 7 bytes compared as one word, 8–64 by their bytes, longer
 * ones read by the library), every field a find may carry is still honoured — {@code filter}, {@code projection},
 * {@code limit}, {@code batchSize} (with its getMores), {@code readConcern}, {@code lsid}, {@code txnNumber},
 * {@code $db} — and a command's unknown field is still refused by its exact name.
 */
class CommandNamesFromCacheTest extends MongoServerTestBase {
    @Test
    void everyFieldOfAFindIsHonouredRequestAfterRequest() {
        MongoCollection<Document> c = fresh(client.getDatabase("names"), "c");
        MongoCollection<Document> other = fresh(client.getDatabase("othernames"), "c");
        for (int i = 0; i < 30; i++) {
            c.insertOne(new Document("_id", i).append("k", i % 3).append("name", "n" + i)
                    .append("aLongerFieldName", i * 10));
        }
        other.insertOne(new Document("_id", 1).append("name", "other"));
        for (int round = 0; round < 4; round++) { // the first round fills the cache, the others read from it
            String at = "round " + round;
            // the point path: filter {_id} with limit/singleBatch, and the same _id in another database ($db)
            assertEquals("n7", c.find(Filters.eq("_id", 7)).first().getString("name"), at);
            assertEquals("other", other.find(Filters.eq("_id", 1)).first().getString("name"), at);
            assertNull(other.find(Filters.eq("_id", 7)).first(), at);
            // filter, projection, sort, limit
            List<Document> got = c.find(Filters.eq("k", 1)).projection(Projections.include("aLongerFieldName"))
                    .sort(Sorts.descending("_id")).limit(3).into(new ArrayList<>());
            assertEquals(List.of(new Document("_id", 28).append("aLongerFieldName", 280),
                    new Document("_id", 25).append("aLongerFieldName", 250),
                    new Document("_id", 22).append("aLongerFieldName", 220)), got, at);
            // batchSize: a first batch of 4 and getMores for the rest, all 30 in order
            int n = 0;
            try (MongoCursor<Document> cursor = c.find(Filters.lt("_id", 100)).sort(Sorts.ascending("_id"))
                    .batchSize(4).iterator()) {
                while (cursor.hasNext()) {
                    assertEquals(n, cursor.next().getInteger("_id"), at);
                    n++;
                }
            }
            assertEquals(30, n, at);
            // readConcern and lsid: a session's reads
            try (ClientSession session = client.startSession()) {
                MongoCollection<Document> majority = c.withReadConcern(ReadConcern.MAJORITY);
                assertEquals(10, majority.countDocuments(session, Filters.eq("k", 0)), at);
                assertEquals("n3", majority.find(session, Filters.eq("_id", 3)).first().getString("name"), at);
                // txnNumber: a transaction sees its own insert, others do not until it commits
                session.startTransaction();
                int id = 100 + round;
                c.insertOne(session, new Document("_id", id).append("k", 9));
                assertEquals(9, c.find(session, Filters.eq("_id", id)).first().getInteger("k"), at);
                assertNull(c.find(Filters.eq("_id", id)).first(), at);
                session.commitTransaction();
                assertEquals(9, c.find(Filters.eq("_id", id)).first().getInteger("k"), at);
            }
        }
    }

    @Test
    void anUnknownFieldIsRefusedByItsNameRequestAfterRequest() {
        // names of 1-7 bytes, 8-64 bytes and over 64 bytes (read by the library, never cached)
        // (two of 28 bytes sharing their first 8: one cache slot, told apart by all their bytes)
        List<String> unknown = List.of("x", "bogus", "bogus12", "bogusOpt", "aMuchLongerUnknownOptionName",
                "aMuchLongerUnknownOptionNamf", "u".repeat(64), "v".repeat(65), "w".repeat(100), "bogusOpü");
        for (int round = 0; round < 3; round++) {
            for (String field : unknown) {
                MongoCommandException e = assertThrows(MongoCommandException.class, () -> client
                        .getDatabase("names").runCommand(new Document("create", "c" + field.length())
                                .append(field, 1)));
                assertEquals(40415, e.getErrorCode(), field);
                assertEquals("BSON field 'create." + field + "' is an unknown field.", e.getErrorMessage());
            }
            // another command in between, one of those names as its string value: read as a value, not a name
            Document ping = client.getDatabase("admin").runCommand(new Document("ping", 1).append("comment",
                    "bogus12"));
            assertEquals(1.0, ping.get("ok", Number.class).doubleValue());
        }
    }
}
