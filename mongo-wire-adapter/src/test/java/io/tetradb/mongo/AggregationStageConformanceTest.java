package io.tetradb.mongo;

import com.mongodb.MongoCommandException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Date;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stages issue 12 (item 8) found missing — {@code $graphLookup $redact $unionWith $setWindowFields $bucketAuto
 * $indexStats}, {@code $merge} with a pipeline — on the MongoDB manual's own examples, through the driver.
 */
class AggregationStageConformanceTest extends MongoServerTestBase {
    private static MongoDatabase db() {
        return client.getDatabase("stages2");
    }

    private static MongoCollection<Document> fresh(String name, String... docs) {
        return fresh(db(), name, docs);
    }

    private static List<Document> run(MongoCollection<Document> c, String... stages) {
        return aggregate(c, stages);
    }

    @Test
    void graphLookupFollowsTheReportingHierarchy() {
        MongoCollection<Document> employees = fresh("employees",
                "{_id: 1, name: 'Dev'}",
                "{_id: 2, name: 'Eliot', reportsTo: 'Dev'}",
                "{_id: 3, name: 'Ron', reportsTo: 'Eliot'}",
                "{_id: 4, name: 'Andrew', reportsTo: 'Eliot'}",
                "{_id: 5, name: 'Asya', reportsTo: 'Ron'}",
                "{_id: 6, name: 'Dan', reportsTo: 'Andrew'}");
        List<Document> out = run(employees, "{$match: {name: 'Asya'}}",
                "{$graphLookup: {from: 'employees', startWith: '$reportsTo', connectFromField: 'reportsTo', "
                        + "connectToField: 'name', as: 'reportingHierarchy', depthField: 'depth'}}");
        assertEquals(1, out.size());
        List<Document> chain = out.get(0).getList("reportingHierarchy", Document.class);
        List<String> names = chain.stream().map(d -> d.getString("name")).sorted().toList();
        assertEquals(List.of("Dev", "Eliot", "Ron"), names);
        for (Document d : chain) {
            long expected = switch (d.getString("name")) {
                case "Ron" -> 0L;
                case "Eliot" -> 1L;
                default -> 2L;
            };
            assertEquals(expected, d.getLong("depth"));
        }
        List<Document> limited = run(employees, "{$match: {name: 'Asya'}}",
                "{$graphLookup: {from: 'employees', startWith: '$reportsTo', connectFromField: 'reportsTo', "
                        + "connectToField: 'name', as: 'h', maxDepth: 1}}");
        assertEquals(2, limited.get(0).getList("h", Document.class).size());
        MongoCommandException e = assertThrows(MongoCommandException.class, () -> run(employees,
                "{$graphLookup: {from: 'employees', startWith: '$reportsTo', connectToField: 'name', as: 'h'}}"));
        assertEquals(40105, e.getErrorCode());
    }

    @Test
    void redactKeepsOnlyWhatTheUserMaySee() {
        MongoCollection<Document> forecasts = fresh("forecasts", "{_id: 1, title: '123 Department Report', "
                + "tags: ['G', 'STLW'], year: 2014, subsections: [{subtitle: 'Section 1: Overview', tags: ['SI', 'G'], "
                + "content: 'Section 1: This is the content of section 1.'}, {subtitle: 'Section 2: Analysis', "
                + "tags: ['STLW'], content: 'Section 2: This is the content of section 2.'}, {subtitle: 'Section 3: "
                + "Budgeting', tags: ['TK'], content: {text: 'Section 3: This is the content of section3.', "
                + "tags: ['HCS']}}]}");
        Document out = run(forecasts, "{$match: {year: 2014}}", "{$redact: {$cond: {if: {$gt: [{$size: "
                + "{$setIntersection: ['$tags', ['STLW', 'G']]}}, 0]}, then: '$$DESCEND', else: '$$PRUNE'}}}").get(0);
        List<Document> sections = out.getList("subsections", Document.class);
        assertEquals(List.of("Section 1: Overview", "Section 2: Analysis"),
                sections.stream().map(d -> d.getString("subtitle")).toList());
        assertEquals(List.of(), run(forecasts, "{$redact: '$$PRUNE'}"));
        assertEquals(1, run(forecasts, "{$redact: '$$KEEP'}").size());
        assertEquals(17053, assertThrows(MongoCommandException.class,
                () -> run(forecasts, "{$redact: 'nope'}")).getErrorCode());
    }

