package io.tetradb.mongo;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Collation;
import com.mongodb.client.model.CollationStrength;
import com.mongodb.client.model.DeleteOptions;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Sorts;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Collation strengths 1 and 2 for equality, ranges and sort (the core's binary index only narrows nothing then). */
class CollationTest extends MongoServerTestBase {
    static final Collation CASE_INSENSITIVE = Collation.builder().locale("en")
            .collationStrength(CollationStrength.SECONDARY).build();
    static final Collation BASE_LETTERS = Collation.builder().locale("en")
            .collationStrength(CollationStrength.PRIMARY).build();

    @Test
    void equalityRangesAndSortFollowTheCollation() {
        MongoCollection<Document> c = client.getDatabase("coll").getCollection("fruit");
        c.drop();
        List<String> names = List.of("apple", "Apple", "APPLE", "\u00e4pple", "banana", "Banana", "cherry");
        for (int i = 0; i < names.size(); i++) {
            c.insertOne(new Document("_id", i).append("name", names.get(i)));
        }
        assertEquals(List.of("apple"), names(c.find(Filters.eq("name", "apple"))));
        assertEquals(List.of("apple", "Apple", "APPLE"),
                names(c.find(Filters.eq("name", "apple")).collation(CASE_INSENSITIVE).sort(Sorts.ascending("_id"))));
        assertEquals(List.of("apple", "Apple", "APPLE", "\u00e4pple"),
                names(c.find(Filters.eq("name", "APPLE")).collation(BASE_LETTERS).sort(Sorts.ascending("_id"))));
        assertEquals(2, c.countDocuments(Filters.eq("name", "BANANA"),
                new com.mongodb.client.model.CountOptions().collation(CASE_INSENSITIVE)));
        assertEquals(List.of("cherry"), names(c.find(Filters.gt("name", "BANANA")).collation(CASE_INSENSITIVE)));
        List<String> sorted = names(c.find().sort(Sorts.ascending("name")).collation(BASE_LETTERS));
        assertEquals(List.of("banana", "Banana", "cherry"), sorted.subList(4, 7), sorted.toString());
        assertEquals(2, c.deleteMany(Filters.eq("name", "banana"), new DeleteOptions().collation(CASE_INSENSITIVE))
                .getDeletedCount());
    }

    private static List<String> names(Iterable<Document> docs) {
        List<String> out = new ArrayList<>();
        docs.forEach(d -> out.add(d.getString("name")));
        return out;
    }
}
