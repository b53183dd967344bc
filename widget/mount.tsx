/**
 * The widget's public entry: `mount(element, options)` renders the participant runner into a
 * shadow root of `element`, styled through constructed stylesheets so host-page CSS cannot
 * reach in, widget CSS cannot leak out, and a CSP without 'unsafe-inline' styles is fine.
 * The admin's survey preview calls this same function with `preview` and its own transport.
 */
import { render } from 'preact';
import css from './styles.css?inline';
import { App } from './App';
import type { ControllerOptions } from './controller';
import type { MountedWidget, MountOptions } from './mountOptions';
import { themeCss } from './theme';

export type { MountedWidget, MountOptions };

let sheet: CSSStyleSheet | null = null;
function styleSheet(): CSSStyleSheet {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
  }
  return sheet;
}

/**
 * The documented opt-out markers of the common session-replay and analytics recorders: rrweb's
 * block class (and PostHog's and Sentry's, built on rrweb), FullStory's, Hotjar's, LogRocket's,
 * Microsoft Clarity's and Datadog's. A recorder that honours its marker keeps only a blank box
 * of the widget's size: no question, answer or contact detail. The classes go on the host and
 * again on the shadow tree's top element. On partners' pages the tree is in a closed shadow root,
 * which no recorder descends into; but a recorder also hooks the inputs' `value` setters on the
 * page's prototypes, which the widget's inputs share, and finds them blocked by that top element.
 */
const PRIVATE_CLASSES = 'rr-block ph-no-capture sentry-block fs-exclude';
const PRIVATE_ATTRIBUTES = { 'data-hj-suppress': '', 'data-private': '', 'data-clarity-mask': 'true', 'data-dd-privacy': 'hidden' };

export function mount(element: HTMLElement, options: MountOptions): MountedWidget {
  element.classList.add(...PRIVATE_CLASSES.split(' '));
  for (const [name, value] of Object.entries(PRIVATE_ATTRIBUTES)) element.setAttribute(name, value);
  // Closed on partners' pages: no script of the page reaches the tree through `shadowRoot`. The
  // admin's preview keeps it open. The space the snippet reserves (its element's min-height)
  // holds while the host's reset applies: the card fills it, so nothing below moves.
  const reserved = getComputedStyle(element).minHeight;
  const root = element.shadowRoot ?? element.attachShadow({ mode: options.preview ? 'open' : 'closed' });
  // Each widget has its own theme sheet: two screeners on one page keep their own colours.
  const theme = new CSSStyleSheet();
  root.adoptedStyleSheets = [styleSheet(), theme];
  const props: ControllerOptions = { host: element, ...options, onStyles: (styles) => theme.replaceSync(themeCss(styles)) };
  render(
    <div class={PRIVATE_CLASSES} style={{ minHeight: reserved }}>
      <App {...props} />
    </div>,
    root,
  );
  return {
    root,
    unmount: () => render(null, root),
  };
}
