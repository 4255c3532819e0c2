// Users, permissions and resource tokens through @azure/cosmos (Node):
// node cosmos-tokens.mjs <endpoint> <key> <readOnlyKey> <expiredToken> <expiredTokenContainerUrl>
import assert from "node:assert/strict";
import { CosmosClient, PermissionMode } from "@azure/cosmos";

const [endpoint, key, readOnlyKey, expiredToken, expiredUrl] = process.argv.slice(2);
const master = new CosmosClient({ endpoint, key });

const { database } = await master.databases.createIfNotExists({ id: "node-tokens" });
const { container: orders } = await database.containers.createIfNotExists({ id: "orders", partitionKey: { paths: ["/pk"] } });
const { container: other } = await database.containers.createIfNotExists({ id: "other", partitionKey: { paths: ["/pk"] } });
await orders.items.upsert({ id: "o1", pk: "a", n: 1 });
await orders.items.upsert({ id: "o2", pk: "b", n: 2 });
await other.items.upsert({ id: "x1", pk: "a", n: 3 });

// the master key manages users and permissions
const { user } = await database.users.upsert({ id: "carol" });
assert.equal((await user.read()).resource.id, "carol");
assert.ok((await database.users.readAll().fetchAll()).resources.some((u) => u.id === "carol"));
const { resource: readPermission } = await user.permissions.upsert(
  { id: "read-orders", permissionMode: PermissionMode.Read, resource: orders.url },
  { resourceTokenExpirySeconds: 600 });
assert.match(readPermission._token, /^type=resource&ver=1\.0&sig=/);
const { resource: allPermission } = await user.permissions.upsert(
  { id: "all-orders-a", permissionMode: PermissionMode.All, resource: orders.url, resourcePartitionKey: ["a"] });
assert.deepEqual(allPermission.resourcePartitionKey, ["a"]);
assert.equal((await user.permissions.readAll().fetchAll()).resources.length, 2);
// one permission per resource and user, as Cosmos DB: a second one on the same container and key is 409
await assert.rejects(user.permissions.create({ id: "read-orders-2", permissionMode: PermissionMode.All, resource: orders.url }),
  (e) => e.code === 409);
assert.equal((await user.permissions.readAll().fetchAll()).resources.length, 2);

// resourceTokens keyed by the container's link: reads allowed, writes and another container refused
const reader = new CosmosClient({ endpoint, resourceTokens: { [orders.url]: readPermission._token } });
const readerOrders = reader.database("node-tokens").container("orders");
assert.equal((await readerOrders.item("o1", "a").read()).resource.n, 1);
const all = await readerOrders.items.query("SELECT VALUE c.id FROM c ORDER BY c.id").fetchAll();
assert.deepEqual(all.resources, ["o1", "o2"]);
await assert.rejects(readerOrders.items.create({ id: "o3", pk: "a" }), (e) => e.code === 403);
await assert.rejects(readerOrders.item("o1", "a").delete(), (e) => e.code === 403);
// the same token presented for another container, the database, users: 403 (the server checks the scope; a
// client holding no token for a path sends none and gets 401)
const misuse = new CosmosClient({ endpoint, resourceTokens: { [other.url]: readPermission._token, "node-tokens": readPermission._token } });
await assert.rejects(misuse.database("node-tokens").container("other").item("x1", "a").read(), (e) => e.code === 403);
await assert.rejects(misuse.database("node-tokens").read(), (e) => e.code === 403);
await assert.rejects(misuse.database("node-tokens").users.create({ id: "eve" }), (e) => e.code === 403);
await assert.rejects(reader.database("node-tokens").container("other").item("x1", "a").read(), (e) => e.code === 401);

// permissionFeed: the permissions themselves; All within partition key "a" only
const writer = new CosmosClient({ endpoint, permissionFeed: [allPermission] });
const writerOrders = writer.database("node-tokens").container("orders");
assert.equal((await writerOrders.items.upsert({ id: "o3", pk: "a", n: 3 })).statusCode, 201);
assert.equal((await writerOrders.item("o3", "a").read()).resource.n, 3);
await assert.rejects(writerOrders.item("o2", "b").read(), (e) => e.code === 403);
await assert.rejects(writerOrders.items.upsert({ id: "o4", pk: "b" }), (e) => e.code === 403);
const inA = await writerOrders.items.query("SELECT VALUE c.id FROM c", { partitionKey: "a" }).fetchAll();
assert.deepEqual(inA.resources.sort(), ["o1", "o3"]);
assert.equal((await writerOrders.item("o3", "a").delete()).statusCode, 204);

