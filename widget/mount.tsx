/**
 * The widget's public entry: `mount(element, options)` renders the participant runner into a
 * shadow root of `element`, styled through a constructed stylesheet so host-page CSS cannot
 * reach in, widget CSS cannot leak out, and a CSP without 'unsafe-inline' styles is fine.
 * The admin's survey preview calls this same function.
 */
import { render } from 'preact';
import css from './styles.css?inline';
import { App } from './components/App';

export interface MountOptions {
  mediaChannelId: string;
  screenerId: string;
  language?: string;
  /** Origin of the API, e.g. https://host (taken from the script's own src by embed.ts). */
  apiOrigin: string;
}

export interface MountedWidget {
  root: ShadowRoot;
  unmount(): void;
}

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
  root.adoptedStyleSheets = [styleSheet()];
  render(<App {...options} />, root);
  return {
    root,
    unmount: () => render(null, root),
  };
}
