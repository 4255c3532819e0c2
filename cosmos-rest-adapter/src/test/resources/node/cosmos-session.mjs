// A scripted session of @azure/cosmos (Node) against the TetraDB Cosmos REST endpoint: node cosmos-session.mjs <endpoint> <key>
import assert from "node:assert/strict";
import { CosmosClient, BulkOperationType } from "@azure/cosmos";

const [endpoint, key] = process.argv.slice(2);
const client = new CosmosClient({ endpoint, key });

const { database } = await client.databases.createIfNotExists({ id: "node" });
const { container } = await database.containers.createIfNotExists({ id: "items", partitionKey: { paths: ["/pk"] } });

// items
const created = await container.items.create({ id: "a", pk: "p", n: 1, tags: ["x"] });
assert.equal(created.statusCode, 201);
assert.ok(created.resource._etag);
const read = await container.item("a", "p").read();
assert.equal(read.resource.n, 1);
const missing = await container.item("nope", "p").read();
assert.equal(missing.statusCode, 404);
await container.items.upsert({ id: "a", pk: "p", n: 2, tags: ["x"] });
assert.equal((await container.item("a", "p").read()).resource.n, 2);
await assert.rejects(
  container.item("a", "p").replace({ id: "a", pk: "p", n: 3 }, { accessCondition: { type: "IfMatch", condition: created.resource._etag } }),
  (e) => e.code === 412);
const patched = await container.item("a", "p").patch([{ op: "incr", path: "/n", value: 5 }, { op: "add", path: "/tags/-", value: "y" }]);
assert.equal(patched.resource.n, 7);
assert.deepEqual(patched.resource.tags, ["x", "y"]);
const conditional = container.item("a", "p").patch({ condition: "from c where c.n > 100", operations: [{ op: "set", path: "/n", value: 0 }] });
await assert.rejects(conditional, (e) => e.code === 412);
await assert.rejects(container.items.create({ id: "a", pk: "p" }), (e) => e.code === 409);
assert.equal((await container.item("a", "p").delete()).statusCode, 204);

// queries, optimistic (no plan needed) and page by page
for (let i = 0; i < 30; i++) {
  await container.items.create({ id: "q" + String(i).padStart(2, "0"), pk: "k" + (i % 3), n: i, cat: i % 2 ? "odd" : "even" });
}
const desc = await container.items.query("SELECT VALUE c.n FROM c ORDER BY c.n DESC").fetchAll();
assert.deepEqual(desc.resources, Array.from({ length: 30 }, (_, i) => 29 - i));
const top = await container.items.query("SELECT TOP 3 VALUE c.n FROM c ORDER BY c.n").fetchAll();
assert.deepEqual(top.resources, [0, 1, 2]);
const page = await container.items.query("SELECT VALUE c.n FROM c ORDER BY c.n OFFSET 5 LIMIT 3").fetchAll();
assert.deepEqual(page.resources, [5, 6, 7]);
const distinct = await container.items.query("SELECT DISTINCT VALUE c.cat FROM c ORDER BY c.cat").fetchAll();
assert.deepEqual(distinct.resources, ["even", "odd"]);
const groups = await container.items.query("SELECT c.cat, COUNT(1) AS cnt FROM c GROUP BY c.cat").fetchAll();
assert.equal(groups.resources.length, 2);
assert.ok(groups.resources.every((g) => g.cnt === 15));
const count = await container.items.query("SELECT VALUE COUNT(1) FROM c").fetchAll();
assert.deepEqual(count.resources, [30]);
const params = await container.items.query({ query: "SELECT VALUE c.id FROM c WHERE c.n = @n", parameters: [{ name: "@n", value: 7 }] }).fetchAll();
assert.deepEqual(params.resources, ["q07"]);
const scoped = await container.items.query("SELECT VALUE c.n FROM c ORDER BY c.n", { partitionKey: "k1" }).fetchAll();
assert.deepEqual(scoped.resources, [1, 4, 7, 10, 13, 16, 19, 22, 25, 28]);
const it = container.items.query("SELECT VALUE c.n FROM c ORDER BY c.n", { maxItemCount: 7 });
const seen = [];
let pages = 0;
while (it.hasMoreResults()) {
  const r = await it.fetchNext();
  if (r.resources.length) { pages++; seen.push(...r.resources); }
}
assert.deepEqual(seen, Array.from({ length: 30 }, (_, i) => i));
assert.ok(pages >= 5, "pages " + pages);
const first = await container.items.query("SELECT VALUE c.n FROM c ORDER BY c.n", { maxItemCount: 10 }).fetchNext();
const resumed = await container.items.query("SELECT VALUE c.n FROM c ORDER BY c.n", { maxItemCount: 10, continuationToken: first.continuationToken }).fetchNext();
assert.deepEqual(resumed.resources, Array.from({ length: 10 }, (_, i) => i + 10));
const all = await container.items.readAll().fetchAll();
assert.equal(all.resources.length, 30);

