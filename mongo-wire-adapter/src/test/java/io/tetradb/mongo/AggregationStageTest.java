package io.tetradb.mongo;

import com.mongodb.MongoCommandException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Sorts;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The stages $lookup (pipeline and let), $bucket, $sample, $out, $merge, $replaceWith, $sortByCount. */
class AggregationStageTest extends MongoServerTestBase {
    private static final MongoDatabase DB = client.getDatabase("stages");

    private static MongoCollection<Document> fresh(String name, List<Document> docs) {
        MongoCollection<Document> c = DB.getCollection(name);
        c.drop();
        if (!docs.isEmpty()) {
            c.insertMany(docs);
        }
        return c;
    }

    @Test
    void lookupWithAPipelineAndLet() {
        // the manual's orders/warehouses example: stock that can fill each order
        MongoCollection<Document> orders = fresh("orders", List.of(
                new Document("_id", 1).append("item", "almonds").append("ordered", 12),
                new Document("_id", 2).append("item", "pecans").append("ordered", 60),
                new Document("_id", 3).append("item", "cookies").append("ordered", 2)));
        fresh("warehouses", List.of(
                new Document("_id", 1).append("stock_item", "almonds").append("warehouse", "A").append("instock", 120),
                new Document("_id", 2).append("stock_item", "pecans").append("warehouse", "A").append("instock", 80),
                new Document("_id", 3).append("stock_item", "almonds").append("warehouse", "B").append("instock", 60),
                new Document("_id", 4).append("stock_item", "cookies").append("warehouse", "B").append("instock", 40),
                new Document("_id", 5).append("stock_item", "cookies").append("warehouse", "A").append("instock", 80)));
        List<Document> out = orders.aggregate(List.of(
                new Document("$lookup", new Document("from", "warehouses")
                        .append("let", new Document("order_item", "$item").append("order_qty", "$ordered"))
                        .append("pipeline", List.of(
                                new Document("$match", new Document("$expr", new Document("$and", List.of(
                                        new Document("$eq", List.of("$stock_item", "$$order_item")),
                                        new Document("$gte", List.of("$instock", "$$order_qty")))))),
                                new Document("$sort", new Document("warehouse", 1)),
                                new Document("$project", new Document("stock_item", 0).append("_id", 0))))
                        .append("as", "stockdata")),
                new Document("$sort", new Document("_id", 1)))).into(new ArrayList<>());
        assertEquals(List.of(new Document("warehouse", "A").append("instock", 120),
                new Document("warehouse", "B").append("instock", 60)), out.get(0).get("stockdata"));
        assertEquals(List.of(new Document("warehouse", "A").append("instock", 80)), out.get(1).get("stockdata"));
        assertEquals(List.of(new Document("warehouse", "A").append("instock", 80),
                new Document("warehouse", "B").append("instock", 40)), out.get(2).get("stockdata"));
        // the concise form: localField/foreignField and a pipeline
        Document concise = orders.aggregate(List.of(new Document("$match", new Document("_id", 3)),
                new Document("$lookup", new Document("from", "warehouses").append("localField", "item")
                        .append("foreignField", "stock_item")
                        .append("pipeline", List.of(new Document("$match", new Document("instock",
                                new Document("$gt", 50)))))
                        .append("as", "big")))).first();
        assertEquals(1, concise.getList("big", Document.class).size());
        assertEquals(5, concise.getList("big", Document.class).get(0).get("_id"));
    }

