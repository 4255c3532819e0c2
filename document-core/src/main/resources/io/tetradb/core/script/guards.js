// Evaluated once into the shared scope before it is sealed, called with maxStringLength() (Java: the current
// execution's bound in characters). The built-ins that make one long string in a single call check the length they
// would make first and throw V8's RangeError instead of asking the JVM for a huge array: the allocation bound is
// checked between instructions, too late for one call that allocates gigabytes.
(function (maxStringLength) {
  'use strict';
  function guard(proto, name, length) {
    var original = proto[name];
    Object.defineProperty(proto, name, {
      value: function () {
        if (length(this, arguments) > maxStringLength()) { throw new RangeError('Invalid string length'); }
        return original.apply(this, arguments);
      },
      writable: true, configurable: true, enumerable: false
    });
  }
  // only strings (Rhino passes `this` as a String object) are measured: converting another object here would run
  // its toString twice
  function own(s) { return typeof s === 'string' || s instanceof String ? s.length : 0; }
  guard(String.prototype, 'repeat', function (s, a) { return own(s) * (Number(a[0]) || 0); });
  guard(String.prototype, 'padStart', function (s, a) { return Number(a[0]) || 0; });
  guard(String.prototype, 'padEnd', function (s, a) { return Number(a[0]) || 0; });
  guard(Array.prototype, 'join', function (arr, a) {
    var sep = a[0] === undefined ? 1 : own(a[0]);
    return (Number(arr.length) || 0) * sep;
  });
})