    @Test
    void unionWithAddsAnotherCollection() {
        MongoCollection<Document> s2019 = fresh("sales_2019", "{store: 'A', item: 'Chocolates', quantity: 150}",
                "{store: 'B', item: 'Chocolates', quantity: 50}");
        fresh("sales_2020", "{store: 'A', item: 'Cookies', quantity: 100}",
                "{store: 'B', item: 'Chocolates', quantity: 120}");
        List<Document> out = run(s2019, "{$set: {_id: '2019'}}", "{$unionWith: {coll: 'sales_2020', pipeline: "
                + "[{$set: {_id: '2020'}}]}}", "{$group: {_id: '$item', total: {$sum: '$quantity'}}}",
                "{$sort: {total: -1}}");
        assertEquals(List.of(Document.parse("{_id: 'Chocolates', total: 320}"),
                Document.parse("{_id: 'Cookies', total: 100}")), out);
        assertEquals(2, run(s2019, "{$unionWith: 'no_such_collection'}").size());
    }

    @Test
    void setWindowFieldsRunningTotalsRanksAndRanges() {
        MongoCollection<Document> cakes = fresh("cakeSales",
                "{_id: 0, type: 'chocolate', orderDate: {$date: '2020-05-18T14:10:30Z'}, state: 'CA', price: 13, "
                        + "quantity: 120}",
                "{_id: 1, type: 'chocolate', orderDate: {$date: '2021-03-20T11:30:05Z'}, state: 'WA', price: 14, "
                        + "quantity: 140}",
                "{_id: 2, type: 'vanilla', orderDate: {$date: '2021-01-11T06:31:15Z'}, state: 'CA', price: 12, "
                        + "quantity: 145}",
                "{_id: 3, type: 'vanilla', orderDate: {$date: '2020-02-08T13:13:23Z'}, state: 'WA', price: 13, "
                        + "quantity: 104}",
                "{_id: 4, type: 'strawberry', orderDate: {$date: '2019-05-18T16:09:01Z'}, state: 'CA', price: 41, "
                        + "quantity: 162}",
                "{_id: 5, type: 'strawberry', orderDate: {$date: '2019-01-08T06:12:03Z'}, state: 'WA', price: 43, "
                        + "quantity: 134}");
        // the manual's cumulative quantity per state
        List<Document> out = run(cakes, "{$setWindowFields: {partitionBy: '$state', sortBy: {orderDate: 1}, "
                + "output: {cumulativeQuantityForState: {$sum: '$quantity', window: {documents: ['unbounded', "
                + "'current']}}, rank: {$rank: {}}, previous: {$shift: {output: '$quantity', by: -1, default: 0}}, "
                + "stateTotal: {$sum: '$quantity'}, moving: {$avg: '$quantity', window: {documents: [-1, 0]}}}}}");
        List<Integer> ids = out.stream().map(d -> d.getInteger("_id")).toList();
        assertEquals(List.of(4, 0, 2, 5, 3, 1), ids, "by state, then by order date");
        assertEquals(List.of(162, 282, 427, 134, 238, 378),
                out.stream().map(d -> d.getInteger("cumulativeQuantityForState")).toList());
        assertEquals(List.of(1, 2, 3, 1, 2, 3), out.stream().map(d -> d.getInteger("rank")).toList());
        assertEquals(List.of(0, 162, 120, 0, 134, 104), out.stream().map(d -> d.getInteger("previous")).toList());
        assertEquals(427, out.get(0).getInteger("stateTotal"));
        assertEquals(141.0, out.get(1).getDouble("moving"));
        // a range window over a date sort key, in days
        List<Document> ranged = run(cakes, "{$setWindowFields: {partitionBy: '$state', sortBy: {orderDate: 1}, "
                + "output: {recent: {$push: '$_id', window: {range: [-400, 0], unit: 'day'}}, "
                + "n: {$documentNumber: {}}, dense: {$denseRank: {}}}}}");
        assertEquals(List.of(4), ranged.get(0).getList("recent", Integer.class));
        assertEquals(List.of(0, 2), ranged.get(2).getList("recent", Integer.class));
        assertEquals(3, ranged.get(2).getInteger("n"));
        MongoCommandException e = assertThrows(MongoCommandException.class, () -> run(cakes,
                "{$setWindowFields: {output: {r: {$rank: {}}}}}"));
        assertEquals(5371601, e.getErrorCode());
    }

