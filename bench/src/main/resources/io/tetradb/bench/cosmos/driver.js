'use strict';
// The cosmos benchmark's client: one @azure/cosmos CosmosClient per side, CONCURRENCY requests in flight.
// Commands arrive as JSON lines on stdin, one answer per command as a JSON line on stdout.
// (No template literals: Maven filters this file.)
const readline = require('readline');
const { CosmosClient } = require('@azure/cosmos');

const CONCURRENCY = 4;
const ITEM_BYTES = 1024;
const sides = {};

// Item n: partition pk-(n % 1000); grp = floor(n / 10) (10 items, 10 partitions); seq = n; exactly 1 KB of JSON.
function item(n, counter) {
  const base = { id: 'item-' + n, pk: 'pk-' + (n % 1000), grp: Math.floor(n / 10), seq: n, counter: counter, filler: '' };
  const pad = ITEM_BYTES - Buffer.byteLength(JSON.stringify(base));
  base.filler = 'x'.repeat(Math.max(0, pad));
  return base;
}

function fail(message) {
  throw new Error(message);
}

// A small deterministic generator, so both sides get the same request sequence.
function rng(seed) {
  let s = (seed >>> 0) || 1;
  return function (bound) {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s % bound;
  };
}

async function open(cmd) {
  const client = new CosmosClient({
    endpoint: cmd.endpoint,
    key: cmd.key,
    // no agent: the SDK's own keep-alive agent, and http:// allowed only that way
    connectionPolicy: { enableEndpointDiscovery: false },
  });
  const { database } = await client.databases.createIfNotExists({ id: cmd.database });
  const { container } = await database.containers.createIfNotExists({ id: cmd.container, partitionKey: { paths: ['/pk'] } });
  sides[cmd.side + '/' + cmd.container] = { client: client, container: container };
  return {};
}

async function drop(cmd) {
  const s = sides[cmd.side + '/' + cmd.container];
  await s.container.delete();
  delete sides[cmd.side + '/' + cmd.container];
  return {};
}

const OPS = {
  async create(c, n, next) {
    const r = await c.items.create(item(n, 0));
    if (r.statusCode !== 201) fail('create ' + n + ': status ' + r.statusCode);
  },
  async read(c, n) {
    const r = await c.item('item-' + n, 'pk-' + (n % 1000)).read();
    if (!r.resource || r.resource.seq !== n) fail('read ' + n + ': status ' + r.statusCode);
  },
  async upsert(c, n, next) {
    const r = await c.items.upsert(item(n, 1 + next(1000)));
    if (r.statusCode !== 200) fail('upsert ' + n + ': status ' + r.statusCode);
  },
  async query(c, n, next, items) {
    const g = next(items / 10);
    const { resources } = await c.items.query({
      query: 'SELECT * FROM c WHERE c.grp = @g', parameters: [{ name: '@g', value: g }],
    }).fetchAll();
    if (resources.length !== 10 || resources.some(function (d) { return d.grp !== g; })) {
      fail('query grp=' + g + ': ' + resources.length + ' items');
    }
  },
  async top(c, n, next, items) {
    const s = 10 + next(items - 10);
    const { resources } = await c.items.query({
      query: 'SELECT TOP 10 * FROM c WHERE c.seq < @s ORDER BY c.seq DESC', parameters: [{ name: '@s', value: s }],
    }).fetchAll();
    if (resources.length !== 10 || resources.some(function (d, i) { return d.seq !== s - 1 - i; })) {
      fail('top seq<' + s + ': ' + JSON.stringify(resources.map(function (d) { return d.seq; })));
    }
  },
};

// Runs op with CONCURRENCY workers: creates of items [from, to), or others for durationMs (random targets).
async function round(cmd) {
  const c = sides[cmd.side + '/' + cmd.container].container;
  const op = OPS[cmd.op] || fail('unknown op ' + cmd.op);
  const next = rng(cmd.seed);
  const lat = [];
  let nextId = cmd.from;
  let ops = 0;
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const deadline = t0 + BigInt(Math.round((cmd.durationMs || 0) * 1e6));
  async function worker() {
    for (;;) {
      let n;
      if (cmd.op === 'create') {
        if (nextId >= cmd.to) return;
        n = nextId++;
      } else {
        if (process.hrtime.bigint() >= deadline) return;
        n = next(cmd.items);
      }
      const s = process.hrtime.bigint();
      await op(c, n, next, cmd.items);
      lat.push(Number(process.hrtime.bigint() - s));
      ops++;
    }
  }
  const workers = [];
  for (let i = 0; i < CONCURRENCY; i++) workers.push(worker());
  await Promise.all(workers);
  const elapsedNs = Number(process.hrtime.bigint() - t0);
  const cpu = process.cpuUsage(cpu0);
  return { ops: ops, elapsedNs: elapsedNs, clientCpuUs: cpu.user + cpu.system, latNs: lat };
}

const COMMANDS = { open: open, drop: drop, round: round };

const rl = readline.createInterface({ input: process.stdin });
let chain = Promise.resolve();
rl.on('line', function (line) {
  chain = chain.then(async function () {
    let answer;
    try {
      const cmd = JSON.parse(line);
      answer = await (COMMANDS[cmd.cmd] || fail('unknown command ' + cmd.cmd))(cmd);
      answer.ok = true;
    } catch (e) {
      answer = { ok: false, error: String(e && e.stack || e) };
    }
    process.stdout.write(JSON.stringify(answer) + '\n');
  });
});
rl.on('close', function () { chain.then(function () { process.exit(0); }); });
