import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ControllerOptions } from '../controller';
import { createController, type Controller } from '../controller';
import { participantText } from './text';
import { percentage } from '../../core/oform/progress';
import type { OutcomeMessages, Phase, RunnerContactField, RunnerState } from '../../core/oform/runner';
import { showsBack } from '../theme';
import { ENTRY, Question, translated } from './Question';
import { Err, Input, Req } from './Fields';

export type AppProps = ControllerOptions;

/** The participant runner: one step at a time, bound to the core state machine. */
export function App(props: AppProps) {
  // A transition survey replaces the run (and its channel) in the same place.
  const [run, setRun] = useState(props);
  const ctl = useMemo(() => createController({ ...run, onTransition: (next) => setRun({ ...run, ...next }) }), [run]);
  useEffect(() => {
    ctl.start();
    return ctl.stop;
  }, [ctl]);
  return <Run ctl={ctl} />;
}

function Run({ ctl }: { ctl: Controller }) {
  const s = ctl.state.value;
  const text = participantText(s.language);
  const heading = useRef<HTMLHeadingElement>(null);
  const step = `${s.phase === 'saving' || s.phase === 'loading' || s.phase === 'idle' ? '' : s.phase}:${s.page?.identity ?? ''}`;
  const shown = useRef(0);
  // Focus follows the participant to each new step's heading, but the host page keeps its
  // focus when the widget first appears.
  useEffect(() => {
    if (step.startsWith(':')) return;
    if (shown.current++ > 0) heading.current?.focus();
  }, [step]);

  const busy = s.phase === 'loading' || s.phase === 'saving';
  // While a call runs, the step that made it stays on screen, disabled.
  const lastView = useRef<Phase>('idle');
  if (!busy) lastView.current = s.phase;
  const view = busy ? lastView.current : s.phase;
  if (ctl.dead.value) return <Problem message={text.badSnippet} language={s.language} />;
  const r = ctl.runner;
  const back = showsBack(s.survey?.styles) ? r.back : null;
  const hasErrors = Object.keys(s.errors).length > 0;
  const h = (title: string) => (
    <h2 class="tw-title" tabIndex={-1} ref={heading}>
      {title}
    </h2>
  );

  let body;
  if (view === 'failed') {
    body = (
      <div role="alert">
        {h(text.title)}
        {/* Nothing loaded yet: most likely the API is out of reach from this page. */}
        <p class="tw-message">{s.survey ? text.failed : text.badSnippet}</p>
        <button type="button" class="tw-next" onClick={() => void r.retry()}>
          {text.retry}
        </button>
      </div>
    );
  } else if (view === 'finished') {
    body = <Outcome s={s} h={h} />;
  } else if (view === 'page' && s.page) {
    const page = s.page;
    body = (
      <form noValidate onSubmit={(e) => (e.preventDefault(), void r.next())}>
        {h(page.title)}
        {page.fields.map((f) => (
          <Question key={f.id} field={f} value={s.answers[f.identity]} error={s.errors[f.identity]} lang={s.language} onAnswer={r.answer} text={text} disabled={busy} />
        ))}
        <Nav busy={busy} error={hasErrors} text={text} onBack={s.history.length > 1 ? back : null} />
      </form>
    );
  } else if (view === 'zip') {
    body = (
      <form noValidate onSubmit={(e) => (e.preventDefault(), void r.submitZip())}>
        {h(text.zipTitle)}
        <Html html={s.messages.contactForm} />
        <Input id="tw-zip" label={text.zipLabel} required value={s.zip} error={s.errors.zip} type="text" inputMode="numeric" autoComplete="postal-code" maxLength={5} text={text} onInput={r.enterZip} />
        <Nav busy={busy} error={hasErrors} text={text} label={text.search} />
      </form>
    );
  } else if (view === 'sites') {
    body = <Sites s={s} h={h} ctl={ctl} busy={busy} back={back} />;
  } else if (view === 'contact') {
    body = (
      <form noValidate onSubmit={(e) => (e.preventDefault(), r.submitContact())}>
        {h(text.contactTitle)}
        <Html html={s.messages.contactForm} />
        {s.contactFields.map((f) => (
          <ContactInput key={f.id} field={f} s={s} ctl={ctl} />
        ))}
        <Nav busy={busy} error={hasErrors} text={text} onBack={back} />
      </form>
    );
  } else if (view === 'consent') {
    body = (
      <form noValidate onSubmit={(e) => (e.preventDefault(), void r.submitConsent())}>
        {h(text.consentTitle)}
        <Html html={s.messages.consent} />
        <div class="tw-field">
          <label class="tw-choice">
            <input type="checkbox" checked={s.acceptTerms} aria-invalid={!!s.errors.acceptTerms} aria-describedby={s.errors.acceptTerms ? 'tw-accept-err' : undefined} onChange={(e) => r.accept(e.currentTarget.checked)} />
            <span>{text.accept}</span>
          </label>
          <Err id="tw-accept-err" error={s.errors.acceptTerms} />
        </div>
        <Nav busy={busy} error={hasErrors} text={text} label={text.submit} onBack={back} />
      </form>
    );
  } else {
    body = <p class="tw-message" role="status">{text.loading}</p>;
  }

  return (
    <section class="tw-card" aria-busy={busy} lang={s.language.replace(/_/g, '-')} data-media-channel-id={ctl.channel}>
      {s.preview && <p class="tw-message tw-preview">{text.preview}</p>}
      {s.survey && s.phase !== 'finished' && <Progress value={percentage(s.progress)} label={text.progress} />}
      {body}
    </section>
  );
}

