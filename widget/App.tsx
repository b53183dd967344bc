import { Component, createRef, type JSX, type RefObject } from 'preact';
import { createController, type ControllerOptions } from './controller';
import type { Controller } from './runTypes';
import { participantText } from './components/text';
import { textDirection } from '@core/i18n/participant';
import { percentage } from '@core/survey/progress';
import { PLACES, type OutcomeMessages, type Phase, type RunnerState } from '@core/survey/runner';
import { showsBack } from './theme';
import { Question, translated } from './components/Question';
import { Html, Nav, Problem } from './components/Card';

export type AppProps = ControllerOptions;

/**
 * The participant runner: one step at a time, re-rendered on each change of the core state
 * machine. A class, not hooks: the first file partners' pages load stays smaller without them.
 */
export class App extends Component<AppProps, { s: RunnerState }> {
  // Declared, not initialised as class fields: the es2020 build would add helpers for those.
  declare ctl: Controller;
  declare heading: RefObject<HTMLHeadingElement | null>;
  /** The step shown (phase and page), how many were shown, and the step a call in progress keeps on screen. */
  declare step: string;
  declare shown: number;
  declare view: Phase;
  declare off: (() => void) | undefined;
  /** The runner's errors when a form was sent, until the answer to it shows (see componentDidUpdate). */
  declare sent: object | null | undefined;

  /** Starts a run; a transition survey replaces the run (and its channel) in the same place. */
  open(run: AppProps) {
    this.close();
    const ctl = (this.ctl = createController({ ...run, onTransition: (next) => this.open({ ...run, ...next }) }));
    this.off = ctl.runner.subscribe((s) => this.setState({ s }));
    this.setState({ s: ctl.runner.getState() });
    ctl.start();
  }

  close() {
    this.off?.();
    this.ctl?.stop();
  }

  override componentDidMount() {
    this.heading = createRef();
    this.shown = 0;
    this.open(this.props);
  }

  override componentWillUnmount() {
    this.close();
  }

  // Focus follows the participant to each new step's heading, but the host page keeps its
  // focus when the widget first appears.
  override componentDidUpdate() {
    const s = this.state.s;
    const busy = s.phase === 'loading' || s.phase === 'saving';
    const step = `${busy || s.phase === 'idle' ? '' : s.phase}:${s.page?.identity ?? ''}`;
    if (step !== this.step && !step.startsWith(':')) {
      this.step = step;
      if (this.shown++ > 0) this.heading.current?.focus();
    }
    // Once a form sent is answered (the runner's errors are others than when it was sent: its own
    // checks or the server's), the first field in error takes the focus; only then, not on each
    // edit while errors remain. A fieldset is not focusable: its first input is.
    if (this.sent && !busy && s.errors !== this.sent) {
      this.sent = null;
      this.heading.current?.closest('section')?.querySelector<HTMLElement>('[aria-invalid=true]:not(fieldset),[aria-invalid=true] input')?.focus();
    }
  }

  render() {
    const { s } = this.state;
    const ctl = this.ctl;
    if (!s) return null;
    const text = participantText(s.language);
    const busy = s.phase === 'loading' || s.phase === 'saving';
    // While a call runs, the step that made it stays on screen, disabled.
    if (!busy) this.view = s.phase;
    const view = this.view;
    if (ctl.dead()) return <Problem message={text.badSnippet} language={s.language} />;
    const r = ctl.runner;
    const back = showsBack(s.survey?.styles) ? r.back : null;
    const hasErrors = Object.keys(s.errors).length > 0;
    const h = (title: string) => (
      <h2 class="tw-title" tabIndex={-1} ref={this.heading}>
        {title}
      </h2>
    );

    let body: JSX.Element | null;
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
          {h(translated(page.translations, s.language)?.title || page.title)}
          {page.fields.map((f) => (
            <Question
              key={f.id}
              field={f}
              value={s.answers[f.identity]}
              error={s.errors[f.identity]}
              lang={s.language}
              region={s.survey?.region}
              onAnswer={r.answer}
              text={text}
              disabled={busy}
            />
          ))}
          <Nav busy={busy} error={hasErrors} text={text} onBack={s.history.length > 1 ? back : null} />
        </form>
      );
    } else if (PLACES[view] && view !== 'page' && ctl.later()) {
      const Step = ctl.later()!.StepView;
      body = <Step s={s} view={view} ctl={ctl} busy={busy} hasErrors={hasErrors} back={back} h={h} />;
    } else {
      body = (
        <p class="tw-message" role="status">
          {text.loading}
        </p>
      );
    }

    return (
      // Every step's form submits through here, before its own handler has run.
      <section
        class="tw-card"
        aria-busy={busy}
        lang={s.language.replace(/_/g, '-')}
        dir={textDirection(s.language)}
        data-media-channel-id={ctl.channel}
        onSubmitCapture={() => (this.sent = r.getState().errors)}
      >
        {s.preview && <p class="tw-message tw-preview">{text.preview}</p>}
        {s.survey && s.phase !== 'finished' && <Progress value={percentage(s.progress)} label={text.progress} />}
        {body}
      </section>
    );
  }
}

export function Progress({ value, label }: { value: number; label: string }) {
  return (
    <div class="tw-progress" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={value}>
      <div class="tw-bar" style={{ width: `${value}%` }} />
    </div>
  );
}

function Outcome({ s, h }: { s: RunnerState; h: (title: string) => JSX.Element }) {
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