    @Test
    void bucketAutoSplitsIntoEvenBuckets() {
        MongoCollection<Document> c = fresh("artwork", "{_id: 1, price: 199.99}", "{_id: 2, price: 280.00}",
                "{_id: 3, price: 76.04}", "{_id: 4, price: 167.30}", "{_id: 5, price: 483.00}",
                "{_id: 6, price: 385.00}", "{_id: 7, price: 159.00}", "{_id: 8, price: 118.42}");
        List<Document> out = run(c, "{$bucketAuto: {groupBy: '$price', buckets: 4}}");
        assertEquals(List.of(
                Document.parse("{_id: {min: 76.04, max: 159.0}, count: 2}"),
                Document.parse("{_id: {min: 159.0, max: 199.99}, count: 2}"),
                Document.parse("{_id: {min: 199.99, max: 385.0}, count: 2}"),
                Document.parse("{_id: {min: 385.0, max: 483.0}, count: 2}")), out);
        List<Document> withOutput = run(c, "{$bucketAuto: {groupBy: '$price', buckets: 2, output: "
                + "{ids: {$push: '$_id'}}}}");
        assertEquals(2, withOutput.size());
        assertEquals(List.of(3, 8, 7, 4), withOutput.get(0).getList("ids", Integer.class));
        assertEquals(40243, assertThrows(MongoCommandException.class,
                () -> run(c, "{$bucketAuto: {groupBy: '$price', buckets: 0}}")).getErrorCode());
    }

    @Test
    void indexStatsListsTheIndexes() {
        MongoCollection<Document> c = fresh("indexed", "{_id: 1, a: 1}");
        c.createIndex(new Document("a", 1));
        List<Document> out = run(c, "{$indexStats: {}}", "{$sort: {name: 1}}");
        assertEquals(List.of("_id_", "a_1"), out.stream().map(d -> d.getString("name")).toList());
        assertEquals(new Document("a", 1), out.get(1).get("key"));
        assertTrue(out.get(1).get("accesses", Document.class).containsKey("ops"));
        assertEquals(List.of(), run(c, "{$planCacheStats: {}}"), "no plan cache: the core plans every query");
        assertEquals(2, assertThrows(MongoCommandException.class, () -> run(c, "{$match: {}}", "{$indexStats: {}}"))
                .getErrorCode());
    }

    @Test
    void mergeWithAPipeline() {
        MongoCollection<Document> totals = fresh("totals", "{_id: 'A', qty: 10, runs: 1}");
        MongoCollection<Document> today = fresh("today", "{_id: 'A', qty: 5}", "{_id: 'B', qty: 7}");
        run(today, "{$merge: {into: 'totals', whenMatched: [{$set: {qty: {$add: ['$qty', '$$new.qty']}, "
                + "runs: {$add: ['$runs', 1]}}}], whenNotMatched: 'insert'}}");
        assertEquals(Document.parse("{_id: 'A', qty: 15, runs: 2}"), totals.find(new Document("_id", "A")).first());
        assertEquals(Document.parse("{_id: 'B', qty: 7}"), totals.find(new Document("_id", "B")).first());
        run(today, "{$match: {_id: 'A'}}", "{$merge: {into: 'totals', let: {add: '$qty'}, whenMatched: "
                + "[{$set: {qty: {$add: ['$qty', '$$add']}}}]}}");
        assertEquals(20, totals.find(new Document("_id", "A")).first().getInteger("qty"));
        // a pipeline may not change the matched document's _id (66), nor hold other stages
        MongoCommandException e = assertThrows(MongoCommandException.class, () -> run(today,
                "{$match: {_id: 'A'}}", "{$merge: {into: 'totals', whenMatched: [{$set: {_id: 'Z'}}]}}"));
        assertEquals(66, e.getErrorCode());
        assertThrows(MongoCommandException.class, () -> run(today,
                "{$merge: {into: 'totals', whenMatched: [{$group: {_id: null}}]}}"));
        assertEquals(20, totals.find(new Document("_id", "A")).first().getInteger("qty"));
    }

