// Exact integers for the pages: seeds are 64-bit and a JavaScript number holds integers exactly
// only up to 2^53, so JSON.parse alone would show 14602530494585831241 as
// 14602530494585831000. `ArenaJson.parse` turns every integer beyond that range into a BigInt
// (from its source text), and `ArenaJson.add` / `sub` / `neg` do chip arithmetic exactly on
// numbers and BigInts alike, giving a plain number back whenever it is exact.
(function () {
  'use strict';

  const INTEGER = /^-?\d+$/;

  // The reviver's third argument (the value's source text) is there in Chromium 114 and later
  // and in current Firefox and Safari.
  function reviver(key, value, context) {
    if (typeof value === 'number' && !Number.isSafeInteger(value) && context && INTEGER.test(context.source)) {
      return BigInt(context.source);
    }
    return value;
  }

  function parse(text) {
    return JSON.parse(text, reviver);
  }

  // A BigInt that fits a safe number becomes that number again.
  function normal(big) {
    return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
  }

  function add(a, b) {
    if (typeof a === 'number' && typeof b === 'number') {
      const sum = a + b;
      if (Number.isSafeInteger(sum) || !Number.isInteger(a) || !Number.isInteger(b)) return sum;
    }
    return normal(BigInt(a) + BigInt(b));
  }

  function neg(a) {
    return typeof a === 'bigint' ? normal(-a) : -a;
  }

  function sub(a, b) {
    return add(a, neg(b));
  }

  // JSON.stringify for values that may hold BigInts (written as plain integers).
  function stringify(value) {
    return JSON.stringify(value, (key, v) => (typeof v === 'bigint' ? v.toString() : v));
  }

  window.ArenaJson = { parse, add, sub, neg, stringify };
})();
