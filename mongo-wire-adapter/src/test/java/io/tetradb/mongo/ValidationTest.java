package io.tetradb.mongo;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoServerException;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.CreateCollectionOptions;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.InsertOneOptions;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.Updates;
import com.mongodb.client.model.ValidationAction;
import com.mongodb.client.model.ValidationLevel;
import com.mongodb.client.model.ValidationOptions;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Collection validators as MongoDB applies them: {@code $jsonSchema} and query operators, on every kind of write,
 * with validationLevel/validationAction, collMod, listCollections and a restart; index kinds this server cannot
 * serve are refused when created.
 */
class ValidationTest extends MongoServerTestBase {
    private static final Document PERSON = Document.parse("""
            {$jsonSchema: {
              bsonType: "object", required: ["name", "age"], title: "person",
              properties: {
                _id: {}, name: {bsonType: "string", minLength: 2, maxLength: 10, pattern: "^[A-Z]",
                                description: "a capitalised name"},
                age: {bsonType: ["int", "long"], minimum: 0, maximum: 150, exclusiveMaximum: true},
                kind: {enum: ["a", "b"]},
                tags: {bsonType: "array", items: {type: "string"}, minItems: 1, maxItems: 3, uniqueItems: true},
                meta: {bsonType: "object", minProperties: 1, maxProperties: 2,
                       patternProperties: {"^x_": {type: "number"}}},
                score: {anyOf: [{type: "null"}, {bsonType: "double", minimum: 0}]},
                code: {oneOf: [{type: "string"}, {bsonType: "int"}]},
                flag: {not: {type: "string"}},
                both: {allOf: [{type: "number"}, {minimum: 5}]}
              },
              additionalProperties: false
            }}""");

    private static MongoCollection<Document> create(String name, ValidationOptions options) {
        MongoDatabase db = client.getDatabase("val");
        db.getCollection(name).drop();
        db.createCollection(name, new CreateCollectionOptions().validationOptions(options));
        return db.getCollection(name);
    }

    private static Document person(Object id) {
        return new Document("_id", id).append("name", "Ann").append("age", 30);
    }

    private static Document errInfo(MongoWriteException e) {
        assertEquals(121, e.getError().getCode());
        assertEquals("Document failed validation", e.getError().getMessage());
        return Document.parse(e.getError().getDetails().toJson());
    }

    @Test
    void jsonSchemaKeywords() {
        MongoCollection<Document> c = create("people", new ValidationOptions().validator(PERSON));
        c.insertOne(person(1).append("kind", "a").append("tags", List.of("t1", "t2"))
                .append("meta", new Document("x_1", 5)).append("score", null).append("code", 7)
                .append("flag", true).append("both", 6));
        List<Document> invalid = List.of(
                new Document("_id", 10).append("name", "Ann"),                       // required
                person(11).append("name", 5),                                          // bsonType
                person(12).append("name", "A"),                                        // minLength
                person(13).append("name", "Abcdefghijk"),                              // maxLength
                person(14).append("name", "ann"),                                      // pattern
                person(15).append("age", -1),                                          // minimum
                person(16).append("age", 150),                                         // exclusiveMaximum
                person(17).append("kind", "c"),                                        // enum
                person(18).append("tags", List.of(1)),                                 // items
                person(19).append("tags", List.of()),                                  // minItems
                person(20).append("tags", List.of("a", "b", "c", "d")),                // maxItems
                person(21).append("tags", List.of("a", "a")),                          // uniqueItems
                person(22).append("meta", new Document()),                             // minProperties
                person(23).append("meta", new Document("a", 1).append("b", 2).append("c", 3)), // maxProperties
                person(24).append("meta", new Document("x_1", "s")),                   // patternProperties
                person(25).append("score", -1.0),                                      // anyOf
                person(26).append("code", 1.5),                                        // oneOf
                person(27).append("flag", "s"),                                        // not
                person(28).append("both", 4),                                          // allOf
                person(29).append("other", 1),                                         // additionalProperties
                person(30).append("age", 30.5));                                       // bsonType (double)
        for (Document d : invalid) {
            MongoWriteException e = assertThrows(MongoWriteException.class, () -> c.insertOne(d), d.toJson());
            assertEquals(121, e.getError().getCode(), d.toJson());
        }
        assertEquals(1, c.countDocuments());
        // $jsonSchema is a query operator too: find the documents that do not conform
        c.insertOne(new Document("_id", 50).append("name", 7), new InsertOneOptions().bypassDocumentValidation(true));
        assertEquals(List.of(50), c.find(new Document("$nor", List.of(PERSON))).map(d -> d.get("_id"))
                .into(new ArrayList<>()));
        c.deleteOne(Filters.eq("_id", 50));

        Document details = errInfo(assertThrows(MongoWriteException.class,
                () -> c.insertOne(new Document("_id", 40).append("name", 5)))).get("details", Document.class);
        assertEquals("$jsonSchema", details.getString("operatorName"));
        List<Document> rules = details.getList("schemaRulesNotSatisfied", Document.class);
        Document properties = rules.stream().filter(r -> r.getString("operatorName").equals("properties"))
                .findFirst().orElseThrow();
        Document name = properties.getList("propertiesNotSatisfied", Document.class).get(0);
        assertEquals("name", name.getString("propertyName"));
        assertEquals("a capitalised name", name.getString("description"));
        Document bsonType = name.getList("details", Document.class).get(0);
        assertEquals("bsonType", bsonType.getString("operatorName"));
        assertEquals("type did not match", bsonType.getString("reason"));
        assertEquals(5, bsonType.get("consideredValue"));
        assertEquals("int", bsonType.getString("consideredType"));
        Document required = rules.stream().filter(r -> r.getString("operatorName").equals("required"))
                .findFirst().orElseThrow();
        assertEquals(List.of("age"), required.getList("missingProperties", String.class));
    }

