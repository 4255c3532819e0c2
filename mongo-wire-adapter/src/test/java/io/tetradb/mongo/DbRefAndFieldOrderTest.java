package io.tetradb.mongo;

import com.mongodb.DBRef;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.Updates;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.Document;
import org.bson.RawBsonDocument;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** DBRefs (what Spring Data's @DBRef writes) are stored and read back as MongoDB does; {@code _id} comes first. */
class DbRefAndFieldOrderTest extends MongoServerTestBase {

    @Test
    void dbRefsAreStoredAndReturnedInTheirFieldOrder() {
        MongoCollection<Document> books = client.getDatabase("refs").getCollection("books");
        ObjectId author = new ObjectId();
        books.insertOne(new Document("_id", 1).append("author", new DBRef("people", author))
                .append("shelf", List.of(new DBRef("library", "shelves", "s-12"))));
        BsonDocument back = client.getDatabase("refs").getCollection("books", BsonDocument.class).find().first();
        BsonDocument ref = back.getDocument("author");
        assertEquals(List.of("$ref", "$id"), new ArrayList<>(ref.keySet()));
        assertEquals("people", ref.getString("$ref").getValue());
        assertEquals(author, ref.getObjectId("$id").getValue());
        BsonDocument withDb = back.getArray("shelf").get(0).asDocument();
        assertEquals(List.of("$ref", "$id", "$db"), new ArrayList<>(withDb.keySet()));
        assertEquals(new BsonString("s-12"), withDb.get("$id"));
        assertEquals(new BsonString("library"), withDb.get("$db"));

        // a filter compares a DBRef as a value (what Spring Data sends for a @DBRef property) or reads its fields
        books.insertOne(new Document("_id", 3).append("author", new DBRef("people", "someone-else")));
        assertEquals(List.of(1), ids(books.find(Filters.eq("author", new DBRef("people", author)))));
        assertEquals(List.of(1, 3), ids(books.find(Filters.in("author", new DBRef("people", author),
                new DBRef("people", "someone-else"))).sort(new Document("_id", 1))));
        assertEquals(List.of(3), ids(books.find(Filters.eq("author.$id", "someone-else"))));
        books.deleteOne(Filters.eq("_id", 3));

        // an update keeps the reference as it is and may change it
        books.updateOne(Filters.eq("_id", 1), Updates.set("author", new DBRef("people", 42)));
        BsonDocument updated = client.getDatabase("refs").getCollection("books", BsonDocument.class).find().first();
        assertEquals(new BsonInt32(42), updated.getDocument("author").get("$id"));
        assertEquals(new BsonString("people"), updated.getDocument("author").get("$ref"));

        // MongoDB's DBRef rules: $id needs a $ref before it (55); other '$' names are refused here (52)
        MongoWriteException noRef = assertThrows(MongoWriteException.class, () -> books.insertOne(
                new Document("_id", 2).append("r", new Document("$id", 1))));
        assertEquals(55, noRef.getError().getCode());
        MongoWriteException refNotString = assertThrows(MongoWriteException.class, () -> books.insertOne(
                new Document("_id", 2).append("r", new Document("$ref", 1).append("$id", 1))));
        assertEquals(55, refNotString.getError().getCode());
        MongoWriteException other = assertThrows(MongoWriteException.class, () -> books.insertOne(
                new Document("_id", 2).append("r", new Document("$date", "2020-01-01"))));
        assertEquals(52, other.getError().getCode());
        assertEquals(1, books.countDocuments());
    }

    private static List<Object> ids(Iterable<Document> docs) {
        List<Object> out = new ArrayList<>();
        docs.forEach(d -> out.add(d.get("_id")));
        return out;
    }

    @Test
    void idComesFirstInEveryReturnedDocument() {
        MongoCollection<RawBsonDocument> raw = client.getDatabase("order").getCollection("c", RawBsonDocument.class);
        // the driver moves _id first for Document and BsonDocument; raw bytes go as they are
        raw.insertOne(RawBsonDocument.parse("{a: 1, b: {c: 2}, _id: 7}"));
        MongoCollection<Document> c = client.getDatabase("order").getCollection("c");
        assertEquals(List.of("_id", "a", "b"), new ArrayList<>(c.find().first().keySet()));
        assertEquals(List.of("_id", "a", "b"), new ArrayList<>(c.aggregate(List.of(
                new Document("$match", new Document("a", 1)))).first().keySet()));
        raw.replaceOne(Filters.eq("_id", 7), RawBsonDocument.parse("{z: 1, _id: 7}"));
        assertEquals(List.of("_id", "z"), new ArrayList<>(c.find().first().keySet()));
        Document upserted = c.findOneAndUpdate(Filters.eq("_id", 8), Updates.set("x", 1),
                new FindOneAndUpdateOptions().upsert(true).returnDocument(ReturnDocument.AFTER));
        assertEquals(List.of("_id", "x"), new ArrayList<>(upserted.keySet()));
        Document changed = c.findOneAndUpdate(Filters.eq("_id", 7), Updates.set("y", 1),
                new FindOneAndUpdateOptions().returnDocument(ReturnDocument.AFTER));
        assertEquals(List.of("_id", "z", "y"), new ArrayList<>(changed.keySet()));
        RawBsonDocument replaced = raw.findOneAndReplace(Filters.eq("_id", 7), RawBsonDocument.parse("{w: 1, _id: 7}"),
                new com.mongodb.client.model.FindOneAndReplaceOptions().returnDocument(ReturnDocument.AFTER));
        assertEquals(List.of("_id", "w"), new ArrayList<>(replaced.keySet()));
        RawBsonDocument upsertedRaw = raw.findOneAndReplace(Filters.eq("_id", 9), RawBsonDocument.parse("{v: 1}"),
                new com.mongodb.client.model.FindOneAndReplaceOptions().upsert(true)
                        .returnDocument(ReturnDocument.AFTER));
        assertEquals(List.of("_id", "v"), new ArrayList<>(upsertedRaw.keySet()));
    }
}
