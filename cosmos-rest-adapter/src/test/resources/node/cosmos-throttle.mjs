// @azure/cosmos's built-in retry on 429: a burst of writes against a tiny budget all succeed, some after retries.
// node cosmos-throttle.mjs <endpoint> <key> <database>
import assert from "node:assert/strict";
import { CosmosClient } from "@azure/cosmos";

const [endpoint, key, db] = process.argv.slice(2);
const client = new CosmosClient({ endpoint, key,
  connectionPolicy: { retryOptions: { maxRetryAttemptCount: 100, maxWaitTimeInSeconds: 120 } } });
const { database } = await client.databases.createIfNotExists({ id: db });
const { container } = await database.containers.createIfNotExists({ id: "burst", partitionKey: { paths: ["/pk"] } }, { offerThroughput: 400 });
let retried = 0;
const writes = [];
for (let i = 0; i < 40; i++) { // 40 writes of 100 KB: about 2,000 RU against 400 RU/s
  writes.push(container.items.create({ id: "n" + i, pk: "hot", pad: "x".repeat(100000) }).then((r) => {
    retried += r.diagnostics?.clientSideRequestStatistics?.retryDiagnostics?.failedAttempts?.length ?? 0;
    return r.statusCode;
  }));
}
const codes = await Promise.all(writes);
assert.ok(codes.every((c) => c === 201), "every write succeeded: " + codes.filter((c) => c !== 201));
const { resources } = await container.items.query("SELECT VALUE COUNT(1) FROM c").fetchAll();
assert.equal(resources[0], 40);
console.log("RETRIED " + retried);
console.log("OK node throttle");
