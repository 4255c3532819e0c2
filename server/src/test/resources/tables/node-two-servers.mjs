// The npm @azure/data-tables client, unchanged, against two TetraDB servers on one shared keyspace (argv[2], argv[3]:
// their Tables endpoint URLs): what one server writes the other reads at once, ETags across servers, a transaction
// through one seen whole through the other, a failing one applying nothing. Prints one JSON line with what it saw.
import { AzureNamedKeyCredential, TableClient, TableServiceClient } from "@azure/data-tables";

const credential = new AzureNamedKeyCredential("devstoreaccount1",
  "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==");
const options = { allowInsecureConnection: true };
const a = new TableClient(process.argv[2], "nodepair", credential, options);
const b = new TableClient(process.argv[3], "nodepair", credential, options);
const out = {};

await a.createTable();
const tables = [];
for await (const t of new TableServiceClient(process.argv[3], credential, options).listTables()) {
  tables.push(t.name);
}
out.listedOnB = tables.includes("nodepair");

await a.createEntity({ partitionKey: "p", rowKey: "r1", n: 1 });
const onB = await b.getEntity("p", "r1");
out.readOnB = onB.n;
await b.updateEntity({ partitionKey: "p", rowKey: "r1", n: 2 }, "Merge", { etag: onB.etag });
const onA = await a.getEntity("p", "r1");
out.readOnA = onA.n;
out.etagsEqual = onA.etag === (await b.getEntity("p", "r1")).etag;
try { // the ETag B read before its own update is stale on A
  await a.updateEntity({ partitionKey: "p", rowKey: "r1", n: 9 }, "Replace", { etag: onB.etag });
  out.stale = "no error";
} catch (e) {
  out.stale = e.statusCode;
}

await a.createEntity({ partitionKey: "p", rowKey: "gone", n: 0 });
const tx = await a.submitTransaction([
  ["create", { partitionKey: "p", rowKey: "r2", n: 3 }],
  ["upsert", { partitionKey: "p", rowKey: "r3", n: 4 }, "Replace"],
  ["update", { partitionKey: "p", rowKey: "r1", m: "x" }, "Merge"],
  ["delete", { partitionKey: "p", rowKey: "gone" }],
]);
out.txStatus = tx.status;
out.subStatuses = tx.subResponses.map((s) => s.status);

try { // through B: its second create collides, so nothing of it applies
  await b.submitTransaction([
    ["create", { partitionKey: "p", rowKey: "r4", n: 5 }],
    ["create", { partitionKey: "p", rowKey: "r2", n: 6 }],
  ]);
  out.failed = { status: "no error" };
} catch (e) {
  out.failed = { status: e.statusCode, code: e.code, message: String(e.message).slice(0, 40) };
}

await b.deleteEntity("p", "r3");
out.rowsOnA = {};
for await (const e of a.listEntities({ queryOptions: { filter: "PartitionKey eq 'p'" } })) {
  out.rowsOnA[e.rowKey] = { n: e.n, m: e.m ?? null };
}
try {
  await a.getEntity("p", "r3");
  out.deletedOnA = "still there";
} catch (e) {
  out.deletedOnA = e.statusCode;
}
console.log(JSON.stringify(out));
