/**
 * Reduces HTML to a few formatting tags with no attributes, for messages shown with
 * innerHTML. Parsing happens in a <template>, whose content is inert (nothing runs or loads);
 * only the allowed elements are rebuilt, so attributes such as onerror, style or href never
 * survive.
 */
const ALLOWED = new Set(['b', 'i', 'em', 'strong', 'br', 'p', 'ul', 'ol', 'li']);

// Removed with their content: it is code or markup, not text meant for the reader.
const DROPPED = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'svg',
  'math',
  'link',
  'meta',
  'base',
  'title',
  'head',
  'textarea',
  'select',
  'option',
  'xmp',
  'plaintext',
]);

function copyInto(source: Node, target: Node, doc: Document): void {
  for (const child of Array.from(source.childNodes)) {
    if (child.nodeType === Node.TEXT_NODE) {
      target.appendChild(doc.createTextNode(child.textContent ?? ''));
    } else if (child.nodeType === Node.ELEMENT_NODE) {
      const tag = (child as Element).localName.toLowerCase();
      if (DROPPED.has(tag)) continue;
      if (ALLOWED.has(tag)) {
        const clean = doc.createElement(tag);
        copyInto(child, clean, doc);
        target.appendChild(clean);
      } else {
        // Unknown wrappers (div, span, a...) give way to their content.
        copyInto(child, target, doc);
      }
    }
    // Comments and processing instructions are dropped.
  }
}

export function sanitizeHtml(html: string): string {
  const out = document.implementation.createHTMLDocument('');
  const template = out.createElement('template');
  template.innerHTML = html;
  const container = out.createElement('div');
  copyInto(template.content, container, out);
  return container.innerHTML;
}