// batch: success, then a failure that applies nothing
const ok = await container.items.batch([
  { operationType: BulkOperationType.Create, resourceBody: { id: "b1", pk: "b" } },
  { operationType: BulkOperationType.Upsert, resourceBody: { id: "b2", pk: "b" } },
  { operationType: BulkOperationType.Read, id: "b1" }], "b");
assert.equal(ok.code, 200);
assert.deepEqual(ok.result.map((r) => r.statusCode), [201, 201, 200]);
const failed = await container.items.batch([
  { operationType: BulkOperationType.Create, resourceBody: { id: "b3", pk: "b" } },
  { operationType: BulkOperationType.Create, resourceBody: { id: "b1", pk: "b" } }], "b");
assert.equal(failed.code, 207);
assert.deepEqual(failed.result.map((r) => r.statusCode), [424, 409]);
assert.equal((await container.item("b3", "b").read()).statusCode, 404);

// bulk
const ops = Array.from({ length: 50 }, (_, i) => ({ operationType: BulkOperationType.Create, partitionKey: "u" + (i % 5), resourceBody: { id: "bulk" + i, pk: "u" + (i % 5) } }));
const bulk = await container.items.executeBulkOperations(ops);
assert.equal(bulk.filter((r) => r.response && r.response.statusCode === 201).length, 50, JSON.stringify(bulk[0]));

// hierarchical partition keys
const { container: hpk } = await database.containers.createIfNotExists({ id: "hpk", partitionKey: { paths: ["/t", "/u"], kind: "MultiHash", version: 2 } });
await hpk.items.create({ id: "h1", t: "t1", u: "u1" });
await hpk.items.create({ id: "h2", t: "t1", u: "u2" });
assert.equal((await hpk.item("h1", ["t1", "u1"]).read()).resource.id, "h1");
const prefix = await hpk.items.query("SELECT VALUE c.id FROM c ORDER BY c.id", { partitionKey: ["t1"] }).fetchAll();
assert.deepEqual(prefix.resources, ["h1", "h2"]);

// offers
const { resource: offer } = await container.readOffer();
assert.equal(offer.content.offerThroughput, 400);
await client.offer(offer.id).replace({ ...offer, content: { ...offer.content, offerThroughput: 1000 } });
assert.equal((await container.readOffer()).resource.content.offerThroughput, 1000);

// stored procedures run in the core: one transaction in the partition given, the response body parsed
const spBody = "function sp(id, n) { var coll = getContext().getCollection(); console.log('adding ' + id);"
  + " var ok = coll.createDocument(coll.getSelfLink(), { id: id, pk: 'sp', n: n }, function (err, doc) {"
  + " if (err) throw err; getContext().getResponse().setBody({ created: doc.id, n: doc.n }); });"
  + " if (!ok) throw new Error('not accepted'); }";
await container.scripts.storedProcedures.create({ id: "sp", body: spBody });
assert.equal((await container.scripts.storedProcedure("sp").read()).resource.body, spBody);
const ran = await container.scripts.storedProcedure("sp").execute("sp", ["s1", 7], { enableScriptLogging: true });
assert.deepEqual(ran.resource, { created: "s1", n: 7 });
assert.equal(decodeURIComponent(ran.headers["x-ms-documentdb-script-log-results"]), "adding s1\n");
assert.equal((await container.item("s1", "sp").read()).resource.n, 7);
await container.scripts.storedProcedures.create({ id: "spFails", body: spBody.replace("if (err) throw err;", "throw new Error('rule: refused');") });
await assert.rejects(container.scripts.storedProcedure("spFails").execute("sp", ["s2", 1]),
  (e) => e.code === 400 && JSON.stringify(e.body).includes("rule: refused"));
assert.equal((await container.item("s2", "sp").read()).statusCode, 404);
await assert.rejects(container.scripts.storedProcedure("absent").execute("sp", []), (e) => e.code === 404);

// UDFs in queries
await container.scripts.userDefinedFunctions.create({ id: "double", body: "function double(x) { return x * 2; }" });
const doubled = await container.items.query("SELECT VALUE udf.double(c.n) FROM c WHERE c.pk = 'sp'").fetchAll();
assert.deepEqual(doubled.resources, [14]);

// errors carry the server's status
await assert.rejects(client.database("node").container("absent").items.create({ id: "x", pk: "p" }), (e) => e.code === 404);

console.log("OK node session");