type Text = ReturnType<typeof participantText>;

export function Progress({ value, label }: { value: number; label: string }) {
  return (
    <div class="tw-progress" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={value}>
      <div class="tw-bar" style={{ width: `${value}%` }} />
    </div>
  );
}

function Nav(props: { busy: boolean; text: Text; label?: string; error?: boolean; onBack?: (() => unknown) | null }) {
  return (
    <div class="tw-nav">
      {props.onBack && (
        <button type="button" class="tw-back" disabled={props.busy} onClick={() => void props.onBack?.()}>
          {props.text.back}
        </button>
      )}
      <button type="submit" class={props.error ? 'tw-next tw-err' : 'tw-next'} disabled={props.busy}>
        {props.busy ? props.text.loading : (props.label ?? props.text.next)}
      </button>
    </div>
  );
}

/** The screener's messages: staff-authored HTML, already sanitized by the server. */
function Html({ html }: { html: string | null | undefined }) {
  return html ? <div class="tw-html" dangerouslySetInnerHTML={{ __html: html }} /> : null;
}

function Outcome({ s, h }: { s: RunnerState; h: (title: string) => preact.JSX.Element }) {
  const text = participantText(s.language);
  const messages: OutcomeMessages = s.messages;
  return (
    <div class="tw-outcome" data-outcome={s.outcome ?? ''}>
      {h(text[s.outcome === 'trialSiteSelected' ? 'completed' : s.outcome === 'incomplete' ? 'notQualified' : (s.outcome ?? 'notActive')])}
      <Html html={messages.contactForm} />
      <Html html={messages.consent} />
    </div>
  );
}

function Sites({ s, h, ctl, busy, back }: { s: RunnerState; h: (t: string) => preact.JSX.Element; ctl: Controller; busy: boolean; back: (() => unknown) | null }) {
  const text = participantText(s.language);
  const [chosen, choose] = useState<string | null>(s.siteId ?? s.sites[0]?.id ?? null);
  return (
    <form noValidate onSubmit={(e) => (e.preventDefault(), chosen && void ctl.runner.chooseSite(chosen))}>
      {h(text.sitesTitle)}
      <Html html={s.messages.contactForm} />
      <fieldset class="tw-fieldset">
        <legend class="tw-label">{text.sitesTitle}</legend>
        {s.sites.map((site) => (
          <label class="tw-choice tw-site" key={site.id}>
            <input type="radio" name="tw-site" value={site.id} checked={chosen === site.id} disabled={busy} onChange={() => choose(site.id)} />
            <span>
              <strong>{site.name}</strong>
              <span class="tw-helper">
                {[site.address1, site.city, site.state, site.zipCode].filter(Boolean).join(', ')}
              </span>
              <span class="tw-distance">{text.miles.replace('{n}', String(Math.round(site.distanceMiles * 10) / 10))}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <Nav busy={busy} text={text} onBack={back} />
    </form>
  );
}

function ContactInput({ field, s, ctl }: { field: RunnerContactField; s: RunnerState; ctl: Controller }) {
  const text = participantText(s.language);
  const label = translated(field.translations, s.language) ?? field.label;
  const id = `tw-c-${field.id}`;
  const error = s.errors[field.name];
  if (field.type === 'checkbox') {
    return (
      <div class="tw-field">
        <label class="tw-choice">
          <input type="checkbox" id={id} checked={s.contact[field.name] === true} aria-invalid={!!error} aria-describedby={error ? `${id}-err` : undefined} onChange={(e) => ctl.runner.setContact(field.name, e.currentTarget.checked)} />
          <span>
            {label}
            {field.required && <Req text={text} />}
          </span>
        </label>
        <Err id={`${id}-err`} error={error} />
      </div>
    );
  }
  const [type, inputMode, autoComplete] = ENTRY[field.type]!;
  return (
    <Input
      id={id}
      label={label}
      required={field.required}
      value={String(s.contact[field.name] ?? '')}
      error={error}
      type={type}
      inputMode={inputMode}
      autoComplete={autoComplete}
      placeholder={field.type === 'phone' ? '000-000-0000' : undefined}
      text={text}
      onInput={(v) => ctl.runner.setContact(field.name, v)}
    />
  );
}

export function Problem(props: { message: string; language?: string }) {
  const text = participantText(props.language);
  return (
    <section class="tw-card" role="alert">
      <h2 class="tw-title">{text.title}</h2>
      <p class="tw-message">{props.message}</p>
    </section>
  );
}
