// What Prototype.js 1.6 does to a page: every array serializes itself as a string, and a page
// script replaces JSON.stringify with its own (here one that follows those toJSON methods).
Array.prototype.toJSON = function () {
  var out = [];
  for (var i = 0; i < this.length; i++) out.push(JSON.stringify(this[i]));
  return '[' + out.join(', ') + ']';
};
Object.defineProperty(Object.prototype, 'toJSON', {
  configurable: true,
  value: function () {
    return this;
  },
});
var nativeStringify = JSON.stringify;
JSON.stringify = function (value, replacer, space) {
  window.__hostStringify = (window.__hostStringify || 0) + 1;
  return nativeStringify.call(JSON, value, replacer, space);
};
