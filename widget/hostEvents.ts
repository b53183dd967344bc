/**
 * The DOM events a partner's tag manager can listen to (core/participant/hostEvents.ts says what
 * each means and which the channel's events policy announces), dispatched on the widget's
 * element and bubbling, so `document.addEventListener('trial-widget:start', …)` hears every
 * widget. What a reload restores (the submission, the step, an outcome) fires nothing again.
 * Until the channel's policy is known (a reload showing a finished run's outcome reads no
 * survey) nothing is announced.
 */
import { PLACES, type RunnerState } from '@core/survey/runner';
import type { EventsPolicy } from '@core/model/eventsPolicy';
import { POLICY_EVENTS, type HostEventName } from '@core/participant/hostEvents';

/** The phases in which the widget shows something of the channel (not loading, not an error): a snapshot's places. */
export const SHOWING = PLACES;

/** Returns what to call on each state of the run (with its submission) and the `view` to fire once seen. */
export function hostEvents(
  host: HTMLElement,
  ids: { mediaChannelId: string; screenerId: string },
  resumed: { submissionId?: string | null; step?: string } | null,
) {
  let policy: EventsPolicy = 'none';
  const fire = (name: HostEventName, detail?: object) => {
    if (POLICY_EVENTS[policy].includes(name)) {
      host.dispatchEvent(
        new CustomEvent(`trial-widget:${name}`, { bubbles: true, detail: { mediaChannelId: ids.mediaChannelId, screenerId: ids.screenerId, ...detail } }),
      );
    }
  };
  let step: string | undefined;
  let submission = resumed?.submissionId;
  // The survey's pages were done on an earlier load: its finish was announced then.
  let finished = !!resumed?.step && resumed.step !== 'page';
  return {
    view: () => fire('view'),
    state(s: RunnerState, submissionId: string | null) {
      policy = s.survey?.eventsPolicy ?? policy;
      if (submissionId && submission !== submissionId) {
        submission = submissionId;
        fire('start');
      }
      if (!SHOWING[s.phase]) return;
      if (s.phase !== 'page' && submissionId && !finished) {
        finished = true;
        fire('finish');
      }
      const at = s.phase + s.page?.identity;
      if (at === step) return;
      // The first step shown on this page load is no move, and an outcome restored by a reload no new one.
      const first = step === undefined;
      step = at;
      if (s.phase !== 'finished') {
        if (!first) fire('page', { page: s.page?.identity ?? s.phase });
      } else if (!(first && resumed?.step === 'finished')) {
        fire('outcome', { outcome: s.outcome });
        if (s.outcome === 'completed') fire('complete');
      }
    },
  };
}
