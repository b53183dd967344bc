/**
 * Pieces of the card shown by more than one screen: the navigation and the staff's messages
 * (the first file's ./App.tsx and the second file's ./Steps.tsx), and the problem card (App, and
 * ../embed.ts for a malformed snippet). Nothing here imports the controller, so the second file
 * takes them without importing the first file's run, which loads the second file, back.
 */
import { stringsLanguage, type ParticipantText } from '@core/i18n/participant';
import { TRUSTED_TYPES_POLICY } from '@core/model/partnerPage';
import { participantText } from './text';

export function Nav(props: { busy: boolean; text: ParticipantText; label?: string; error?: boolean; onBack?: (() => unknown) | null; backLabel?: string }) {
  return (
    <div class="tw-nav">
      {props.onBack && (
        <button type="button" class="tw-back" disabled={props.busy} onClick={() => void props.onBack?.()}>
          {props.backLabel ?? props.text.back}
        </button>
      )}
      <button type="submit" class={props.error ? 'tw-next tw-err' : 'tw-next'} disabled={props.busy}>
        {props.busy ? props.text.loading : (props.label ?? props.text.next)}
      </button>
    </div>
  );
}

interface HtmlPolicy {
  createHTML(html: string): string;
}
let policy: HtmlPolicy | undefined;

/**
 * The props that put a screener's message (staff HTML the server sanitized) into an element.
 * Under a partner's Trusted Types (`require-trusted-types-for 'script'`) a string cannot reach
 * innerHTML: it goes through the widget's one named policy. A page whose `trusted-types`
 * directive leaves that name out still shows the message, as text.
 */
export function htmlProps(html: string) {
  try {
    const types = (window as { trustedTypes?: { createPolicy(name: string, rules: HtmlPolicy): HtmlPolicy } }).trustedTypes;
    policy ??= types ? types.createPolicy(TRUSTED_TYPES_POLICY, { createHTML: (s) => s }) : { createHTML: (s) => s };
    return { dangerouslySetInnerHTML: { __html: policy.createHTML(html) } };
  } catch {
    return { children: html.replace(/<[^>]*>/g, ' ') };
  }
}

/** The screener's messages: staff-authored HTML, already sanitized by the server. */
export function Html({ html }: { html: string | null | undefined }) {
  return html ? <div class="tw-html" {...htmlProps(html)} /> : null;
}

export function Problem(props: { message: string; language?: string }) {
  return (
    <section class="tw-card" role="alert" lang={stringsLanguage(props.language)}>
      <h2 class="tw-title">{participantText(props.language).title}</h2>
      <p class="tw-message">{props.message}</p>
    </section>
  );
}