    @Test
    void everyWriteIsValidated() {
        MongoCollection<Document> c = create("writes", new ValidationOptions().validator(PERSON));
        c.insertOne(person(1));
        assertEquals(40, errInfo(assertThrows(MongoWriteException.class, () -> c.insertOne(new Document("_id", 40))))
                .get("failingDocumentId"));
        errInfo(assertThrows(MongoWriteException.class, () -> c.updateOne(Filters.eq("_id", 1),
                Updates.set("age", "old"))));
        errInfo(assertThrows(MongoWriteException.class, () -> c.replaceOne(Filters.eq("_id", 1),
                new Document("name", "Bob"))));
        errInfo(assertThrows(MongoWriteException.class, () -> c.updateOne(Filters.eq("_id", 2),
                Updates.set("name", "Cy"), new UpdateOptions().upsert(true))));
        MongoCommandException fam = assertThrows(MongoCommandException.class,
                () -> c.findOneAndUpdate(Filters.eq("_id", 1), Updates.unset("name")));
        assertEquals(121, fam.getErrorCode());
        // an unordered insertMany keeps the valid documents
        MongoServerException bulk = assertThrows(MongoServerException.class, () -> c.insertMany(
                List.of(person(3), new Document("_id", 4), person(5)),
                new com.mongodb.client.model.InsertManyOptions().ordered(false)));
        assertEquals(121, ((com.mongodb.MongoBulkWriteException) bulk).getWriteErrors().get(0).getCode());
        assertEquals(List.of(1, 3, 5), c.find().map(d -> d.getInteger("_id")).into(new ArrayList<>()));
        assertEquals(person(1), c.find(Filters.eq("_id", 1)).first());
        // bypassDocumentValidation lets a write through
        c.insertOne(new Document("_id", 6), new InsertOneOptions().bypassDocumentValidation(true));
        c.updateOne(Filters.eq("_id", 1), Updates.set("age", "old"),
                new UpdateOptions().bypassDocumentValidation(true));
        assertEquals("old", c.find(Filters.eq("_id", 1)).first().get("age"));
    }