    @Test
    void windowsOverDatesIntegrateAndDerive() {
        MongoCollection<Document> c = fresh("power",
                "{_id: 1, t: {$date: '2021-01-01T00:00:00Z'}, kw: 2}",
                "{_id: 2, t: {$date: '2021-01-01T01:00:00Z'}, kw: 4}",
                "{_id: 3, t: {$date: '2021-01-01T02:00:00Z'}, kw: 4}");
        List<Document> out = run(c, "{$setWindowFields: {sortBy: {t: 1}, output: {kwh: {$integral: {input: '$kw', "
                + "unit: 'hour'}, window: {range: ['unbounded', 'current'], unit: 'hour'}}, rate: {$derivative: "
                + "{input: '$kw', unit: 'hour'}, window: {documents: [-1, 0]}}}}}");
        assertEquals(List.of(0.0, 3.0, 7.0), out.stream().map(d -> d.getDouble("kwh")).toList());
        assertEquals(2.0, out.get(1).getDouble("rate"));
        assertEquals(0.0, out.get(2).getDouble("rate"));
        assertEquals(Date.from(Instant.parse("2021-01-01T00:00:00Z")), out.get(0).getDate("t"));
    }

    @Test
    void groupWithTheNAccumulators() {
        // the manual's gamescores
        MongoCollection<Document> c = fresh("gamescores",
                "{_id: 1, playerId: 'PlayerA', gameId: 'G1', score: 31}",
                "{_id: 2, playerId: 'PlayerB', gameId: 'G1', score: 33}",
                "{_id: 3, playerId: 'PlayerC', gameId: 'G1', score: 99}",
                "{_id: 4, playerId: 'PlayerD', gameId: 'G1', score: 1}",
                "{_id: 5, playerId: 'PlayerA', gameId: 'G2', score: 10}",
                "{_id: 6, playerId: 'PlayerB', gameId: 'G2', score: 14}",
                "{_id: 7, playerId: 'PlayerC', gameId: 'G2', score: 66}",
                "{_id: 8, playerId: 'PlayerD', gameId: 'G2', score: 80}");
        List<Document> out = run(c, "{$group: {_id: '$gameId', "
                + "top3: {$topN: {n: 3, sortBy: {score: -1}, output: ['$playerId', '$score']}}, "
                + "last: {$bottom: {sortBy: {score: -1}, output: ['$playerId', '$score']}}, "
                + "bottom2: {$bottomN: {n: 2, sortBy: {score: -1}, output: '$playerId'}}, "
                + "best: {$top: {sortBy: {score: -1}, output: '$playerId'}}, "
                + "max2: {$maxN: {n: 2, input: '$score'}}, min2: {$minN: {n: 2, input: '$score'}}, "
                + "first2: {$firstN: {n: 2, input: '$playerId'}}, last2: {$lastN: {n: 2, input: '$playerId'}}}}",
                "{$sort: {_id: 1}}");
        Document g1 = out.get(0);
        assertEquals(List.of(List.of("PlayerC", 99), List.of("PlayerB", 33), List.of("PlayerA", 31)),
                g1.get("top3"));
        assertEquals(List.of("PlayerD", 1), g1.get("last"));
        assertEquals(List.of("PlayerA", "PlayerD"), g1.get("bottom2"));
        assertEquals("PlayerC", g1.get("best"));
        assertEquals(List.of(99, 33), g1.get("max2"));
        assertEquals(List.of(1, 31), g1.get("min2"));
        assertEquals(List.of("PlayerA", "PlayerB"), g1.get("first2"));
        assertEquals(List.of("PlayerC", "PlayerD"), g1.get("last2"));
        assertEquals("PlayerD", out.get(1).get("best"));
        assertEquals(5787908, assertThrows(MongoCommandException.class, () -> run(c,
                "{$group: {_id: null, x: {$firstN: {n: 0, input: '$score'}}}}")).getErrorCode());
    }

