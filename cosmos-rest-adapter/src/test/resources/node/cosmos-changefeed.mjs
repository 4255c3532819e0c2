// @azure/cosmos's change feed iterator against the TetraDB Cosmos REST endpoint: node cosmos-changefeed.mjs <endpoint> <key>
import assert from "node:assert/strict";
import { CosmosClient, ChangeFeedStartFrom, ChangeFeedMode, StatusCodes } from "@azure/cosmos";

const [endpoint, key] = process.argv.slice(2);
const client = new CosmosClient({ endpoint, key });
const { database } = await client.databases.createIfNotExists({ id: "nodecf" });
const { container } = await database.containers.createIfNotExists({ id: "feed", partitionKey: { paths: ["/pk"] } });

/** Reads until the server says 304 (nothing new); returns the items and the last continuation token. */
async function drain(iterator) {
  const items = [];
  let token;
  while (iterator.hasMoreResults) {
    const res = await iterator.readNext();
    token = res.continuationToken;
    if (res.statusCode === StatusCodes.NotModified) break;
    items.push(...res.result);
  }
  return { items, token };
}

for (let i = 0; i < 12; i++) {
  await container.items.create({ id: "i" + i, pk: "p" + (i % 3), v: i });
}
await container.items.upsert({ id: "i0", pk: "p0", v: 100 });

// from the beginning: the latest version of each item once, the updated one last
const all = await drain(container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Beginning(), maxItemCount: 5 }));
assert.equal(all.items.length, 12);
assert.equal(all.items.at(-1).id, "i0");
assert.equal(all.items.at(-1).v, 100);
assert.ok(all.items.every((d) => typeof d._lsn === "number"));

// from now: nothing, then exactly the later changes through the continuation token
const now = await drain(container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Now() }));
assert.equal(now.items.length, 0);
await container.items.create({ id: "later", pk: "p1", v: 1 });
const later = await drain(container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Continuation(now.token) }));
assert.deepEqual(later.items.map((d) => d.id), ["later"]);
const resumed = await drain(container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Continuation(all.token) }));
assert.deepEqual(resumed.items.map((d) => d.id), ["later"]);

// one partition key
const p1 = await drain(container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Beginning("p1") }));
assert.deepEqual(p1.items.map((d) => d.id).sort(), ["i1", "i10", "i4", "i7", "later"]);

// a point in time after everything so far: only what follows
await new Promise((r) => setTimeout(r, 1100)); // If-Modified-Since has one-second resolution
const point = new Date();
await new Promise((r) => setTimeout(r, 1100));
await container.items.create({ id: "timed", pk: "p2", v: 1 });
const timed = await drain(container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Time(point) }));
assert.deepEqual(timed.items.map((d) => d.id), ["timed"]);

// all versions and deletes
const { container: avad } = await database.containers.createIfNotExists({
  id: "avad", partitionKey: { paths: ["/pk"] }, changeFeedPolicy: { retentionDuration: 10 } });
const start = await drain(avad.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Now(), changeFeedMode: ChangeFeedMode.AllVersionsAndDeletes }));
await avad.items.create({ id: "x", pk: "a", v: 1 });
await avad.item("x", "a").delete();
const versions = await drain(avad.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Continuation(start.token), changeFeedMode: ChangeFeedMode.AllVersionsAndDeletes }));
assert.deepEqual(versions.items.map((c) => c.metadata.operationType), ["create", "delete"]);
assert.equal(versions.items[0].current.v, 1);
assert.equal(versions.items[1].previous.id, "x");

console.log("OK node change feed");
