// TinkerPop's JavaScript driver (npm "gremlin") against the TetraDB Gremlin endpoint: bytecode through a
// DriverRemoteConnection, a script through a Client. Prints one JSON line for GremlinJavaScriptClientTest.
import gremlin from 'gremlin';

const { DriverRemoteConnection, Client } = gremlin.driver;
const { traversal } = gremlin.process.AnonymousTraversalSource;
const { t } = gremlin.process;
const url = process.argv[2];

const connection = new DriverRemoteConnection(url);
const g = traversal().withRemote(connection);
await g.addV('city').property('pk', 'JS').property(t.id, 'Node').property('name', 'Node').as('n')
  .addV('city').property('pk', 'JS').property(t.id, 'Deno').property('name', 'Deno')
  .addE('road').from_('n').iterate();
const names = await g.V(['JS', 'Node']).out('road').values('name').toList();
const airGraph = await g.V(['USA', 'Seattle']).out('highway').values('name').order().toList();

const client = new Client(url, { traversalSource: 'g' });
const result = await client.submit("g.V(['JS','Node']).id()");
let error = null;
try {
  await client.submit('g.V(');
} catch (e) {
  error = { statusCode: e.statusCode };
}
const attributes = Object.fromEntries(result.attributes);  // a Map
console.log(JSON.stringify({ names, airGraph, id: result.toArray(), attributes, error }));
await client.close();
await connection.close();