    @Test
    void bucketGroupsByBoundariesWithADefault() {
        MongoCollection<Document> artists = fresh("artists", List.of(
                new Document("_id", 1).append("last_name", "Bernard").append("year_born", 1887),
                new Document("_id", 2).append("last_name", "Rippl-Ronai").append("year_born", 1861),
                new Document("_id", 3).append("last_name", "Ostroumova").append("year_born", 1871),
                new Document("_id", 4).append("last_name", "Van Gogh").append("year_born", 1853),
                new Document("_id", 5).append("last_name", "Maurer").append("year_born", 1868),
                new Document("_id", 6).append("last_name", "Munch").append("year_born", 1863),
                new Document("_id", 7).append("last_name", "Klimt").append("year_born", 1862),
                new Document("_id", 8).append("last_name", "Hokusai").append("year_born", 1760)));
        List<Document> out = artists.aggregate(List.of(new Document("$bucket", new Document("groupBy", "$year_born")
                .append("boundaries", List.of(1840, 1850, 1860, 1870, 1880)).append("default", "Other")
                .append("output", new Document("count", new Document("$sum", 1))
                        .append("artists", new Document("$push", "$last_name")))))).into(new ArrayList<>());
        assertEquals(List.of(
                new Document("_id", 1850).append("count", 1).append("artists", List.of("Van Gogh")),
                new Document("_id", 1860).append("count", 4).append("artists",
                        List.of("Rippl-Ronai", "Maurer", "Munch", "Klimt")),
                new Document("_id", 1870).append("count", 1).append("artists", List.of("Ostroumova")),
                new Document("_id", "Other").append("count", 2).append("artists", List.of("Bernard", "Hokusai"))),
                out);
        List<Document> counts = artists.aggregate(List.of(new Document("$bucket", new Document("groupBy",
                "$year_born").append("boundaries", List.of(1850, 1870)).append("default", "x")))).into(new ArrayList<>());
        assertEquals(List.of(new Document("_id", 1850).append("count", 5), new Document("_id", "x").append("count", 3)),
                counts);
        MongoCommandException e = assertThrows(MongoCommandException.class, () -> artists.aggregate(List.of(
                new Document("$bucket", new Document("groupBy", "$year_born").append("boundaries",
                        List.of(1850, 1870))))).first());
        assertEquals(40066, e.getErrorCode());
    }