// an expired token (made by the test before it moved the server's clock) and a tampered one: 401
const expired = new CosmosClient({ endpoint, resourceTokens: { [expiredUrl]: expiredToken } });
const expiredContainer = expired.database(expiredUrl.split("/")[1]).container(expiredUrl.split("/")[3]);
await assert.rejects(expiredContainer.items.query("SELECT * FROM c").fetchAll(), (e) => e.code === 401);
const tampered = readPermission._token.replace(/sig=(.)/, (m, c) => "sig=" + (c === "A" ? "B" : "A"));
const forged = new CosmosClient({ endpoint, resourceTokens: { [orders.url]: tampered } });
await assert.rejects(forged.database("node-tokens").container("orders").item("o1", "a").read(), (e) => e.code === 401);

// the read-only key reads users but cannot create users or permissions
const readOnly = new CosmosClient({ endpoint, key: readOnlyKey });
const roDatabase = readOnly.database("node-tokens");
assert.ok((await roDatabase.users.readAll().fetchAll()).resources.some((u) => u.id === "carol"));
await assert.rejects(roDatabase.users.create({ id: "mallory" }), (e) => e.code === 401);
await assert.rejects(roDatabase.user("carol").permissions.create(
  { id: "sneaky", permissionMode: PermissionMode.All, resource: orders.url }), (e) => e.code === 401);

// a permission on the whole database (permissionFeed): every container of it, nothing of another database
const { user: dave } = await database.users.upsert({ id: "dave" });
const { resource: dbPermission } = await dave.permissions.upsert(
  { id: "db-all", permissionMode: PermissionMode.All, resource: database.url });
assert.equal(dbPermission.resource, database.url);
const dbWide = new CosmosClient({ endpoint, permissionFeed: [dbPermission] });
assert.equal((await dbWide.database("node-tokens").container("other").item("x1", "a").read()).resource.n, 3);
assert.equal((await dbWide.database("node-tokens").container("orders").items.upsert({ id: "d1", pk: "b" })).statusCode, 201);
const { database: elsewhere } = await master.databases.createIfNotExists({ id: "node-tokens-elsewhere" });
const { container: far } = await elsewhere.containers.createIfNotExists({ id: "far", partitionKey: { paths: ["/pk"] } });
await far.items.upsert({ id: "f1", pk: "a" });
const crossing = new CosmosClient({ endpoint, resourceTokens: { "node-tokens-elsewhere": dbPermission._token } });
await assert.rejects(crossing.database("node-tokens-elsewhere").container("far").item("f1", "a").read(), (e) => e.code === 403);
await assert.rejects(dbWide.database("node-tokens").users.create({ id: "eve" }), (e) => e.code === 403);

// a permission on one stored procedure: it runs that procedure, and the token reaches nothing else
await orders.scripts.storedProcedures.create({ id: "seven", body: "function seven() { getContext().getResponse().setBody(7); }" });
await orders.scripts.storedProcedures.create({ id: "eight", body: "function eight() { getContext().getResponse().setBody(8); }" });
const seven = orders.scripts.storedProcedure("seven");
const { resource: spPermission } = await dave.permissions.upsert(
  { id: "sp-seven", permissionMode: PermissionMode.All, resource: seven.url });
const runner = new CosmosClient({ endpoint, resourceTokens: { [seven.url]: spPermission._token } });
assert.equal((await runner.database("node-tokens").container("orders").scripts.storedProcedure("seven").execute("a")).resource, 7);
// the same token presented (by the id-keyed map) for another procedure and for an item: refused by the server
const stretch = new CosmosClient({ endpoint, resourceTokens: { "node-tokens": spPermission._token } });
await assert.rejects(stretch.database("node-tokens").container("orders").scripts.storedProcedure("eight").execute("a"),
  (e) => e.code === 403);
await assert.rejects(stretch.database("node-tokens").container("orders").item("o1", "a").read(), (e) => e.code === 403);
await dave.delete();

// deleting the permission revokes its token at once
await user.permission("read-orders").delete();
await assert.rejects(readerOrders.item("o1", "a").read(), (e) => e.code === 401);
await user.delete();
await assert.rejects(database.user("carol").read(), (e) => e.code === 404);

console.log("OK node tokens");
