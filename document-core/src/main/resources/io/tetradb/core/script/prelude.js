// Cosmos DB's server-side JavaScript API over one host function. Evaluated once into the sealed shared scope; it
// yields install(host, global, kind, requestJson), called once per execution in a fresh child scope.
// host(op, json) returns a JSON string: {"ok":true,...} or {"ok":false,"status":n,"message":"..."},
// or {"accepted":false} once the execution is near its bounds.
(function () {
  'use strict';
  function install(host, g, kind, requestJson) {
    var queue = [];            // callbacks run after the current turn, as Cosmos DB runs them
    var request = requestJson ? JSON.parse(requestJson) : {};
    var requestBody = request.body;
    var responseBody;          // undefined until setBody
    var responseSet = false;

    function call(op, args) {
      return JSON.parse(host(op, args)); // args cross as a tree (JsValues), results as JSON text
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
    // runs one collection operation: false when not accepted; otherwise queues the callback (or throws on error
    // when there is none) and returns true
    function operation(op, args, callback, shape) {
      args.want = typeof callback === 'function'; // without a callback nobody reads the resource: skip it
      var r = call(op, args);
      if (r.accepted === false) { return false; }
      if (!r.ok) {
        var err = toError(r);
        if (typeof callback !== 'function') { throw err; }
        queue.push(function () { callback(err, undefined, r.options || {}); });
        return true;
      }
      if (typeof callback === 'function') {
        var value = shape ? shape(r) : r.resource;
        queue.push(function () { callback(undefined, value, r.options || {}); });
      }
      return true;
    }

    var links;                 // asked for on first use
    function link(which) {
      if (!links) { links = call('links', {}); }
      return links[which];
    }

    var collection = {
      getSelfLink: function () { return link('self'); },
      getAltLink: function () { return link('alt'); },
      createDocument: function (link, doc, options, callback) {
        var oc = optsAndCallback(options, callback);
        return operation('create', { link: link, doc: doc, options: oc.options }, oc.callback);
      },
      upsertDocument: function (link, doc, options, callback) {
        var oc = optsAndCallback(options, callback);
        return operation('upsert', { link: link, doc: doc, options: oc.options }, oc.callback);
      },
      replaceDocument: function (link, doc, options, callback) {
        var oc = optsAndCallback(options, callback);
        return operation('replace', { link: link, doc: doc, options: oc.options }, oc.callback);
      },
      readDocument: function (link, options, callback) {
        var oc = optsAndCallback(options, callback);
        return operation('read', { link: link, options: oc.options }, oc.callback);
      },
      deleteDocument: function (link, options, callback) {
        var oc = optsAndCallback(options, callback);
        return operation('delete', { link: link, options: oc.options }, oc.callback);
      },
      patchDocument: function (link, patch, options, callback) {
        var oc = optsAndCallback(options, callback);
        var ops = Array.isArray(patch) ? patch : (patch && patch.operations) || patch;
        return operation('patch', { link: link, operations: ops, options: oc.options }, oc.callback);
      },
      readDocuments: function (link, options, callback) {
        var oc = optsAndCallback(options, callback);
        return operation('query', { link: link, query: 'SELECT * FROM root r', options: oc.options },
          oc.callback, function (r) { return r.resources; });
      },
      queryDocuments: function (link, query, options, callback) {
        var oc = optsAndCallback(options, callback);
        var spec = typeof query === 'string' ? { query: query, parameters: [] } : query;
        return operation('query', { link: link, query: spec.query, parameters: spec.parameters || [],
          options: oc.options }, oc.callback, function (r) { return r.resources; });
      }
    };

    // ---- the __ fluent query API: a chain of steps over the partition's documents ----
    function applySteps(docs, steps) {
      var out = docs;
      for (var i = 0; i < steps.length; i++) { out = steps[i](out); }
      return out;
    }
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
        case 'sortBy': return function (docs) {
          var key = typeof arg === 'function' ? arg : function (d) { return d[arg]; };
          return docs.slice().sort(keyCompare(key, false));
        };
        case 'sortByDescending': return function (docs) {
          var key = typeof arg === 'function' ? arg : function (d) { return d[arg]; };
          return docs.slice().sort(keyCompare(key, true));
        };
      }
    }
    // runs steps over the documents; returns {isAccepted}, calls callback(err, feed, options) after the turn
    function runQuery(steps, options, callback) {
      var oc = optsAndCallback(options, callback);
      var r = call('documents', {});
      if (r.accepted === false) { return { isAccepted: false }; }
      var result = applySteps(r.resources, steps);
      if (typeof oc.callback === 'function') {
        queue.push(function () { oc.callback(undefined, result, { continuation: undefined }); });
      }
      return { isAccepted: true };
    }
    function chain(steps) {
      var c = {};
      ['filter', 'map', 'pluck', 'flatten', 'sortBy', 'sortByDescending'].forEach(function (name) {
        c[name] = function (arg) { return chain(steps.concat([stepFor(name, arg)])); };
      });
      c.value = function (options, callback) { return runQuery(steps, options, callback); };
      return c;
    }
    var fluent = Object.create(collection);
    ['filter', 'map', 'pluck', 'flatten', 'sortBy', 'sortByDescending'].forEach(function (name) {
      var single = function (arg, options, callback) { return runQuery([stepFor(name, arg)], options, callback); };
      fluent[name] = single;
      collection[name] = single;
    });
    fluent.chain = function () { return chain([]); };
    collection.chain = fluent.chain;
    fluent.value = function (options, callback) { return runQuery([], options, callback); };

    var requestObject = {
      getBody: function () { return requestBody; },
      setBody: function (b) { requestBody = b; },
      getValue: function () { return requestBody; },
      setValue: function (b) { requestBody = b; },
      getOperationType: function () { return request.operationType; },
      getHeaders: function () { return request.headers || {}; }
    };
    var responseObject = {
      getBody: function () { return responseSet ? responseBody : request.responseBody; },
      setBody: function (b) { responseBody = b; responseSet = true; },
      getValue: function () { return responseSet ? responseBody : request.responseBody; },
      setValue: function (b) { responseBody = b; responseSet = true; },
      getMaxResponseSize: function () { return call('limits', {}).maxResponseSize; },
      getRequestCharge: function () { return call('charge', {}).charge; }
    };
    var context = {
      getCollection: function () { return collection; },
      getRequest: function () { return requestObject; },
      getResponse: function () { return responseObject; }
    };

    if (kind !== 'udf') {
      g.getContext = function () { return context; };
      g.__ = fluent;
    }
    function show(x) {
      if (typeof x === 'string') { return x; }
      try { var s = JSON.stringify(x); return s === undefined ? String(x) : s; } catch (e) { return String(x); }
    }
    g.console = {
      log: function () {
        var parts = [];
        for (var i = 0; i < arguments.length; i++) { parts.push(show(arguments[i])); }
        call('log', { line: parts.join(' ') });
      }
    };

    return {
      // calls the script's function with the JSON parameters, then every queued callback, in order
      run: function (fn, paramsJson) {
        if (typeof fn !== 'function') { throw new Error('the script does not define a function'); }
        var params = paramsJson ? JSON.parse(paramsJson) : [];
        fn.apply(undefined, params);
        while (queue.length > 0) { queue.shift()(); }
        var out = {};
        if (responseSet && responseBody !== undefined) { out.body = JSON.stringify(responseBody); }
        if (requestBody !== undefined) { out.request = JSON.stringify(requestBody); }
        return JSON.stringify(out);
      },
      // a UDF: its value as JSON, or undefined
      udf: function (fn, argsJson) {
        var v = fn.apply(undefined, JSON.parse(argsJson));
        return v === undefined ? undefined : JSON.stringify(v);
      }
    };
  }
  return install;
})()
