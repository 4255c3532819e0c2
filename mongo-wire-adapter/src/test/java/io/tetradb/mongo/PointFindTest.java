package io.tetradb.mongo;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Date;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Finds of one {@code _id} (the drivers' {@code findOne}) answer as the general query path does: the same document,
 * field order and types, for every kind of {@code _id}, numerically equal ids, {@code $eq}, missing ids, and with the
 * options that take the general path (projection, a second condition, batch size 0).
 */
class PointFindTest extends MongoServerTestBase {

    @Test
    void pointFindsAnswerAsTheGeneralPath() {
        MongoCollection<Document> c = client.getDatabase("pointfind").getCollection("docs");
        c.drop();
        ObjectId oid = new ObjectId();
        List<Object> ids = List.of(1, 2L, 3.5, "text/with~escapes?", oid, new Date(1_700_000_000_000L), true,
                new Document("k", "compound").append("n", 1));
        List<Document> inserted = new ArrayList<>();
        for (Object id : ids) {
            Document d = new Document("payload", "é 😀 " + id).append("n", 7).append("l", 8L)
                    .append("dec", new Decimal128(new java.math.BigDecimal("1.50")))
                    .append("arr", List.of(1, new Document("a", List.of()), "x"))
                    .append("sub", new Document("id", 1).append("~t", 2))
                    .append("id", "user's id field").append("_ts", "user's _ts")
                    .append("re", java.util.regex.Pattern.compile("^a", java.util.regex.Pattern.CASE_INSENSITIVE))
                    .append("_id", id); // _id last: stored first, as MongoDB does
            inserted.add(d);
        }
        c.insertMany(inserted);
        for (Object id : ids) {
            Document point = c.find(Filters.eq("_id", id)).first();
            Document general = c.find(Filters.and(Filters.eq("_id", id), Filters.exists("payload"))).first();
            assertEquals(general, point, String.valueOf(id));
            assertEquals(new ArrayList<>(general.keySet()), new ArrayList<>(point.keySet()));
            assertEquals("_id", point.keySet().iterator().next());
            assertEquals(general, c.find(new Document("_id", new Document("$eq", id))).first());
        }
        // numerically equal _ids are one _id, as in MongoDB
        assertEquals(1, c.find(Filters.eq("_id", 1.0)).first().get("_id"));
        assertEquals(1, c.find(Filters.eq("_id", 1L)).first().get("_id"));
        assertNull(c.find(Filters.eq("_id", 404)).first());
        assertNull(c.find(Filters.eq("_id", "1")).first());
        assertEquals(List.of(), c.find(Filters.eq("_id", 404)).into(new ArrayList<>()));
        // options the point path leaves to the general one
        Bson one = Filters.eq("_id", "text/with~escapes?");
        assertEquals(new Document("_id", "text/with~escapes?").append("n", 7),
                c.find(one).projection(Projections.include("n")).first());
        assertEquals(1, c.find(one).batchSize(0).into(new ArrayList<>()).size());
        assertEquals(1, c.find(one).limit(5).into(new ArrayList<>()).size());
        assertEquals(0, c.find(one).skip(1).into(new ArrayList<>()).size());
        assertNull(client.getDatabase("pointfind").getCollection("absent").find(Filters.eq("_id", 1)).first());
    }

    /**
     * mongo-find: a find's sort and projection are read after the point path has declined it; a point find carrying a
     * sort or projection of the wrong type is still refused with TypeMismatch (14), and one of the right type is
     * answered by the general path.
     */
    @Test
    void aPointFindWithAWrongTypedSortOrProjectionIsATypeMismatch() {
        MongoCollection<Document> c = client.getDatabase("pointfind").getCollection("typed");
        c.drop();
        c.insertOne(new Document("_id", 1).append("a", 2).append("b", 3));
        com.mongodb.client.MongoDatabase db = client.getDatabase("pointfind");
        for (String option : List.of("sort", "projection")) {
            com.mongodb.MongoCommandException e = org.junit.jupiter.api.Assertions.assertThrows(
                    com.mongodb.MongoCommandException.class, () -> db.runCommand(new Document("find", "typed")
                            .append("filter", new Document("_id", 1)).append(option, 5)));
            assertEquals(14, e.getErrorCode(), option);
        }
        assertEquals(new Document("_id", 1).append("a", 2),
                c.find(Filters.eq("_id", 1)).projection(Projections.include("a")).first());
        assertEquals(new Document("_id", 1).append("a", 2).append("b", 3),
                c.find(Filters.eq("_id", 1)).sort(new Document("a", 1)).first());
    }
}
