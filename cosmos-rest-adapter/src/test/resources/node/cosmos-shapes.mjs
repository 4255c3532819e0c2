// @azure/cosmos runs each query of QUERIES (a JSON array, from the environment) over the whole container and prints
// one line per query: "ROWS <i> <json array>" or "ERROR <i> <status>": node cosmos-shapes.mjs <endpoint> <key> <db> <container>
import { CosmosClient } from "@azure/cosmos";

const [endpoint, key, db, id] = process.argv.slice(2);
const client = new CosmosClient({ endpoint, key });
const container = client.database(db).container(id);
const queries = JSON.parse(process.env.QUERIES);
for (let i = 0; i < queries.length; i++) {
  try {
    const { resources } = await container.items.query(queries[i], { maxItemCount: 7 }).fetchAll();
    console.log("ROWS " + i + " " + JSON.stringify(resources));
  } catch (e) {
    console.log("ERROR " + i + " " + e.code);
  }
}
console.log("OK node shapes");
