/**
 * The screener's colours as CSS custom properties on the shadow host (`--tw-nextButton-hover`,
 * `--tw-progressBar-background`, …), in a constructed stylesheet of their own: a host page's
 * CSP may forbid inline styles. Values are re-checked here so nothing but a hex colour can reach
 * the CSS text.
 */
import type { RunnerStyles } from '@core/survey/runner';

const HEX = /^(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{2})$/;

/** `AB` is a grey (#ABABAB): how SPEC's two-digit colours are read. */
export function themeCss(styles: RunnerStyles | undefined): string {
  let out = '';
  for (const [group, colours] of Object.entries(styles ?? {})) {
    for (const [name, value] of Object.entries(colours ?? {})) {
      if (typeof value === 'string' && HEX.test(value)) out += `--tw-${group}-${name}:#${value.length === 2 ? value.repeat(3) : value}!important;`;
    }
  }
  return `:host{${out}}`;
}

/** False only when the screener hides the Back button. */
export const showsBack = (styles: RunnerStyles | undefined) => styles?.backButton?.isShown !== false;
