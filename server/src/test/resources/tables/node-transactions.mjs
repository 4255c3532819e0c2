// The npm @azure/data-tables client, unchanged, against the server's Tables endpoint (argv[2]: the endpoint URL):
// transactions as the JavaScript SDK sends them (sub-requests without Content-Length, a blank line before each
// JSON body). Prints one JSON line with what it saw.
import { AzureNamedKeyCredential, AzureSASCredential, TableClient, generateTableSas } from "@azure/data-tables";

const endpoint = process.argv[2];
const credential = new AzureNamedKeyCredential("devstoreaccount1",
  "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==");
const table = new TableClient(endpoint, "nodetx", credential, { allowInsecureConnection: true });
await table.createTable();
await table.createEntity({ partitionKey: "p", rowKey: "toUpdate", n: 1, kept: "yes" });
await table.createEntity({ partitionKey: "p", rowKey: "toDelete", n: 2 });

const ok = await table.submitTransaction([
  ["create", { partitionKey: "p", rowKey: "created", n: 3, d: { value: "5", type: "Double" } }],
  ["upsert", { partitionKey: "p", rowKey: "upserted", n: 4 }, "Replace"],
  ["update", { partitionKey: "p", rowKey: "toUpdate", n: 5 }, "Merge"],
  ["delete", { partitionKey: "p", rowKey: "toDelete" }],
]);

let failed;
try {
  await table.submitTransaction([
    ["create", { partitionKey: "p", rowKey: "fresh", n: 6 }],
    ["create", { partitionKey: "p", rowKey: "created", n: 7 }],
  ]);
  failed = { status: "no error" };
} catch (e) {
  failed = { status: e.statusCode, code: e.code, message: String(e.message) };
}

// ETag round trips: an update conditional on the ETag read, then one with the stale ETag
const before = await table.getEntity("p", "toUpdate");
await table.updateEntity({ partitionKey: "p", rowKey: "toUpdate", n: 5, kept: "yes" }, "Replace", { etag: before.etag });
let stale;
try {
  await table.updateEntity({ partitionKey: "p", rowKey: "toUpdate", n: 9 }, "Merge", { etag: before.etag });
  stale = "no error";
} catch (e) {
  stale = e.statusCode;
}
// an integer literal against a Double, and True as a literal
const byDouble = [];
for await (const e of table.listEntities({ queryOptions: { filter: "d eq 5 and True" } })) {
  byDouble.push(e.rowKey);
}

// under a SAS that grants only "add": a transaction of inserts passes, one that also deletes is refused
const adder = new TableClient(endpoint, "nodetx",
  new AzureSASCredential(generateTableSas("nodetx", credential, { permissions: { add: true } })),
  { allowInsecureConnection: true });
const sasAdds = (await adder.submitTransaction([["create", { partitionKey: "s", rowKey: "a1" }],
  ["create", { partitionKey: "s", rowKey: "a2" }]])).status;
let sasDelete;
try {
  await adder.submitTransaction([["create", { partitionKey: "s", rowKey: "a3" }],
    ["delete", { partitionKey: "s", rowKey: "a1" }]]);
  sasDelete = "no error";
} catch (e) {
  sasDelete = { status: e.statusCode, code: e.code };
}

// a stored access policy: set and read back, then a SAS that names it reads but may not write
const inAnHour = new Date(Date.now() + 3600 * 1000);
await table.setAccessPolicy([{ id: "readers", accessPolicy: { permission: "r", expiry: inAnHour } }]);
const policies = (await table.getAccessPolicy())
  .map((s) => ({ id: s.id, permission: s.accessPolicy?.permission ?? null }));
const byPolicy = new TableClient(endpoint, "nodetx",
  new AzureSASCredential(generateTableSas("nodetx", credential, { identifier: "readers" })),
  { allowInsecureConnection: true });
const policyRead = (await byPolicy.getEntity("p", "created")).rowKey;
let policyWrite;
try {
  await byPolicy.createEntity({ partitionKey: "s", rowKey: "denied" });
  policyWrite = "no error";
} catch (e) {
  policyWrite = { status: e.statusCode, code: e.code ?? e.details?.errorCode ?? e.response?.headers?.get("x-ms-error-code") };
}

const rows = {};
for await (const e of table.listEntities({ queryOptions: { filter: "PartitionKey eq 'p'" } })) {
  rows[e.rowKey] = { n: e.n, kept: e.kept ?? null };
}
const updated = await table.getEntity("p", "toUpdate");
const created = await table.getEntity("p", "created");
console.log(JSON.stringify({
  status: ok.status,
  subStatuses: ok.subResponses.map((s) => s.status),
  createdEtagFromBatch: ok.getResponseForEntity("created")?.etag ?? null,
  createdEtag: created.etag,
  updatedEtag: updated.etag,
  createdDouble: created.d,
  rows,
  failed,
  stale,
  byDouble,
  sasAdds,
  sasDelete,
  policies,
  policyRead,
  policyWrite,
  sasRows: (await (async () => { const k = []; for await (const e of table.listEntities({ queryOptions: { filter: "PartitionKey eq 's'" } })) k.push(e.rowKey); return k; })()),
}));
