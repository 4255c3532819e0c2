// @azure/cosmos over https, trusting the endpoint's certificate through NODE_EXTRA_CA_CERTS: node cosmos-tls.mjs <endpoint> <key>
import assert from "node:assert/strict";
import { CosmosClient } from "@azure/cosmos";

const [endpoint, key] = process.argv.slice(2);
const client = new CosmosClient({ endpoint, key });
const { database } = await client.databases.createIfNotExists({ id: "nodetls" });
const { container } = await database.containers.createIfNotExists({ id: "c", partitionKey: { paths: ["/pk"] } });
await container.items.upsert({ id: "1", pk: "p", v: "over tls" });
assert.equal((await container.item("1", "p").read()).resource.v, "over tls");
const { resources } = await container.items.query("SELECT VALUE c.v FROM c").fetchAll();
assert.deepEqual(resources, ["over tls"]);
console.log("OK node tls");
