// @azure/cosmos's change feed iterator against two TetraDB servers on one shared store, in two runs with a restart of
// server b between them:
//   node cosmos-changefeed-two-servers.mjs first <endpointA> <endpointB> <key>
//   node cosmos-changefeed-two-servers.mjs second <endpointA> <endpointB> <key> <state JSON printed by the first run>
import assert from "node:assert/strict";
import { CosmosClient, ChangeFeedStartFrom, ChangeFeedMode, StatusCodes } from "@azure/cosmos";

const [phase, endpointA, endpointB, key, stateJson] = process.argv.slice(2);
const a = new CosmosClient({ endpoint: endpointA, key });
const b = new CosmosClient({ endpoint: endpointB, key });

/** Reads until the server says 304 (nothing new), or `pages` pages; returns the items and the last continuation. */
async function drain(iterator, pages = Infinity) {
  const items = [];
  let token;
  for (let i = 0; i < pages && iterator.hasMoreResults; i++) {
    const res = await iterator.readNext();
    token = res.continuationToken;
    if (res.statusCode === StatusCodes.NotModified) break;
    items.push(...res.result);
  }
  return { items, token };
}

/** Each item once, each logical partition's changes in increasing _lsn. */
function latestOnce(items) {
  const seen = new Map();
  const lsn = new Map();
  for (const d of items) {
    const k = d.pk + "/" + d.id;
    assert.ok(!seen.has(k), "each item once: " + k);
    seen.set(k, d.v);
    assert.ok(!lsn.has(d.pk) || lsn.get(d.pk) < d._lsn, "lsn order in " + d.pk);
    lsn.set(d.pk, d._lsn);
  }
  return Object.fromEntries([...seen.entries()].sort());
}

const feed = (client) => client.database("nodecf2").container("feed");
const avad = (client) => client.database("nodecf2").container("avad");

if (phase === "first") {
  const { database } = await a.databases.createIfNotExists({ id: "nodecf2" });
  await database.containers.createIfNotExists({ id: "feed", partitionKey: { paths: ["/pk"] } });
  await database.containers.createIfNotExists({ id: "avad", partitionKey: { paths: ["/pk"] },
    changeFeedPolicy: { retentionDuration: 10 } });
  // a container made on a is used through b at once; writes alternate between the servers
  for (let i = 0; i < 12; i++) {
    await feed(i % 2 ? b : a).items.create({ id: "i" + i, pk: "p" + (i % 3), v: i });
  }
  await feed(b).items.upsert({ id: "i0", pk: "p0", v: 100 });
  // one page of five from the beginning on a: the continuation is taken there
  const page = await drain(feed(a).items.getChangeFeedIterator({
    changeFeedStartFrom: ChangeFeedStartFrom.Beginning(), maxItemCount: 5 }), 1);
  // at most five (a page may end early at a logical partition's boundary, as a Cosmos DB page may)
  assert.ok(page.items.length > 0 && page.items.length <= 5, "a first page: " + page.items.length);
  // from now on b (nothing yet), and all versions from now on b
  const now = await drain(feed(b).items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Now() }));
  assert.equal(now.items.length, 0);
  const avadNow = await drain(avad(b).items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Now(),
    changeFeedMode: ChangeFeedMode.AllVersionsAndDeletes }));
  // more changes through both servers after the continuations were taken
  await feed(a).items.upsert({ id: "i1", pk: "p1", v: 101 });
  await feed(b).items.create({ id: "later-b", pk: "p2", v: 1 });
  await feed(a).items.create({ id: "later-a", pk: "p9", v: 2 });
  await avad(a).items.create({ id: "x", pk: "k", v: 1 });
  await avad(b).item("x", "k").replace({ id: "x", pk: "k", v: 2 });
  await avad(a).item("x", "k").delete();
  console.log(JSON.stringify({ firstPage: page.items.map((d) => d.pk + "/" + d.id), token: page.token,
    nowToken: now.token, avadToken: avadNow.token }));
} else {
  const state = JSON.parse(stateJson);
  // b was restarted: it resumes what a handed out
  const rest = await drain(feed(b).items.getChangeFeedIterator({
    changeFeedStartFrom: ChangeFeedStartFrom.Continuation(state.token), maxItemCount: 4 }));
  const latest = latestOnce(rest.items);
  const all = new Set([...state.firstPage, ...Object.keys(latest)]);
  assert.equal(all.size, 14, "every item in the first page or the rest: " + [...all]);
  for (const k of Object.keys(latest)) {
    assert.ok(!state.firstPage.includes(k) || k === "p1/i1", "only changed items come again: " + k);
  }
  if (latest["p0/i0"] !== undefined) assert.equal(latest["p0/i0"], 100);
  assert.equal(latest["p1/i1"], 101);
  assert.equal(latest["p9/later-a"], 2);
  // and nothing new after the end, on the other server
  const after = await drain(feed(a).items.getChangeFeedIterator({
    changeFeedStartFrom: ChangeFeedStartFrom.Continuation(rest.token) }));
  assert.deepEqual(after.items, []);
  // "from now" taken on b before its restart, read on a: exactly the later changes
  const since = await drain(feed(a).items.getChangeFeedIterator({
    changeFeedStartFrom: ChangeFeedStartFrom.Continuation(state.nowToken) }));
  assert.deepEqual(Object.keys(latestOnce(since.items)), ["p1/i1", "p2/later-b", "p9/later-a"]);
  // all versions and deletes, from b's token, on the restarted b and on a
  for (const client of [b, a]) {
    const versions = await drain(avad(client).items.getChangeFeedIterator({
      changeFeedStartFrom: ChangeFeedStartFrom.Continuation(state.avadToken),
      changeFeedMode: ChangeFeedMode.AllVersionsAndDeletes }));
    assert.deepEqual(versions.items.map((c) => c.metadata.operationType), ["create", "replace", "delete"]);
    assert.deepEqual(versions.items.slice(0, 2).map((c) => c.current.v), [1, 2]);
    assert.equal(versions.items[2].previous.id, "x");
  }
  console.log(JSON.stringify({ resumed: Object.keys(latest).length, since: Object.keys(latestOnce(since.items)) }));
  console.log("OK node change feed across two servers");
}
