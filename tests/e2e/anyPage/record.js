// The partner's session-replay tool: rrweb (which most of them build on) recording the whole
// page from its first paint, as a vendor's script starts it. With `data-block-class` the
// recorder is told another block class than its default, so it honours none of the widget's
// opt-out markers: what stays out of the recording then stays out because it cannot be reached.
var blockClass = document.currentScript.dataset.blockClass;
window.__replay = [];
window.rrweb.record(Object.assign({
  emit: function (event) {
    window.__replay.push(event);
  },
}, blockClass ? { blockClass: blockClass } : {}));