    @Test
    void fillAndDensify() {
        // the manual's $fill examples: a constant, linear interpolation, the last observation
        MongoCollection<Document> sales = fresh("dailySales",
                "{_id: 1, date: {$date: '2022-02-02T00:00:00Z'}, bootsSold: 10, sandalsSold: 20}",
                "{_id: 2, date: {$date: '2022-02-03T00:00:00Z'}, bootsSold: 7}",
                "{_id: 3, date: {$date: '2022-02-04T00:00:00Z'}, sandalsSold: null}");
        List<Document> filled = run(sales, "{$fill: {output: {bootsSold: {value: 0}, sandalsSold: {value: 0}}}}",
                "{$project: {_id: 0, date: 0}}");
        assertEquals(List.of(Document.parse("{bootsSold: 10, sandalsSold: 20}"),
                Document.parse("{bootsSold: 7, sandalsSold: 0}"), Document.parse("{sandalsSold: 0, bootsSold: 0}")),
                filled);
        MongoCollection<Document> stock = fresh("stock",
                "{_id: 1, time: {$date: '2021-03-08T09:00:00Z'}, price: 500}",
                "{_id: 2, time: {$date: '2021-03-08T10:00:00Z'}}",
                "{_id: 3, time: {$date: '2021-03-08T11:00:00Z'}, price: 515}",
                "{_id: 4, time: {$date: '2021-03-08T12:00:00Z'}}",
                "{_id: 5, time: {$date: '2021-03-08T13:00:00Z'}, price: null}",
                "{_id: 6, time: {$date: '2021-03-08T14:00:00Z'}, price: 485}");
        List<Document> linear = run(stock, "{$fill: {sortBy: {time: 1}, output: {price: {method: 'linear'}}}}");
        assertEquals(List.of(500, 507.5, 515, 505.0, 495.0, 485), linear.stream().map(d -> d.get("price")).toList());
        List<Document> locf = run(stock, "{$fill: {sortBy: {time: -1}, output: {price: {method: 'locf'}}}}");
        assertEquals(List.of(485, 485, 485, 515, 515, 500), locf.stream().map(d -> d.get("price")).toList());
        assertEquals(9, assertThrows(MongoCommandException.class, () -> run(stock,
                "{$fill: {output: {price: {method: 'linear'}}}}")).getErrorCode());

        // $densify: the manual's hourly readings with explicit bounds (the upper one excluded)
        MongoCollection<Document> weather = fresh("weather",
                "{_id: 1, timestamp: {$date: '2021-05-18T00:00:00Z'}, temp: 12}",
                "{_id: 2, timestamp: {$date: '2021-05-18T04:00:00Z'}, temp: 11}",
                "{_id: 3, timestamp: {$date: '2021-05-18T08:00:00Z'}, temp: 11}",
                "{_id: 4, timestamp: {$date: '2021-05-18T12:00:00Z'}, temp: 12}");
        List<Document> hours = run(weather, "{$densify: {field: 'timestamp', range: {step: 1, unit: 'hour', "
                + "bounds: [{$date: '2021-05-18T00:00:00Z'}, {$date: '2021-05-18T08:00:00Z'}]}}}");
        assertEquals(10, hours.size());
        assertEquals(Document.parse("{timestamp: {$date: '2021-05-18T01:00:00Z'}}"), hours.get(1));
        assertEquals(2, hours.get(4).get("_id"));
        assertEquals(4, hours.get(9).get("_id"));
        MongoCollection<Document> nums = fresh("nums", "{_id: 1, g: 'a', v: 0}", "{_id: 2, g: 'a', v: 5}",
                "{_id: 3, g: 'b', v: 3}");
        List<Document> full = run(nums, "{$densify: {field: 'v', partitionByFields: ['g'], range: {step: 2, "
                + "bounds: 'full'}}}", "{$project: {_id: 0}}");
        assertEquals(List.of(Document.parse("{g: 'a', v: 0}"), Document.parse("{g: 'a', v: 2}"),
                Document.parse("{g: 'a', v: 4}"), Document.parse("{g: 'a', v: 5}"), Document.parse("{g: 'b', v: 0}"),
                Document.parse("{g: 'b', v: 2}"), Document.parse("{g: 'b', v: 3}"),
                Document.parse("{g: 'b', v: 4}")), full);
        assertEquals(5, run(nums, "{$densify: {field: 'v', partitionByFields: ['g'], range: {step: 2, "
                + "bounds: 'partition'}}}").size());
    }

