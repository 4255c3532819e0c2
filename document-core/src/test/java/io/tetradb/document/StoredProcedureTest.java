package io.tetradb.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.script.ScriptLimits;
import io.tetradb.testing.TickingScriptClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static io.tetradb.document.ScriptTestSupport.M;
import static io.tetradb.document.ScriptTestSupport.exists;
import static io.tetradb.document.ScriptTestSupport.inT1;
import static io.tetradb.document.ScriptTestSupport.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stored procedures through the public API: one ACID transaction per execution over one logical partition. Cosmos'
 * bounds (5 s, operations refused after 4 s) run on a {@link TickingScriptClock}: 1 ms per reading, i.e. per 10,000
 * instructions or operation, so no test here depends on how fast a loaded machine runs the scripts.
 */
class StoredProcedureTest {
    @TempDir
    Path dir;
    CosmosClient client;
    CosmosContainer c;
    CosmosScripts scripts;

    static ScriptLimits limits() {
        return ScriptLimits.DEFAULTS.withClock(new TickingScriptClock(java.time.Duration.ofMillis(1)));
    }

    @BeforeEach
    void open() throws Exception {
        client = new CosmosClientBuilder().dataDirectory(dir).scriptLimits(limits()).buildClient();
        c = ScriptTestSupport.library(client);
        scripts = c.getScripts();
    }

    @AfterEach
    void close() {
        client.close();
    }

    static ObjectNode book(String id, String... authors) {
        ObjectNode b = M.createObjectNode().put("id", id).put("tenant", "t1").put("type", "book").put("name", "Book " + id);
        ArrayNode a = b.putArray("authors");
        for (String author : authors) {
            a.addObject().put("id", author).put("name", author);
        }
        return b;
    }

