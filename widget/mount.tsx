/**
 * The widget's public entry: `mount(element, options)` renders the participant runner into a
 * shadow root of `element`, styled through constructed stylesheets so host-page CSS cannot
 * reach in, widget CSS cannot leak out, and a CSP without 'unsafe-inline' styles is fine.
 * The admin's survey preview calls this same function with `preview` and its own transport.
 */
import { render } from 'preact';
import css from './styles.css?inline';
import { App } from './components/App';
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

export function mount(element: HTMLElement, options: MountOptions): MountedWidget {
  const root = element.shadowRoot ?? element.attachShadow({ mode: 'open' });
  // Each widget has its own theme sheet: two screeners on one page keep their own colours.
  const theme = new CSSStyleSheet();
  root.adoptedStyleSheets = [styleSheet(), theme];
  const props: ControllerOptions = { host: element, ...options, onStyles: (styles) => theme.replaceSync(themeCss(styles)) };
  render(<App {...props} />, root);
  return {
    root,
    unmount: () => render(null, root),
  };
}
