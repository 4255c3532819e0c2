'use strict';
// The partition chart: one card per container from a /api/partitions report, shared by /partitions and the data
// explorer. Partition keys are user data, so it only ever sets textContent, never innerHTML.
const SKEW_FACTOR = 1.5;     // a physical partition this many times the mean size is called skewed
const HOT_SHARE = 0.5;       // a logical partition holding this share of its physical partition is called hot

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function bytes(n) {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return (i === 0 ? n : n.toFixed(1)) + ' ' + units[i];
}

function pct(part, whole) {
  return whole > 0 ? (100 * part / whole).toFixed(1) + '%' : '–';
}

function bar(fraction, cls) {
  const track = el('div', 'track');
  const fill = el('div', 'fill' + (cls ? ' ' + cls : ''));
  fill.style.width = (100 * Math.min(1, Math.max(0, fraction))).toFixed(2) + '%';
  track.appendChild(fill);
  return track;
}

function logicalTable(p, container) {
  const table = el('table');
  const head = el('tr');
  ['largest logical partitions', 'bytes', 'items', 'of partition', ''].forEach(h => head.appendChild(el('th', '', h)));
  table.appendChild(head);
  for (const l of p.largestLogicalPartitions) {
    const tr = el('tr');
    const key = JSON.stringify(l.partitionKey);
    const keyCell = el('td', 'pk', key);
    keyCell.title = key + '\nEPK ' + l.epk;
    tr.appendChild(keyCell);
    tr.appendChild(el('td', 'num', bytes(l.bytes)));
    tr.appendChild(el('td', 'num', String(l.itemCount)));
    tr.appendChild(el('td', 'num', pct(l.bytes, p.bytes)));
    const flags = el('td');
    if (l.nearLimit) {
      flags.appendChild(el('span', 'badge limit',
          'near limit: ' + pct(l.bytes, container.limits.logicalPartitionLimitBytes) + ' of '
          + bytes(container.limits.logicalPartitionLimitBytes)));
    } else if (p.bytes > 0 && l.bytes / p.bytes >= HOT_SHARE && p.logicalPartitionCount > 1) {
      flags.appendChild(el('span', 'badge skew', 'hot key'));
    }
    tr.appendChild(flags);
    table.appendChild(tr);
  }
  return table;
}

// the throughput of one physical partition, drawn under its storage bar: the hottest second of the last minute
// against the partition's budget (Cosmos DB's normalized RU consumption), and the requests throttled
function ruRow(m) {
  const row = el('div', 'bar-row ru');
  row.appendChild(el('span', 'label', 'RU/s (last minute)'));
  const cls = m.throttled > 0 || m.normalizedUtilization >= 1 ? 'danger' : m.normalizedUtilization >= 0.7 ? 'hot' : '';
  row.appendChild(bar(m.normalizedUtilization, cls));
  const figures = el('span', 'figures', m.averageRuPerSecond + ' RU/s avg · hottest second '
      + (100 * m.normalizedUtilization).toFixed(0) + '% of ' + m.budgetRuPerSecond + ' RU/s · '
      + m.throttled + ' throttled');
  if (m.topLogicalPartitions.length) {
    figures.title = 'top logical partitions by RU: ' + m.topLogicalPartitions.map(l => l.partitionKey + ' ' + l.ru + ' RU').join(', ');
  }
  row.appendChild(figures);
  return row;
}

function ruTable(m) {
  const table = el('table');
  const head = el('tr');
  ['top logical partitions by RU', 'RU'].forEach(h => head.appendChild(el('th', '', h)));
  table.appendChild(head);
  for (const l of m.topLogicalPartitions) {
    const tr = el('tr');
    tr.appendChild(el('td', 'pk', l.partitionKey));
    tr.appendChild(el('td', 'num', String(l.ru)));
    table.appendChild(tr);
  }
  return table;
}

// metrics: the container's entry of /api/metrics, or undefined (then no throughput is drawn)
function containerCard(c, metrics) {
  const card = el('div', 'container');
  const title = el('h2', '', c.database + ' / ' + c.container);
  const parts = c.physicalPartitions;
  const max = Math.max(0, ...parts.map(p => p.bytes));
  const mean = parts.length ? c.bytes / parts.length : 0;
  const biggest = parts.find(p => p.bytes === max);
  if (parts.length > 1 && mean > 0 && max >= SKEW_FACTOR * mean) {
    title.appendChild(el('span', 'badge skew',
        'skewed: partition ' + biggest.id + ' holds ' + pct(max, c.bytes) + ' of the data'));
  }
  if (parts.some(p => p.largestLogicalPartitions.some(l => l.nearLimit))) {
    title.appendChild(el('span', 'badge limit', 'logical partition near its limit'));
  }
  if (metrics && metrics.partitions.some(m => m.throttled > 0)) {
    title.appendChild(el('span', 'badge throttled', 'throttled (429) in the last minute'));
  }
  card.appendChild(title);
  if (metrics) {
    card.appendChild(el('div', 'meta', (metrics.mode === 'autoscale'
        ? 'autoscale up to ' + metrics.autoscaleMax + ' RU/s, now ' + metrics.currentThroughput + ' RU/s'
        : metrics.throughput + ' RU/s') + (metrics.sharedWithDatabase ? ' shared with database ' + c.database : '')
        + (metrics.replacePending ? ' · throughput change pending (partitions splitting)' : '')
        + ' · rate limiting ' + (metrics.rateLimiting ? 'on' : 'off')));
  }
  card.appendChild(el('div', 'meta',
      'partition key ' + c.partitionKeyPaths.join(', ') + ' · ' + parts.length + ' physical partition'
      + (parts.length === 1 ? '' : 's') + ' · ' + bytes(c.bytes) + ' · ' + c.itemCount + ' items · split at '
      + bytes(c.limits.splitThresholdBytes) + ' · logical partition limit '
      + bytes(c.limits.logicalPartitionLimitBytes)));
  for (const p of parts) {
    const section = el('div', 'partition');
    const row = el('div', 'bar-row');
    const label = el('span', 'label', '#' + p.id + ' ["' + p.minInclusive + '", "' + p.maxExclusive + '")');
    label.title = 'EPK range ["' + p.minInclusive + '", "' + p.maxExclusive + '")';
    row.appendChild(label);
    const hot = parts.length > 1 && mean > 0 && p.bytes >= SKEW_FACTOR * mean;
    row.appendChild(bar(max > 0 ? p.bytes / max : 0, hot ? 'hot' : ''));
    row.appendChild(el('span', 'figures', bytes(p.bytes) + ' · ' + p.itemCount + ' items · '
        + p.logicalPartitionCount + ' logical · ' + pct(p.bytes, c.bytes) + ' of container'));
    section.appendChild(row);
    const m = metrics && !metrics.sharedWithDatabase ? metrics.partitions.find(x => x.id === p.id) : null;
    if (m) section.appendChild(ruRow(m));
    if (p.largestLogicalPartitions.length) section.appendChild(logicalTable(p, c));
    if (m && m.topLogicalPartitions.length) section.appendChild(ruTable(m));
    card.appendChild(section);
  }
  return card;
}
