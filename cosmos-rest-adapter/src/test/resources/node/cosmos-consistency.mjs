// @azure/cosmos (Node) and consistency levels: node cosmos-consistency.mjs <endpoint> <key> <database> <mode>
// mode "strong-account": reads at the account's Strong cost 2 RU, an Eventual request 1 RU, a query twice an
// Eventual one; mode "session-account": a Strong request is 400, an Eventual one is accepted at 1 RU.
import assert from "node:assert/strict";
import { CosmosClient } from "@azure/cosmos";

const [endpoint, key, db, mode] = process.argv.slice(2);
const client = new CosmosClient({ endpoint, key });
const container = client.database(db).container("c");

if (mode === "strong-account") {
  assert.equal((await container.item("i0", "k").read()).requestCharge, 2);
  assert.equal((await container.item("i0", "k").read({ consistencyLevel: "Eventual" })).requestCharge, 1);
  const query = "SELECT * FROM c";
  const strong = await container.items.query(query, { partitionKey: "k" }).fetchAll();
  const eventual = await container.items.query(query, { partitionKey: "k", consistencyLevel: "Eventual" }).fetchAll();
  assert.ok(Math.abs(strong.requestCharge - 2 * eventual.requestCharge) < 0.011,
    `query ${strong.requestCharge} vs eventual ${eventual.requestCharge}`);
} else {
  await assert.rejects(container.item("i0", "k").read({ consistencyLevel: "Strong" }),
    (e) => e.code === 400 && /ConsistencyLevel Strong specified in the request is invalid/.test(e.message));
  assert.equal((await container.item("i0", "k").read({ consistencyLevel: "Eventual" })).requestCharge, 1);
}
console.log("OK node consistency " + mode);
