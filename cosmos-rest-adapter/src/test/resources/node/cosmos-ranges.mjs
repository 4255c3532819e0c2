// @azure/cosmos over a server that shows physical partitions as partition key ranges: node cosmos-ranges.mjs <endpoint> <key>
import assert from "node:assert/strict";
import { CosmosClient, ChangeFeedStartFrom, StatusCodes } from "@azure/cosmos";

const [endpoint, key] = process.argv.slice(2);
const client = new CosmosClient({ endpoint, key });
const { database } = await client.databases.createIfNotExists({ id: "noderanges" });

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

function assertOnce(ids, expected, what) {
  assert.equal(ids.length, new Set(ids).size, what + ": an id came twice");
  assert.deepEqual([...ids].sort(), [...expected].sort(), what);
}

/** Raises the container's throughput and waits until the ranges the server lists reach `count`. */
async function splitTo(container, count) {
  const { resource: offer } = await container.readOffer();
  await client.offer(offer.id).replace({ ...offer, content: { ...offer.content, offerThroughput: count * 10000 } });
  for (let i = 0; i < 600; i++) {
    const { resources } = await container.readPartitionKeyRanges().fetchAll();
    if (resources.length === count) return resources;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("no split to " + count + " ranges");
}

// three physical partitions: three feed ranges, a change feed per range and for the container
const { container } = await database.containers.createIfNotExists({
  id: "three", partitionKey: { paths: ["/pk"] }, throughput: 30000 });
const expected = [];
for (let i = 0; i < 60; i++) {
  await container.items.create({ id: "i" + i, pk: "p" + i, v: i });
  expected.push("i" + i);
}
const feedRanges = await container.getFeedRanges();
assert.equal(feedRanges.length, 3);
const { resources: pkranges } = await container.readPartitionKeyRanges().fetchAll();
assert.equal(pkranges.length, 3);
assert.equal(pkranges[0].minInclusive, "");
assert.equal(pkranges[2].maxExclusive, "FF");
const perRange = [];
for (const range of feedRanges) {
  const part = await drain(container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Beginning(range) }));
  assert.ok(part.items.length > 0 && part.items.length < 60, "a range holds " + part.items.length);
  perRange.push(...part.items.map((d) => d.id));
}
assertOnce(perRange, expected, "per-range change feeds");
const whole = await drain(container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Beginning(), maxItemCount: 7 }));
assertOnce(whole.items.map((d) => d.id), expected, "container change feed");
await container.items.create({ id: "later", pk: "x", v: 100 });
const later = await drain(container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Continuation(whole.token) }));
assert.deepEqual(later.items.map((d) => d.id), ["later"]);

// queries over the three ranges: ORDER BY, TOP, aggregates, DISTINCT as Node sends them (whole, no range named)
const { resources: ordered } = await container.items.query("SELECT VALUE c.v FROM c ORDER BY c.v DESC").fetchAll();
assert.deepEqual(ordered, [100, ...Array.from({ length: 60 }, (_, i) => 59 - i)]);
const { resources: top } = await container.items.query("SELECT TOP 5 VALUE c.v FROM c ORDER BY c.v").fetchAll();
assert.deepEqual(top, [0, 1, 2, 3, 4]);
const { resources: count } = await container.items.query("SELECT VALUE COUNT(1) FROM c").fetchAll();
assert.deepEqual(count, [61]);
const { resources: distinct } = await container.items.query("SELECT DISTINCT VALUE c.v % 3 FROM c WHERE c.v < 60").fetchAll();
assert.deepEqual([...distinct].sort(), [0, 1, 2]);

// a paged query and a change feed continuation across a split
const { container: paged } = await database.containers.createIfNotExists({
  id: "paged", partitionKey: { paths: ["/pk"] }, throughput: 10000 });
const pagedIds = [];
for (let i = 0; i < 100; i++) {
  await paged.items.create({ id: "q" + i, pk: "k" + i, v: i });
  pagedIds.push("q" + i);
}
const before = await drain(paged.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Beginning() }));
assertOnce(before.items.map((d) => d.id), pagedIds, "change feed before the split");
const iterator = paged.items.query("SELECT * FROM c", { maxItemCount: 20 });
const seen = [];
seen.push(...(await iterator.fetchNext()).resources.map((d) => d.id));
const second = await iterator.fetchNext();
seen.push(...second.resources.map((d) => d.id));
assert.equal(seen.length, 40);
const children = await splitTo(paged, 2);
assert.deepEqual(children.map((r) => r.parents.length), [1, 1]);
while (iterator.hasMoreResults()) {
  seen.push(...(await iterator.fetchNext()).resources.map((d) => d.id));
}
assertOnce(seen, pagedIds, "paged query across a split");
const resumed = [];
const fromToken = paged.items.query("SELECT * FROM c", { maxItemCount: 20, continuationToken: second.continuationToken });
while (fromToken.hasMoreResults()) {
  resumed.push(...(await fromToken.fetchNext()).resources.map((d) => d.id));
}
assertOnce(resumed, pagedIds.filter((id) => !seen.slice(0, 40).includes(id)), "query resumed after a split");
for (let i = 0; i < 10; i++) {
  await paged.items.create({ id: "after" + i, pk: "k" + i, v: i });
}
const after = await drain(paged.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Continuation(before.token) }));
assertOnce(after.items.map((d) => d.id), Array.from({ length: 10 }, (_, i) => "after" + i), "change feed across the split");
assert.equal((await paged.getFeedRanges()).length, 2);

console.log("OK node ranges");
