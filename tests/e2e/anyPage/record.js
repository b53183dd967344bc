// The partner's session-replay tool: rrweb (which most of them build on) recording the whole
// page from its first paint, with its default options, as a vendor's script starts it.
window.__replay = [];
window.rrweb.record({
  emit: function (event) {
    window.__replay.push(event);
  },
});