    @Test
    void moreWindowFunctions() {
        MongoCollection<Document> c = fresh("readings",
                "{_id: 1, t: {$date: '2021-01-15T00:00:00Z'}, x: 1, y: 2, v: 10}",
                "{_id: 2, t: {$date: '2021-02-15T00:00:00Z'}, x: 2, y: 4}",
                "{_id: 3, t: {$date: '2021-04-15T00:00:00Z'}, x: 3, y: 6, v: 30}",
                "{_id: 4, t: {$date: '2022-01-15T00:00:00Z'}, x: 4, y: 8}");
        List<Document> out = run(c, "{$setWindowFields: {sortBy: {t: 1}, output: {"
                + "lastTwoMonths: {$push: '$_id', window: {range: [-2, 0], unit: 'month'}}, "
                + "thisYear: {$count: {}, window: {range: [-1, 0], unit: 'year'}}, "
                + "cov: {$covariancePop: ['$x', '$y']}, covS: {$covarianceSamp: ['$x', '$y']}, "
                + "carried: {$locf: '$v'}, line: {$linearFill: '$v'}}}}");
        assertEquals(List.of(1, 2), out.get(1).getList("lastTwoMonths", Integer.class));
        assertEquals(List.of(2, 3), out.get(2).getList("lastTwoMonths", Integer.class));
        assertEquals(4, out.get(3).getInteger("thisYear"), "2021-01-15 .. 2022-01-15, both ends included");
        assertEquals(2.5, out.get(0).getDouble("cov"));
        assertEquals(10.0 / 3, out.get(0).getDouble("covS"), 1e-12);
        assertEquals(List.of(10, 10, 30, 30), out.stream().map(d -> d.get("carried")).toList());
        assertEquals(10 + 20.0 * 31 / 90, out.get(1).getDouble("line"), 1e-9);
    }

    @Test
    void medianAndPercentiles() {
        MongoCollection<Document> c = fresh("scores", "{_id: 1, s: 70}", "{_id: 2, s: 60}", "{_id: 3, s: 75}",
                "{_id: 4, s: 62}", "{_id: 5, s: 68}", "{_id: 6, s: 'absent'}");
        Document g = run(c, "{$group: {_id: null, m: {$median: {input: '$s', method: 'approximate'}}, "
                + "p: {$percentile: {input: '$s', p: [0.2, 0.9], method: 'approximate'}}}}").get(0);
        assertEquals(68.0, g.getDouble("m"));
        assertEquals(List.of(60.0, 75.0), g.getList("p", Double.class));
        Document e = run(c, "{$match: {_id: 1}}", "{$project: {m: {$median: {input: [60, 62, 68, 70], "
                + "method: 'continuous'}}}}").get(0);
        assertEquals(65.0, e.getDouble("m"));
        List<Document> w = run(c, "{$match: {s: {$type: 'number'}}}", "{$setWindowFields: {sortBy: {_id: 1}, "
                + "output: {m: {$median: {input: '$s', method: 'approximate'}, window: {documents: ['unbounded', "
                + "'current']}}}}}");
        assertEquals(List.of(70.0, 60.0, 70.0, 62.0, 68.0), w.stream().map(d -> d.getDouble("m")).toList());
        assertEquals(2, assertThrows(MongoCommandException.class, () -> run(c, "{$group: {_id: null, "
                + "p: {$percentile: {input: '$s', p: [1.5], method: 'approximate'}}}}")).getErrorCode());
    }
}