    @Test
    void queryOperatorValidatorsLevelsActionsAndCollMod() {
        MongoDatabase db = client.getDatabase("val");
        MongoCollection<Document> c = create("ops", new ValidationOptions()
                .validator(new Document("a", new Document("$gt", 0)).append("b", new Document("$type", "string"))));
        c.insertOne(new Document("_id", 1).append("a", 1).append("b", "x"));
        Document details = errInfo(assertThrows(MongoWriteException.class, () -> c.insertOne(
                new Document("_id", 2).append("a", -1).append("b", "x")))).get("details", Document.class);
        assertEquals("$and", details.getString("operatorName"));
        Document clause = details.getList("clausesNotSatisfied", Document.class).get(0);
        assertEquals(0, clause.get("index"));
        assertEquals("$gt", clause.get("details", Document.class).getString("operatorName"));
        assertEquals(-1, clause.get("details", Document.class).get("consideredValue"));

        // an invalid document already there: moderate lets its updates through, strict does not
        c.insertOne(new Document("_id", 3).append("a", -5), new InsertOneOptions().bypassDocumentValidation(true));
        db.runCommand(new Document("collMod", "ops").append("validationLevel", "moderate"));
        assertDoesNotThrow(() -> c.updateOne(Filters.eq("_id", 3), Updates.set("a", -6)));
        errInfo(assertThrows(MongoWriteException.class, () -> c.updateOne(Filters.eq("_id", 1),
                Updates.set("a", -1))));
        db.runCommand(new Document("collMod", "ops").append("validationLevel", "strict"));
        errInfo(assertThrows(MongoWriteException.class, () -> c.updateOne(Filters.eq("_id", 3),
                Updates.set("a", -7))));
        // warn: written (and logged)
        db.runCommand(new Document("collMod", "ops").append("validationAction", "warn"));
        c.insertOne(new Document("_id", 4).append("a", -1));
        // a new validator through collMod, shown by listCollections
        db.runCommand(new Document("collMod", "ops").append("validator", new Document("c", new Document("$exists",
                true))).append("validationAction", "error"));
        Document info = db.listCollections().filter(Filters.eq("name", "ops")).first();
        assertEquals(new Document("validator", new Document("c", new Document("$exists", true)))
                .append("validationLevel", "strict").append("validationAction", "error"), info.get("options"));
        errInfo(assertThrows(MongoWriteException.class, () -> c.insertOne(new Document("_id", 5).append("a", 1))));
        c.insertOne(new Document("_id", 6).append("c", 1));
        // bad options and validators are refused with MongoDB's codes and change nothing
        assertEquals(2, assertThrows(MongoCommandException.class, () -> db.runCommand(new Document("collMod", "ops")
                .append("validationLevel", "sometimes"))).getErrorCode());
        assertEquals(9, assertThrows(MongoCommandException.class, () -> db.runCommand(new Document("collMod", "ops")
                .append("validator", new Document("$jsonSchema", new Document("bogus", 1))))).getErrorCode());
        assertEquals(26, assertThrows(MongoCommandException.class, () -> db.runCommand(
                new Document("collMod", "nosuch").append("validationLevel", "off"))).getErrorCode());
        MongoCommandException format = assertThrows(MongoCommandException.class, () -> db.createCollection("fmt",
                new CreateCollectionOptions().validationOptions(new ValidationOptions().validator(
                        Document.parse("{$jsonSchema: {properties: {e: {type: 'string', format: 'email'}}}}")))));
        assertEquals(9, format.getErrorCode());
        assertEquals("$jsonSchema keyword 'format' is not currently supported", format.getErrorMessage());
        assertTrue(db.listCollectionNames().into(new ArrayList<>()).stream().noneMatch("fmt"::equals));
        // create options this server cannot honour are refused, unknown ones too (MongoDB's parser: 40415)
        assertEquals(238, assertThrows(MongoCommandException.class, () -> db.runCommand(new Document("create", "coll")
                .append("collation", new Document("locale", "fr")))).getErrorCode());
        assertEquals(40415, assertThrows(MongoCommandException.class, () -> db.runCommand(new Document("create",
                "unk").append("bogus", 1))).getErrorCode());
        // validationLevel off: nothing checked
        MongoCollection<Document> off = create("off", new ValidationOptions().validator(PERSON)
                .validationLevel(ValidationLevel.OFF).validationAction(ValidationAction.ERROR));
        off.insertOne(new Document("_id", 1));
    }

    @Test
    void unservableIndexKindsAreRefusedWhenCreated() {
        MongoCollection<Document> c = client.getDatabase("val").getCollection("idx");
        c.insertOne(new Document("t", "hello"));
        assertEquals(67, assertThrows(MongoCommandException.class,
                () -> c.createIndex(new Document("t", "text"))).getErrorCode());
        assertEquals(67, assertThrows(MongoCommandException.class,
                () -> c.createIndex(new Document("loc", "2dsphere"))).getErrorCode());
        assertEquals(67, assertThrows(MongoCommandException.class,
                () -> c.createIndex(new Document("loc", "2d"))).getErrorCode());
        // a TTL index is servable now (TtlIndexTest); a compound one is still refused, as MongoDB refuses it
        assertEquals(67, assertThrows(MongoCommandException.class, () -> c.createIndex(new Document("at", 1)
                .append("b", 1), new IndexOptions().expireAfter(60L, TimeUnit.SECONDS))).getErrorCode());
        assertEquals(List.of("_id_"), c.listIndexes().map(d -> d.getString("name")).into(new ArrayList<>()));
    }

    @Test
    void validatorsSurviveARestart(@TempDir Path dir) {
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).buildClient();
             MongoWireServer server = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store);
             MongoClient c = PersistenceTest.connect(server)) {
            c.getDatabase("r").createCollection("v", new CreateCollectionOptions().validationOptions(
                    new ValidationOptions().validator(PERSON)));
            c.getDatabase("r").getCollection("v").insertOne(person(1));
        }
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).buildClient();
             MongoWireServer server = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store);
             MongoClient c = PersistenceTest.connect(server)) {
            MongoCollection<Document> v = c.getDatabase("r").getCollection("v");
            assertEquals(121, assertThrows(MongoWriteException.class, () -> v.insertOne(new Document("_id", 2)))
                    .getError().getCode());
            assertEquals(List.of("v"), c.getDatabase("r").listCollectionNames().into(new ArrayList<>()));
            // dropping the collection takes its validator along
            v.drop();
            v.insertOne(new Document("_id", 2));
        }
    }
}