    @Test
    void addBookFromTheExamplesRunsUnmodifiedAsOneTransaction() throws Exception {
        String body = ScriptTestSupport.addBookFromReadme();
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("addBook", body));
        CosmosStoredProcedureResponse r = scripts.getStoredProcedure("addBook")
                .execute(List.of(book("b4", "a1", "a2")), inT1());
        assertEquals(200, r.getStatusCode());
        JsonNode created = M.readTree(r.getResponseAsString());
        assertEquals("b4", created.path("id").asText());
        assertTrue(created.has("_etag"), "the body is the created document with its system properties");
        ObjectNode a1 = read(c, "a1");
        ObjectNode a2 = read(c, "a2");
        assertEquals(4, a1.path("countOfBooks").asInt());
        assertEquals(2, a2.path("countOfBooks").asInt());
        assertEquals("b4", a1.path("books").get(3).asText());
        assertEquals("b4", a2.path("books").get(1).asText());
        assertTrue(exists(c, "b4"));
        // charge: one create, two reads, two replaces (~5 + 2 + 10 RU) plus CPU
        assertTrue(r.getRequestCharge() > 15, "charge " + r.getRequestCharge());
    }

    @Test
    void aProcedureThatThrowsAfterTheSecondAuthorLeavesNoTrace() throws Exception {
        String body = ScriptTestSupport.addBookFromReadme()
                .replace("function addBook(book) {", "function addBookThenFail(book) {\n  var replaced = 0;")
                .replace("if (err3) throw err3;", "if (err3) throw err3; if (++replaced == 2) throw new Error(\"rule: no second author\");");
        assertTrue(body.contains("++replaced"));
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("addBookThenFail", body));
        String etag1 = c.readItem("a1", new PartitionKey("t1"), ObjectNode.class).getETag();
        String etag2 = c.readItem("a2", new PartitionKey("t1"), ObjectNode.class).getETag();
        CosmosException e = assertThrows(CosmosException.class, () -> scripts.getStoredProcedure("addBookThenFail")
                .execute(List.of(book("b5", "a1", "a2")), inT1()));
        assertEquals(400, e.getStatusCode());
        assertTrue(e.getMessage().contains("rule: no second author"), e.getMessage());
        assertFalse(exists(c, "b5"));
        assertEquals(etag1, c.readItem("a1", new PartitionKey("t1"), ObjectNode.class).getETag());
        assertEquals(etag2, c.readItem("a2", new PartitionKey("t1"), ObjectNode.class).getETag());
        assertEquals(3, read(c, "a1").path("countOfBooks").asInt());
        // a failed operation (a3 does not exist) also aborts: the error reaches the callback, which throws it
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("addBook", ScriptTestSupport.addBookFromReadme()));
        CosmosException missing = assertThrows(CosmosException.class, () -> scripts.getStoredProcedure("addBook")
                .execute(List.of(book("b6", "a1", "a3")), inT1()));
        assertEquals(400, missing.getStatusCode());
        assertFalse(exists(c, "b6"));
        assertEquals(3, read(c, "a1").path("countOfBooks").asInt());
    }

    @Test
    void concurrentRunsOnTheSameTenantBothCount() throws Exception {
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("addBook", ScriptTestSupport.addBookFromReadme()));
        int threads = 4;
        int perThread = 5;
        CyclicBarrier start = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit((Callable<Integer>) () -> {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        scripts.getStoredProcedure("addBook").execute(List.of(book("t" + thread + "-" + i, "a1", "a2")), inT1());
                    }
                    return perThread;
                }));
            }
            for (Future<Integer> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        int added = threads * perThread;
        assertEquals(3 + added, read(c, "a1").path("countOfBooks").asInt());
        assertEquals(1 + added, read(c, "a2").path("countOfBooks").asInt());
        assertEquals(3 + added, read(c, "a1").path("books").size());
    }

    @Test
    void readersNeverSeePartOfAProcedure() throws Exception {
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("addBook", ScriptTestSupport.addBookFromReadme()));
        int books = 40;
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicInteger checks = new java.util.concurrent.atomic.AtomicInteger();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<String> reader = pool.submit(() -> {
                while (!done.get() || checks.get() == 0) {
                    // a book that is visible has its author updated (read after it) ...
                    for (int i = 0; i < books; i++) {
                        if (exists(c, "n" + i)) {
                            ObjectNode a1 = read(c, "a1");
                            if (!a1.path("books").toString().contains("\"n" + i + "\"")) {
                                return "book n" + i + " is visible but a1 does not list it: " + a1.path("books");
                            }
                        }
                    }
                    // ... and every book an author lists (read before them) is there
                    ObjectNode a2 = read(c, "a2");
                    for (JsonNode b : a2.path("books")) {
                        if (!exists(c, b.asText())) {
                            return "a2 lists " + b.asText() + " which is not visible";
                        }
                    }
                    if (a2.path("countOfBooks").asInt() != a2.path("books").size()) {
                        return "a2's count and list disagree: " + a2;
                    }
                    checks.incrementAndGet();
                }
                return null;
            });
            for (int i = 0; i < books; i++) {
                scripts.getStoredProcedure("addBook").execute(List.of(book("n" + i, "a1", "a2")), inT1());
            }
            done.set(true);
            assertEquals(null, reader.get());
        } finally {
            pool.shutdown();
        }
        assertEquals(1 + books, read(c, "a2").path("countOfBooks").asInt());
        assertTrue(checks.get() > 0);
    }

    @Test
    void queriesInsideTheProcedureSeeItsOwnWritesAndTakeParameters() throws Exception {
        String body = """
                function addAndCount(id) {
                  var coll = getContext().getCollection();
                  coll.createDocument(coll.getSelfLink(), {id: id, tenant: "t1", type: "book", authors: []}, function (err) {
                    if (err) throw err;
                    var q = {query: "SELECT VALUE COUNT(1) FROM r WHERE r.type = @t", parameters: [{name: "@t", value: "book"}]};
                    var ok = coll.queryDocuments(coll.getSelfLink(), q, {}, function (err2, feed) {
                      if (err2) throw err2;
                      console.log("books:", feed[0]);
                      getContext().getResponse().setBody({books: feed[0]});
                    });
                    if (!ok) throw new Error("not accepted");
                  });
                }""";
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("addAndCount", body));
        CosmosStoredProcedureResponse r = scripts.getStoredProcedure("addAndCount")
                .execute(List.of("b9"), inT1().setScriptLoggingEnabled(true));
        assertEquals(4, M.readTree(r.getResponseAsString()).path("books").asInt());
        assertEquals("books: 4\n", r.getScriptLog());
        CosmosStoredProcedureResponse quiet = scripts.getStoredProcedure("addAndCount").execute(List.of("b10"), inT1());
        assertEquals(null, quiet.getScriptLog(), "no log unless asked for");
    }

    @Test
    void theLogWrittenBeforeAFailureComesWithTheError() {
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("logsThenFails", """
                function logsThenFails() {
                  console.log("step 1 & 100%");
                  console.log("step", 2);
                  var coll = getContext().getCollection();
                  coll.createDocument(coll.getSelfLink(), {id: "never", tenant: "t1"});
                  while (true) {}
                }"""));
        client.close();
        client = new CosmosClientBuilder().dataDirectory(dir)
                .scriptLimits(limits().withTimeout(java.time.Duration.ofMillis(1000))).buildClient();
        c = client.getDatabase("db").getContainer("library");
        scripts = c.getScripts();
        CosmosException e = assertThrows(CosmosException.class, () -> scripts.getStoredProcedure("logsThenFails")
                .execute(null, inT1().setScriptLoggingEnabled(true)));
        assertEquals(408, e.getStatusCode());
        assertEquals("step 1 & 100%\nstep 2\n", java.net.URLDecoder.decode(
                e.getResponseHeaders().get("x-ms-documentdb-script-log-results"), java.nio.charset.StandardCharsets.UTF_8));
        CosmosException quiet = assertThrows(CosmosException.class,
                () -> scripts.getStoredProcedure("logsThenFails").execute(null, inT1()));
        assertTrue(quiet.getResponseHeaders().isEmpty(), "no log unless asked for");
        assertFalse(exists(c, "never"));
    }

    @Test
    void everyCollectionOperationWorksWithSelfAndAltLinks() throws Exception {
        String body = """
                function all() {
                  var coll = getContext().getCollection();
                  var out = [];
                  coll.upsertDocument(coll.getAltLink(), {id: "x", tenant: "t1", n: 1}, function (e, doc) {
                    if (e) throw e;
                    coll.patchDocument(doc._self, [{op: "incr", path: "/n", value: 41}], function (e2, patched) {
                      if (e2) throw e2;
                      out.push(patched.n);
                      coll.readDocuments(coll.getSelfLink(), {pageSize: 2}, function (e3, docs, options) {
                        if (e3) throw e3;
                        out.push(docs.length, typeof options.continuation);
                        coll.deleteDocument(coll.getAltLink() + "/docs/b3", {}, function (e4) {
                          if (e4) throw e4;
                          coll.readDocument(coll.getAltLink() + "/docs/b3", {}, function (e5) {
                            out.push(e5.number);
                            coll.replaceDocument(patched._self, {id: "x", tenant: "t1", n: 0}, {etag: "stale"}, function (e6) {
                              out.push(e6.number);
                              getContext().getResponse().setBody(out);
                            });
                          });
                        });
                      });
                    });
                  });
                }""";
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("all", body));
        CosmosStoredProcedureResponse r = scripts.getStoredProcedure("all").execute(null, inT1());
        assertEquals("[42,2,\"string\",404,412]", r.getResponseAsString());
        assertEquals(42, read(c, "x").path("n").asInt());
        assertFalse(exists(c, "b3"));
    }

    @Test
    void aProcedureReachesOnlyItsPartitionAndItsCollection() {
        String body = """
                function other() {
                  var coll = getContext().getCollection();
                  coll.createDocument(coll.getSelfLink(), {id: "y", tenant: "t2"});
                }""";
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("other", body));
        CosmosException e = assertThrows(CosmosException.class, () -> scripts.getStoredProcedure("other").execute(null, inT1()));
        assertEquals(400, e.getStatusCode());
        String foreign = """
                function foreign() {
                  getContext().getCollection().readDocument("dbs/db/colls/another/docs/a1", function (err) { throw err; });
                }""";
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("foreign", foreign));
        CosmosException f = assertThrows(CosmosException.class, () -> scripts.getStoredProcedure("foreign").execute(null, inT1()));
        assertTrue(f.getMessage().contains("does not name this collection"), f.getMessage());
        CosmosException noKey = assertThrows(CosmosException.class, () -> scripts.getStoredProcedure("other")
                .execute(null, new CosmosStoredProcedureRequestOptions()));
        assertEquals(400, noKey.getStatusCode());
    }

    @Test
    void theFluentApiFiltersMapsPlucksSortsAndFlattens() throws Exception {
        String body = """
                function fluent() {
                  var out = {};
                  var r1 = __.filter(function (d) { return d.type === "author"; }, function (err, feed) {
                    out.authors = feed.map(function (a) { return a.id; });
                  });
                  if (!r1.isAccepted) throw new Error("not accepted");
                  __.chain()
                    .filter(function (d) { return d.type === "book"; })
                    .sortByDescending(function (b) { return b.id; })
                    .pluck("id")
                    .value(function (err, ids) { out.booksDesc = ids; });
                  __.chain()
                    .filter(function (d) { return d.type === "author"; })
                    .map(function (a) { return a.books; })
                    .flatten()
                    .sortBy(function (b) { return b; })
                    .value(function (err, books) { out.allBooks = books; });
                  __.map(function (d) { return d.id; }, function (err, ids) { out.count = ids.length; });
                  out.self = __.getSelfLink() === getContext().getCollection().getSelfLink();
                  getContext().getResponse().setBody(out);
                }""";
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("fluent", body));
        JsonNode r = M.readTree(scripts.getStoredProcedure("fluent").execute(null, inT1()).getResponseAsString());
        assertEquals("[\"a1\",\"a2\"]", r.path("authors").toString());
        assertEquals("[\"b3\",\"b2\",\"b1\"]", r.path("booksDesc").toString());
        assertEquals("[\"b1\",\"b1\",\"b2\",\"b3\"]", r.path("allBooks").toString());
        assertEquals(5, r.path("count").asInt());
        assertTrue(r.path("self").asBoolean());
    }

    /** The bulk-import procedure of the Cosmos DB docs: it stops when not accepted and the caller resumes. */
    static final String BULK_IMPORT = """
            function bulkImport(docs) {
                var collection = getContext().getCollection();
                var collectionLink = collection.getSelfLink();
                var count = 0;
                if (!docs) throw new Error("The array is undefined or null.");
                var docsLength = docs.length;
                if (docsLength == 0) {
                    getContext().getResponse().setBody(0);
                    return;
                }
                tryCreate(docs[count], callback);
                function tryCreate(doc, callback) {
                    var isAccepted = collection.createDocument(collectionLink, doc, callback);
                    if (!isAccepted) getContext().getResponse().setBody(count);
                }
                function callback(err, doc, options) {
                    if (err) throw err;
                    count++;
                    if (count >= docsLength) {
                        getContext().getResponse().setBody(count);
                    } else {
                        tryCreate(docs[count], callback);
                    }
                }
            }""";

    @Test
    void bulkImportReturnsItsCountAndResumesWhenNotAccepted() throws Exception {
        client.close();
        client = new CosmosClientBuilder().dataDirectory(dir)
                .scriptLimits(limits().withMaxOperations(100)).buildClient();
        c = client.getDatabase("db").getContainer("library");
        scripts = c.getScripts();
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("bulkImport", BULK_IMPORT));
        List<ObjectNode> docs = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            docs.add(M.createObjectNode().put("id", "imp" + i).put("tenant", "t1").put("type", "imported"));
        }
        int imported = 0;
        int calls = 0;
        while (imported < docs.size()) {
            CosmosStoredProcedureResponse r = scripts.getStoredProcedure("bulkImport")
                    .execute(List.of(docs.subList(imported, docs.size())), inT1());
            int n = Integer.parseInt(r.getResponseAsString());
            assertTrue(n > 0, "each call makes progress");
            imported += n;
            calls++;
        }
        assertEquals(3, calls, "100 + 100 + 50 with at most 100 operations per execution");
        long stored = c.queryItems("SELECT VALUE COUNT(1) FROM c WHERE c.type = 'imported'",
                new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey("t1")), Long.class).stream().findFirst().orElseThrow();
        assertEquals(250, stored);
    }

    @Test
    void scriptsAreResourcesWithCosmosLimits() {
        CosmosStoredProcedureResponse created = scripts.createStoredProcedure(
                new CosmosStoredProcedureProperties("p", "function p() { getContext().getResponse().setBody(1); }"));
        assertEquals(201, created.getStatusCode());
        CosmosStoredProcedureProperties p = created.getProperties();
        assertTrue(p.getResourceId() != null && p.getETag() != null && p.getTimestamp() != null);
        assertEquals(409, assertThrows(CosmosException.class, () -> scripts.createStoredProcedure(
                new CosmosStoredProcedureProperties("p", "function p() {}"))).getStatusCode());
        assertEquals(400, assertThrows(CosmosException.class, () -> scripts.createStoredProcedure(
                new CosmosStoredProcedureProperties("bad", "function bad( {"))).getStatusCode());
        CosmosStoredProcedureResponse replaced = scripts.getStoredProcedure("p").replace(
                new CosmosStoredProcedureProperties("p", "function p() { getContext().getResponse().setBody(2); }"));
        assertFalse(p.getETag().equals(replaced.getProperties().getETag()));
        assertEquals(p.getResourceId(), replaced.getProperties().getResourceId());
        assertEquals("2", scripts.getStoredProcedure("p").execute(null, inT1()).getResponseAsString());
        assertEquals(412, assertThrows(CosmosException.class, () -> scripts.getStoredProcedure("p").delete(
                new CosmosStoredProcedureRequestOptions().setIfMatchETag(p.getETag()))).getStatusCode());
        for (int i = 1; i < 100; i++) {
            scripts.createStoredProcedure(new CosmosStoredProcedureProperties("s" + i, "function s() {}"));
        }
        CosmosException over = assertThrows(CosmosException.class, () -> scripts.createStoredProcedure(
                new CosmosStoredProcedureProperties("s100", "function s() {}")));
        assertEquals(400, over.getStatusCode());
        assertEquals(100, scripts.readAllStoredProcedures().stream().count());
        assertEquals(1, scripts.queryStoredProcedures("SELECT * FROM r WHERE r.id = 's42'", null).stream().count());
        scripts.getStoredProcedure("s1").delete();
        assertEquals(404, assertThrows(CosmosException.class, () -> scripts.getStoredProcedure("s1").read()).getStatusCode());
        for (int i = 0; i < 50; i++) {
            scripts.createUserDefinedFunction(new CosmosUserDefinedFunctionProperties("u" + i, "function u(x) { return x; }"));
        }
        assertEquals(400, assertThrows(CosmosException.class, () -> scripts.createUserDefinedFunction(
                new CosmosUserDefinedFunctionProperties("u50", "function u(x) { return x; }"))).getStatusCode());
        assertEquals(400, assertThrows(CosmosException.class, () -> scripts.getStoredProcedure("p")
                .executeJson("{\"not\":\"an array\"}", inT1())).getStatusCode());
    }

    @Test
    void theChargeIsTheOperationsPlusADeterministicCpuCost() throws Exception {
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("readOne",
                "function readOne() { var c = getContext().getCollection();"
                        + " c.readDocument(c.getAltLink() + '/docs/a1', function (e, d) { getContext().getResponse().setBody(d.id); }); }"));
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("readAndSpin",
                "function readAndSpin() { var c = getContext().getCollection(); var x = 0;"
                        + " for (var i = 0; i < 200000; i++) { x += i % 7; }" // a few hundred readings of the clock: far inside 80% of 5 s
                        + " c.readDocument(c.getAltLink() + '/docs/a1', function (e, d) { getContext().getResponse().setBody(x); }); }"));
        double read1 = scripts.getStoredProcedure("readOne").execute(null, inT1()).getRequestCharge();
        double read2 = scripts.getStoredProcedure("readOne").execute(null, inT1()).getRequestCharge();
        double spin1 = scripts.getStoredProcedure("readAndSpin").execute(null, inT1()).getRequestCharge();
        double spin2 = scripts.getStoredProcedure("readAndSpin").execute(null, inT1()).getRequestCharge();
        double pointRead = c.readItem("a1", new PartitionKey("t1"), ObjectNode.class).getRequestCharge();
        assertEquals(pointRead, read1, 1e-9, "a procedure doing one read costs that read (and too little CPU to count)");
        assertEquals(read1, read2, 1e-9);
        assertEquals(spin1, spin2, 1e-9, "CPU is counted in instructions, not time: the same run costs the same");
        assertTrue(spin1 > read1 + 10, "the loop's instructions are charged: " + spin1);
    }
}
