/**
 * The types one widget run is made of: the controller components hold, the shape of the second
 * file (./restOfRun.ts) as the controller loads it, and what a step's screen gets. Types only, and
 * naming no widget module, so the second file's screens can take them without importing the
 * first file's controller back (which imports the second file).
 */
import type { JSX } from 'preact';
import type { Phase, Runner, RunnerLater, RunnerState } from '@core/survey/runner';
import type { createParticipantTransport } from '@core/participant/transport';

/** The second file: the rest of the run, of the transport, and the steps' screens (./controller.ts checks ./restOfRun.ts against it). */
export interface LaterModule extends RunnerLater {
  createParticipantTransport: typeof createParticipantTransport;
  StepView(props: StepProps): JSX.Element;
}

export interface Controller {
  runner: Runner;
  channel: string;
  /** True when the widget cannot run at all (unknown channel, malformed snippet): the friendly message shows. */
  dead(): boolean;
  /** The second file once loaded (it is, before the runner moves past the first page). */
  later(): LaterModule | undefined;
  start(): void;
  stop(): void;
}

/** What a step's screen gets: the state, the run, and the shared pieces of the card. */
export interface StepProps {
  s: RunnerState;
  /** The step on screen (while a call runs, the one that made it). */
  view: Phase;
  ctl: Controller;
  busy: boolean;
  hasErrors: boolean;
  back: (() => unknown) | null;
  h: (title: string) => JSX.Element;
}
