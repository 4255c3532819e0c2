// Cosmos DB's server-side JavaScript API over one host function. Evaluated once into the sealed shared scope and
// called once with make(proto, s) (Java: a new object of prototype proto with s in a hidden, read-only __s property)
// and returning(value) (Java: a function that returns value):
// the API's methods live on frozen prototypes shared by every execution; install(host, global, kind, requestJson),
// called once per execution in a fresh child scope, makes that execution's few objects, each holding the
// execution's state in __s. (Methods use `this`: call them on their objects, as Cosmos DB's samples do.)
// host(op, args), or host(op, null, link, doc, options, want) for document operations (no wrapper object to build
// and walk), returns JSON text: {"ok":true,...} or {"ok":false,"status":n,"message":"..."}, or {"accepted":false}
// once the execution is near its bounds; a bare success comes as one shared frozen {ok: true} object instead.
// Functions called per operation declare no inner functions: Rhino gives those an activation object per call.
(function (make, returning) {
  'use strict';

  function parsed(r) {
    return typeof r === 'string' ? JSON.parse(r) : r;
  }
  function call(s, op, args) {
    return parsed(s.host(op, args)); // args cross as a tree (JsValues), results as JSON text
  }
  function toError(r) {
    var e = new Error(r.message);
    e.number = r.status;
    e.body = JSON.stringify({ code: r.code || String(r.status), message: r.message });
    return e;
  }
  function optsAndCallback(options, callback) {
    if (typeof options === 'function') { return { options: {}, callback: options }; }
    return { options: options || {}, callback: callback };
  }
  // runs one collection operation: false when not accepted; otherwise queues the callback (or throws on error when
  // there is none) and returns true. Callbacks run after the current turn, in order, as Cosmos DB runs them.
  function operation(s, op, args, callback, shape) {
    args.want = typeof callback === 'function'; // without a callback nobody reads the resource: skip it
    return outcome(s, call(s, op, args), callback, shape);
  }
  // a document operation: link, doc and options go to the host as they are
  function documentOperation(s, op, l, doc, options, callback) {
    var want = typeof callback === 'function'; // without a callback nobody reads the resource: skip it
    return outcome(s, parsed(s.host(op, null, l, doc, options, want)), callback, undefined);
  }
  function outcome(s, r, callback, shape) {
    if (r.accepted === false) { return false; }
    if (!r.ok) {
      var err = toError(r);
      if (typeof callback !== 'function') { throw err; }
      later(s, callback, err, undefined, r.options || {});
      return true;
    }
    if (typeof callback === 'function') {
      later(s, callback, undefined, shape ? shape(r) : r.resource, r.options || {});
    }
    return true;
  }
  function later(s, callback, err, value, options) {
    s.queue.push(function () { callback(err, value, options); });
  }
  function link(s, which) {
    if (!s.links) { s.links = call(s, 'links', {}); }
    return s.links[which];
  }
  function resources(r) { return r.resources; }

  // ---- the __ fluent query API: a chain of steps over the partition's documents ----
  var STEPS = ['filter', 'map', 'pluck', 'flatten', 'sortBy', 'sortByDescending'];
  function keyCompare(key, descending) {
    return function (a, b) {
      var ka = key(a), kb = key(b);
      var c = ka < kb ? -1 : ka > kb ? 1 : 0;
      return descending ? -c : c;
    };
  }
  function stepFor(name, arg) {
    switch (name) {
      case 'filter': return function (docs) { return docs.filter(function (d) { return arg(d); }); };
      case 'map': return function (docs) { return docs.map(function (d) { return arg(d); }); };
      case 'pluck': return function (docs) { return docs.map(function (d) { return d == null ? undefined : d[arg]; }); };
      case 'flatten': return function (docs) {
        var out = [];
        var deep = arg !== true;
        (function flat(xs, top) {
          for (var i = 0; i < xs.length; i++) {
            if (Array.isArray(xs[i]) && (top || deep)) { flat(xs[i], false); } else { out.push(xs[i]); }
          }
        })(docs, true);
        return out;
      };
      case 'sortBy':
      case 'sortByDescending': return function (docs) {
        var key = typeof arg === 'function' ? arg : function (d) { return d[arg]; };
        return docs.slice().sort(keyCompare(key, name === 'sortByDescending'));
      };
    }
  }
  // runs steps over the documents; returns {isAccepted}, calls callback(err, feed, options) after the turn
  function runQuery(s, steps, options, callback) {
    var oc = optsAndCallback(options, callback);
    var r = call(s, 'documents', {});
    if (r.accepted === false) { return { isAccepted: false }; }
    var result = r.resources;
    for (var i = 0; i < steps.length; i++) { result = steps[i](result); }
    if (typeof oc.callback === 'function') {
      s.queue.push(function () { oc.callback(undefined, result, { continuation: undefined }); });
    }
    return { isAccepted: true };
  }
  function chain(s, steps) {
    var c = {};
    STEPS.forEach(function (name) {
      c[name] = function (arg) { return chain(s, steps.concat([stepFor(name, arg)])); };
    });
    c.value = function (options, callback) { return runQuery(s, steps, options, callback); };
    return c;
  }

  var Collection = {
    getSelfLink: function () { return link(this.__s, 'self'); },
    getAltLink: function () { return link(this.__s, 'alt'); },
    createDocument: function (l, doc, options, callback) {
      if (typeof options === 'function') { callback = options; options = undefined; }
      return documentOperation(this.__s, 'create', l, doc, options, callback);
    },
    upsertDocument: function (l, doc, options, callback) {
      if (typeof options === 'function') { callback = options; options = undefined; }
      return documentOperation(this.__s, 'upsert', l, doc, options, callback);
    },
    replaceDocument: function (l, doc, options, callback) {
      if (typeof options === 'function') { callback = options; options = undefined; }
      return documentOperation(this.__s, 'replace', l, doc, options, callback);
    },
    readDocument: function (l, options, callback) {
      if (typeof options === 'function') { callback = options; options = undefined; }
      return documentOperation(this.__s, 'read', l, undefined, options, callback);
    },
    deleteDocument: function (l, options, callback) {
      if (typeof options === 'function') { callback = options; options = undefined; }
      return documentOperation(this.__s, 'delete', l, undefined, options, callback);
    },
    patchDocument: function (l, patch, options, callback) {
      var oc = optsAndCallback(options, callback);
      var ops = Array.isArray(patch) ? patch : (patch && patch.operations) || patch;
      return operation(this.__s, 'patch', { link: l, operations: ops, options: oc.options }, oc.callback);
    },
    readDocuments: function (l, options, callback) {
      var oc = optsAndCallback(options, callback);
      return operation(this.__s, 'query', { link: l, query: 'SELECT * FROM root r', options: oc.options },
        oc.callback, resources);
    },
    queryDocuments: function (l, query, options, callback) {
      var oc = optsAndCallback(options, callback);
      var spec = typeof query === 'string' ? { query: query, parameters: [] } : query;
      return operation(this.__s, 'query', { link: l, query: spec.query, parameters: spec.parameters || [],
        options: oc.options }, oc.callback, resources);
    },
    chain: function () { return chain(this.__s, []); },
    value: function (options, callback) { return runQuery(this.__s, [], options, callback); }
  };
  STEPS.forEach(function (name) {
    Collection[name] = function (arg, options, callback) {
      return runQuery(this.__s, [stepFor(name, arg)], options, callback);
    };
  });

  var Request = {
    getBody: function () { return this.__s.requestBody; },
    setBody: function (b) { this.__s.requestBody = b; },
    getValue: function () { return this.__s.requestBody; },
    setValue: function (b) { this.__s.requestBody = b; },
    getOperationType: function () { return this.__s.request.operationType; },
    getHeaders: function () { return this.__s.request.headers || {}; }
  };
  var Response = {
    getBody: function () { var s = this.__s; return s.responseSet ? s.responseBody : s.request.responseBody; },
    setBody: function (b) { this.__s.responseBody = b; this.__s.responseSet = true; },
    getValue: function () { var s = this.__s; return s.responseSet ? s.responseBody : s.request.responseBody; },
    setValue: function (b) { this.__s.responseBody = b; this.__s.responseSet = true; },
    getMaxResponseSize: function () { return call(this.__s, 'limits', {}).maxResponseSize; },
    getRequestCharge: function () { return call(this.__s, 'charge', {}).charge; }
  };
  var Context = {
    getCollection: function () { return this.__s.collection; },
    getRequest: function () { return this.__s.requestObject; },
    getResponse: function () { return this.__s.responseObject; }
  };
  function show(x) {
    if (typeof x === 'string') { return x; }
    try { var t = JSON.stringify(x); return t === undefined ? String(x) : t; } catch (e) { return String(x); }
  }
  var Console = {
    log: function () {
      var parts = [];
      for (var i = 0; i < arguments.length; i++) { parts.push(show(arguments[i])); }
      call(this.__s, 'log', { line: parts.join(' ') });
    }
  };
  var Driver = {
    // calls the script's function with the JSON parameters, then every queued callback, in order
    run: function (fn, paramsJson) {
      var s = this.__s;
      if (typeof fn !== 'function') { throw new Error('the script does not define a function'); }
      var params = paramsJson ? JSON.parse(paramsJson) : [];
      fn.apply(undefined, params);
      while (s.queue.length > 0) { s.queue.shift()(); }
      var out = {};
      if (s.responseSet && s.responseBody !== undefined) { out.body = JSON.stringify(s.responseBody); }
      if (s.requestBody !== undefined) { out.request = JSON.stringify(s.requestBody); }
      return out;
    }
  };
  [Collection, Request, Response, Context, Console, Driver].forEach(function (proto) {
    Object.keys(proto).forEach(function (k) { Object.freeze(proto[k]); });
    Object.freeze(proto);
  });

  return function install(host, g, kind, requestJson) {
    var request = requestJson ? JSON.parse(requestJson) : {};
    var s = { host: host, queue: [], request: request, requestBody: request.body, responseBody: undefined,
      responseSet: false, links: null };
    s.collection = make(Collection, s);
    s.requestObject = make(Request, s);
    s.responseObject = make(Response, s);
    var context = make(Context, s);
    if (kind !== 'udf') {
      g.getContext = returning(context); // a Java function: no closure and no activation per execution
      g.__ = s.collection;
    }
    g.console = make(Console, s);
    return make(Driver, s);
  };
})
