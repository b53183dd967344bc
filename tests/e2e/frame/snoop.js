// What any script of the partner's page (a tag manager, an analytics or session-replay tool) can
// read of the framed widget: the page's own text and markup, and the frame's document.
window.__snoop = function () {
  var frame = document.querySelector('[data-trial-widget] iframe');
  var contentDocument = 'no frame';
  var windowDocument = 'no frame';
  if (frame) {
    contentDocument = frame.contentDocument === null ? 'null' : 'readable';
    try {
      windowDocument = frame.contentWindow.document ? 'readable' : 'none';
    } catch (error) {
      windowDocument = 'refused: ' + error.name;
    }
  }
  return { text: document.body.innerText, html: document.documentElement.outerHTML, contentDocument: contentDocument, windowDocument: windowDocument };
};
