// The data explorer's page script. Everything comes from /_explorer/api/ on this port; item contents and names are
// user data, so the page only ever sets textContent and .value, never innerHTML. el() and containerCard() come from
// partitions-chart.js (the /partitions page's chart).
(function () {
  'use strict';

  const $ = id => document.getElementById(id);
  const state = { db: null, container: null, item: null, itemsContinuation: null, query: null,
                  queryContinuation: null };

  function path(...parts) {
    return parts.map(encodeURIComponent).join('/');
  }

  function containerPath(...rest) {
    return path('databases', state.db, 'containers', state.container, ...rest);
  }

  // ---- the Cosmos key, on a server bound beyond loopback ----------------------------------------------------------
  // As Cosmos DB's Data Explorer opened with a connection string: the key is asked for once, kept in this tab only
  // (sessionStorage) and never sent; each call carries a master-key signature of its verb and x-ms-date instead.
  const KEY_SLOT = 'tetradb.explorer.key';

  function storedKey() {
    return sessionStorage.getItem(KEY_SLOT);
  }

  function base64Bytes(text) {
    return Uint8Array.from(atob(text), c => c.charCodeAt(0));
  }

  async function signature(method, key) {
    const date = new Date().toUTCString();
    const payload = method.toLowerCase() + '\n\n\n' + date.toLowerCase() + '\n\n';
    const hmac = await crypto.subtle.importKey('raw', base64Bytes(key), { name: 'HMAC', hash: 'SHA-256' }, false,
      ['sign']);
    const sig = new Uint8Array(await crypto.subtle.sign('HMAC', hmac, new TextEncoder().encode(payload)));
    return { 'x-ms-date': date,
             'Authorization': encodeURIComponent('type=master&ver=1.0&sig=' + btoa(String.fromCharCode(...sig))) };
  }

  function askForKey(message) {
    const form = $('sign-in');
    form.hidden = false;
    $('sign-in-status').textContent = message || '';
    if (!window.crypto || !crypto.subtle) {
      $('sign-in-status').textContent = 'This page can sign requests only over HTTPS: open https://'
        + location.host + '/_explorer/ (the key is never sent over plain HTTP).';
    }
  }

  // One API call, signed when a key is held; a refusal ({code, message}) becomes an Error with that text, and a 401
  // asks for the key.
  async function api(method, route, body, headers) {
    const init = { method, cache: 'no-store', headers: Object.assign({}, headers || {}) };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = body;
    }
    const key = storedKey();
    if (key && window.crypto && crypto.subtle) {
      Object.assign(init.headers, await signature(method, key));
    }
    const response = await fetch('/_explorer/api/' + route, init);
    if (response.status === 401) {
      sessionStorage.removeItem(KEY_SLOT);
      askForKey(key ? 'That key was refused.' : 'This server asks for its Cosmos key.');
    }
    let json = null;
    try {
      json = await response.json();
    } catch (e) {
      json = null;
    }
    if (!response.ok) {
      const error = new Error(json && json.message ? json.code + ': ' + json.message : 'HTTP ' + response.status);
      error.status = response.status;
      throw error;
    }
    return json;
  }

  function say(id, text, kind) {
    const s = $(id);
    s.textContent = text;
    s.className = 'status' + (kind ? ' ' + kind : '');
  }

  function ru(charge) {
    return (Math.round(charge * 100) / 100).toFixed(2) + ' RU';
  }

  function select(list, button) {
    for (const b of list.querySelectorAll('button.selected')) b.classList.remove('selected');
    if (button) button.classList.add('selected');
  }

  // ---- databases and containers ----------------------------------------------------------------------------------

  async function loadDatabases() {
    const tree = $('tree');
    try {
      const { databases } = await api('GET', 'databases');
      tree.replaceChildren(...databases.map(d => {
        const li = el('li', 'database');
        const button = el('button', 'db', d.id);
        button.dataset.db = d.id;
        const children = el('ul', 'containers');
        button.addEventListener('click', () => toggleDatabase(d.id, children));
        li.append(button, children);
        return li;
      }));
      say('tree-status', databases.length ? '' : 'No databases yet.');
    } catch (e) {
      say('tree-status', e.message, 'error');
    }
  }

  async function toggleDatabase(db, children) {
    if (children.childElementCount) {
      children.replaceChildren();
      return;
    }
    try {
      const { containers } = await api('GET', path('databases', db, 'containers'));
      children.replaceChildren(...containers.map(c => {
        const li = el('li');
        const button = el('button', 'coll', c.id);
        button.dataset.db = db;
        button.dataset.container = c.id;
        button.title = 'partition key ' + c.partitionKeyPaths.join(', ');
        button.addEventListener('click', () => openContainer(db, c, button));
        li.appendChild(button);
        return li;
      }));
      if (!containers.length) children.appendChild(el('li', 'meta', 'no containers'));
      say('tree-status', '');
    } catch (e) {
      say('tree-status', e.message, 'error');
    }
  }

  function openContainer(db, c, button) {
    select($('tree'), button);
    state.db = db;
    state.container = c.id;
    $('welcome').hidden = true;
    $('workspace').hidden = false;
    $('title').textContent = db + ' / ' + c.id;
    $('title').title = 'partition key ' + c.partitionKeyPaths.join(', ');
    closeItem('');
    $('query-output').hidden = true;
    $('query-more').hidden = true;
    say('query-status', '');
    loadItems(false);
    loadPartitions();
  }

  // ---- items -----------------------------------------------------------------------------------------------------

  async function loadItems(more) {
    const list = $('items');
    if (!more) {
      list.replaceChildren();
      state.itemsContinuation = null;
    }
    const query = state.itemsContinuation ? '?continuation=' + encodeURIComponent(state.itemsContinuation) : '';
    try {
      const page = await api('GET', containerPath('items') + query);
      for (const item of page.items) list.appendChild(itemEntry(item));
      state.itemsContinuation = page.continuation;
      $('items-more').hidden = !page.continuation;
      say('items-status', itemCount() + ' · ' + ru(page.requestCharge));
    } catch (e) {
      say('items-status', e.message, 'error');
    }
  }

  function itemCount() {
    const n = $('items').childElementCount;
    return n + ' item' + (n === 1 ? '' : 's') + (state.itemsContinuation ? ' (more)' : '');
  }

  function itemEntry(item) {
    const li = el('li');
    const button = el('button', 'item');
    const pk = JSON.stringify(item.partitionKey);
    button.dataset.id = item.id;
    button.dataset.pk = pk;
    button.append(el('span', 'id', item.id), el('span', 'pk', pk));
    button.addEventListener('click', () => openItem(item.id, pk, button));
    li.appendChild(button);
    return li;
  }

  async function openItem(id, pk, button) {
    select($('items'), button);
    disarmDelete();
    try {
      const r = await api('GET', containerPath('item') + '?id=' + encodeURIComponent(id) + '&pk='
          + encodeURIComponent(pk));
      state.item = { id, pk, etag: r.etag, button };
      const editor = $('item-editor');
      editor.value = JSON.stringify(r.item, null, 2);
      editor.disabled = false;
      $('item-save').disabled = false;
      $('item-delete').disabled = false;
      $('item-heading').textContent = 'id ' + id + ' · partition key ' + pk + ' · etag ' + r.etag;
      say('item-status', 'read · ' + ru(r.requestCharge));
    } catch (e) {
      say('item-status', e.message, 'error');
    }
  }

  function closeItem(message, kind) {
    state.item = null;
    const editor = $('item-editor');
    editor.value = '';
    editor.disabled = true;
    $('item-save').disabled = true;
    $('item-delete').disabled = true;
    $('item-heading').textContent = 'No item open.';
    disarmDelete();
    say('item-status', message, kind);
  }

  function itemRoute() {
    return containerPath('item') + '?id=' + encodeURIComponent(state.item.id) + '&pk='
        + encodeURIComponent(state.item.pk);
  }

  async function saveItem() {
    if (!state.item) return;
    disarmDelete();
    try {
      // sent as typed: the server says what is wrong with it, and stores nothing then
      const r = await api('PUT', itemRoute(), $('item-editor').value, { 'If-Match': state.item.etag });
      state.item.etag = r.etag;
      $('item-editor').value = JSON.stringify(r.item, null, 2);
      $('item-heading').textContent = 'id ' + state.item.id + ' · partition key ' + state.item.pk + ' · etag '
          + r.etag;
      say('item-status', 'saved · ' + ru(r.requestCharge), 'ok');
      loadPartitions();
    } catch (e) {
      say('item-status', 'not saved: ' + e.message, 'error');
    }
  }

  // Deleting takes a second click on the same item: one stray click never loses data.
  function disarmDelete() {
    const b = $('item-delete');
    delete b.dataset.armed;
    b.textContent = 'Delete';
  }

  async function deleteItem() {
    if (!state.item) return;
    const b = $('item-delete');
    if (!b.dataset.armed) {
      b.dataset.armed = '1';
      b.textContent = 'Click again to delete';
      return;
    }
    disarmDelete();
    try {
      const r = await api('DELETE', itemRoute(), undefined, { 'If-Match': state.item.etag });
      const entry = state.item.button && state.item.button.closest('li');
      if (entry) entry.remove();
      closeItem('deleted · ' + ru(r.requestCharge), 'ok');
      say('items-status', itemCount());
      loadPartitions();
    } catch (e) {
      say('item-status', 'not deleted: ' + e.message, 'error');
    }
  }

  // ---- queries ---------------------------------------------------------------------------------------------------

  async function runQuery(next) {
    const text = next ? state.query : $('query').value;
    const body = { query: text };
    if (next) body.continuation = state.queryContinuation;
    say('query-status', 'running…');
    try {
      const r = await api('POST', containerPath('query'), JSON.stringify(body));
      state.query = text;
      state.queryContinuation = r.continuation;
      $('query-more').hidden = !r.continuation;
      $('query-charge').textContent = (Math.round(r.requestCharge * 100) / 100).toFixed(2);
      $('query-count').textContent = String(r.results.length);
      $('query-results').textContent = JSON.stringify(r.results, null, 2);
      showMetrics(r.metrics);
      $('query-access').textContent = r.accessPath ? 'access: ' + r.accessPath : '';
      $('query-explain').textContent = r.explain ? JSON.stringify(r.explain, null, 2) : '';
      $('query-output').hidden = false;
      say('query-status', (next ? 'next page' : 'done') + ' · ' + ru(r.requestCharge), 'ok');
    } catch (e) {
      $('query-output').hidden = true;
      $('query-more').hidden = true;
      say('query-status', e.message, 'error');
    }
  }

  function showMetrics(m) {
    const rows = [
      ['retrieved documents', m.retrievedDocumentCount],
      ['retrieved bytes', m.retrievedDocumentSize],
      ['output documents', m.outputDocumentCount],
      ['index hits', m.indexHitCount],
      ['execution time', m.totalQueryExecutionTimeMs.toFixed(3) + ' ms'],
    ];
    $('query-metrics').replaceChildren(...rows.map(([name, value]) => {
      const tr = el('tr');
      tr.append(el('td', '', name), el('td', 'num', String(value)));
      return tr;
    }));
  }

  // ---- partitions ------------------------------------------------------------------------------------------------

  async function loadPartitions() {
    const root = $('partitions');
    try {
      const report = await api('GET', 'partitions');
      const mine = report.containers.filter(c => c.database === state.db && c.container === state.container);
      root.replaceChildren(...mine.map(containerCard));
      if (!mine.length) root.appendChild(el('p', 'meta', 'No partition statistics for this container.'));
    } catch (e) {
      root.replaceChildren(el('p', 'status error', e.message));
    }
  }

  $('sign-in').addEventListener('submit', event => {
    event.preventDefault();
    let key = $('sign-in-key').value.trim();
    const inConnectionString = /AccountKey=([^;]+)/.exec(key);
    if (inConnectionString) key = inConnectionString[1];
    try {
      base64Bytes(key);
    } catch (e) {
      $('sign-in-status').textContent = 'The key is base64 (or paste the connection string).';
      return;
    }
    sessionStorage.setItem(KEY_SLOT, key);
    $('sign-in-key').value = '';
    $('sign-in').hidden = true;
    loadDatabases();
  });
  $('sign-out').addEventListener('click', () => {
    sessionStorage.removeItem(KEY_SLOT);
    location.reload();
  });
  $('reload').addEventListener('click', loadDatabases);
  $('items-more').addEventListener('click', () => loadItems(true));
  $('item-save').addEventListener('click', saveItem);
  $('item-delete').addEventListener('click', deleteItem);
  $('query-run').addEventListener('click', () => runQuery(false));
  $('query-more').addEventListener('click', () => runQuery(true));
  $('partitions-refresh').addEventListener('click', loadPartitions);
  loadDatabases();
})();