    @Test
    void sampleReturnsDistinctDocumentsOfTheCollection() {
        List<Document> docs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            docs.add(new Document("_id", i));
        }
        MongoCollection<Document> c = fresh("sampled", docs);
        List<Document> three = c.aggregate(List.of(new Document("$sample", new Document("size", 3))))
                .into(new ArrayList<>());
        assertEquals(3, three.size());
        Set<Object> ids = new HashSet<>();
        three.forEach(d -> ids.add(d.get("_id")));
        assertEquals(3, ids.size());
        assertTrue(docs.containsAll(three));
        assertEquals(10, c.aggregate(List.of(new Document("$sample", new Document("size", 50))))
                .into(new ArrayList<>()).size());
    }

    @Test
    void outReplacesTheTargetCollection() {
        MongoCollection<Document> books = fresh("books", List.of(
                new Document("_id", 8751).append("title", "The Banquet").append("author", "Dante"),
                new Document("_id", 8752).append("title", "Divine Comedy").append("author", "Dante"),
                new Document("_id", 8645).append("title", "Eclogues").append("author", "Dante"),
                new Document("_id", 7000).append("title", "The Odyssey").append("author", "Homer"),
                new Document("_id", 7020).append("title", "Iliad").append("author", "Homer")));
        MongoCollection<Document> authors = fresh("authors", List.of(new Document("_id", "stale")));
        // the server's cursor is empty; the driver's toCollection() only runs the pipeline
        Document reply = DB.runCommand(new Document("aggregate", "books").append("pipeline", List.of(
                new Document("$group", new Document("_id", "$author").append("books", new Document("$push", "$title"))),
                new Document("$out", "authors"))).append("cursor", new Document()));
        assertEquals(List.of(), reply.get("cursor", Document.class).getList("firstBatch", Document.class));
        assertEquals(List.of(
                new Document("_id", "Dante").append("books", List.of("Eclogues", "The Banquet", "Divine Comedy")),
                new Document("_id", "Homer").append("books", List.of("The Odyssey", "Iliad"))),
                authors.find().sort(Sorts.ascending("_id")).into(new ArrayList<>()));
        MongoCommandException e = assertThrows(MongoCommandException.class, () -> books.aggregate(List.of(
                new Document("$out", "x"), new Document("$match", new Document()))).first());
        assertEquals(40601, e.getErrorCode(), "MongoDB's code for an $out that is not last");
    }

    @Test
    void mergeMatchesOnIdOrFields() {
        MongoCollection<Document> salaries = fresh("salaries", List.of(
                new Document("_id", 1).append("employee", "Ant").append("dept", "A").append("salary", 100000),
                new Document("_id", 2).append("employee", "Bee").append("dept", "A").append("salary", 120000),
                new Document("_id", 3).append("employee", "Cat").append("dept", "Z").append("salary", 115000)));
        MongoCollection<Document> budgets = fresh("budgets", List.of(
                new Document("_id", "A").append("salaries", 1).append("note", "kept by merge")));
        salaries.aggregate(List.of(new Document("$group", new Document("_id", "$dept")
                .append("salaries", new Document("$sum", "$salary"))), new Document("$merge", "budgets"))).toCollection();
        assertEquals(List.of(new Document("_id", "A").append("salaries", 220000).append("note", "kept by merge"),
                new Document("_id", "Z").append("salaries", 115000)),
                budgets.find().sort(Sorts.ascending("_id")).into(new ArrayList<>()));

        salaries.aggregate(List.of(new Document("$group", new Document("_id", "$dept")
                .append("salaries", new Document("$sum", 1))), new Document("$merge", new Document("into", "budgets")
                .append("whenMatched", "replace").append("whenNotMatched", "discard")))).toCollection();
        assertEquals(List.of(new Document("_id", "A").append("salaries", 2), new Document("_id", "Z")
                .append("salaries", 1)), budgets.find().sort(Sorts.ascending("_id")).into(new ArrayList<>()));

        budgets.insertOne(new Document("_id", "Q").append("salaries", 0));
        salaries.aggregate(List.of(new Document("$project", new Document("_id", 0).append("employee", 1)
                .append("dept", 1)), new Document("$merge", new Document("into", "people")
                .append("on", "employee").append("whenMatched", "keepExisting")))).toCollection();
        MongoCollection<Document> people = DB.getCollection("people");
        assertEquals(3, people.countDocuments());
        salaries.aggregate(List.of(new Document("$project", new Document("_id", 0).append("employee", 1)
                .append("dept", "moved")), new Document("$merge", new Document("into", "people")
                .append("on", "employee").append("whenMatched", "keepExisting")))).toCollection();
        assertEquals(3, people.countDocuments(new Document("dept", new Document("$ne", "moved"))));

        MongoCommandException e = assertThrows(MongoCommandException.class, () -> salaries.aggregate(List.of(
                new Document("$project", new Document("_id", "nobody")), new Document("$merge",
                        new Document("into", "budgets").append("whenNotMatched", "fail")))).toCollection());
        assertEquals(13113, e.getErrorCode());
        people.drop();
    }

    @Test
    void replaceWithAndSortByCount() {
        MongoCollection<Document> c = fresh("people2", List.of(
                new Document("_id", 1).append("name", new Document("first", "John").append("last", "Backus"))
                        .append("tags", List.of("a", "b")),
                new Document("_id", 2).append("name", new Document("first", "John").append("last", "McCarthy"))
                        .append("tags", List.of("b")),
                new Document("_id", 3).append("name", new Document("first", "Grace").append("last", "Hopper"))
                        .append("tags", List.of("b", "c"))));
        assertEquals(new Document("first", "Grace").append("last", "Hopper"), c.aggregate(List.of(
                new Document("$match", new Document("_id", 3)), new Document("$replaceWith", "$name"))).first());
        assertEquals(List.of(new Document("_id", "b").append("count", 3)), c.aggregate(List.of(
                new Document("$unwind", "$tags"), new Document("$sortByCount", "$tags"),
                new Document("$limit", 1))).into(new ArrayList<>()));
    }
}
