/** The DOM events on the widget's element for a partner's tag manager (widget/hostEvents.ts). */
import { describe, expect, it } from 'vitest';
import { hostEvents } from '../../widget/hostEvents';
import type { Phase, RunnerState } from '@core/survey/runner';
import type { EventsPolicy } from '@core/model/eventsPolicy';

const ids = { mediaChannelId: '3', screenerId: '4' };

function listen(host: HTMLElement) {
  const seen: string[] = [];
  for (const name of ['view', 'start', 'finish', 'page', 'outcome', 'complete']) {
    // Heard on the document: the events bubble out of the widget's element.
    document.addEventListener(`trial-widget:${name}`, (e) => {
      if (e.target === host) seen.push(`${name} ${JSON.stringify((e as CustomEvent).detail)}`);
    });
  }
  return seen;
}

let policy: EventsPolicy | undefined = 'detailed';
const state = (phase: Phase, page?: string, outcome: RunnerState['outcome'] = null) =>
  ({
    phase,
    page: page ? { identity: page } : null,
    outcome,
    survey: policy ? { id: '1', identity: 'S', title: 'S', containerCount: 2, eventsPolicy: policy } : null,
  }) as RunnerState;

describe('host events under the detailed policy', () => {
  it('a whole run: view, start with the first answered page, each page and step, the outcome, complete; nothing personal', () => {
    const host = document.createElement('div');
    document.body.append(host);
    const seen = listen(host);
    const events = hostEvents(host, ids, null);
    events.state(state('loading'), null);
    events.state(state('page', 'p1'), null);
    events.view();
    events.state(state('saving', 'p1'), null);
    events.state(state('saving', 'p1'), 's1');
    events.state(state('page', 'p2'), 's1');
    events.state(state('page', 'p2'), 's1');
    events.state(state('zip'), 's1');
    events.state(state('sites'), 's1');
    events.state(state('contact'), 's1');
    events.state(state('consent'), 's1');
    events.state(state('finished', undefined, 'completed'), 's1');
    events.state(state('finished', undefined, 'completed'), 's1');
    const base = '"mediaChannelId":"3","screenerId":"4"';
    expect(seen).toEqual([
      `view {${base}}`,
      `start {${base}}`,
      `page {${base},"page":"p2"}`,
      `finish {${base}}`,
      `page {${base},"page":"zip"}`,
      `page {${base},"page":"sites"}`,
      `page {${base},"page":"contact"}`,
      `page {${base},"page":"consent"}`,
      `outcome {${base},"outcome":"completed"}`,
      `complete {${base}}`,
    ]);
  });

  it('a participant not qualified: the outcome, no complete', () => {
    const host = document.createElement('div');
    const seen = listen(host);
    document.body.append(host);
    const events = hostEvents(host, ids, null);
    events.state(state('page', 'p1'), null);
    events.state(state('finished', undefined, 'notQualified'), 's2');
    expect(seen.map((e) => e.split(' ')[0])).toEqual(['start', 'finish', 'outcome']);
    expect(seen[2]).toContain('"outcome":"notQualified"');
  });

  it('after a reload: the resumed submission is no new start, the restored step no move, a restored outcome no new one', () => {
    const host = document.createElement('div');
    document.body.append(host);
    const seen = listen(host);
    const resumedPage = hostEvents(host, ids, { submissionId: 's1', step: 'page' });
    resumedPage.state(state('page', 'p2'), 's1');
    resumedPage.state(state('zip'), 's1');
    // The survey's pages done after the reload: that is the finish, once.
    expect(seen.map((e) => e.split(' ')[0])).toEqual(['finish', 'page']);

    seen.length = 0;
    const resumedEnd = hostEvents(host, ids, { submissionId: 's1', step: 'finished' });
    resumedEnd.state(state('finished', undefined, 'completed'), 's1');
    expect(seen).toEqual([]);

    // A resume the server refused: a fresh run is a new start.
    const refused = hostEvents(host, ids, { submissionId: 'gone', step: 'page' });
    refused.state(state('page', 'p1'), null);
    refused.state(state('page', 'p2'), 's9');
    expect(seen.map((e) => e.split(' ')[0])).toEqual(['start', 'page']);
  });
});

describe('host events under the minimal and none policies', () => {
  /** A run to its outcome, `qualified` or not, as the widget's states go; what the page heard. */
  function run(qualified: boolean) {
    const host = document.createElement('div');
    document.body.append(host);
    const seen = listen(host);
    const events = hostEvents(host, ids, null);
    events.state(state('page', 'p1'), null);
    events.view();
    events.state(state('page', qualified ? 'p2-yes' : 'p2-no'), 's1');
    if (qualified) {
      for (const phase of ['zip', 'sites', 'contact', 'consent'] as const) events.state(state(phase), 's1');
      events.state(state('finished', undefined, 'completed'), 's1');
    } else {
      events.state(state('finished', undefined, 'notQualified'), 's1');
    }
    host.remove();
    return seen;
  }

  it('minimal (the default): view, start, finish, the same for a qualified and a disqualified run, no page or outcome', () => {
    policy = 'minimal';
    const base = '"mediaChannelId":"3","screenerId":"4"';
    expect(run(true)).toEqual([`view {${base}}`, `start {${base}}`, `finish {${base}}`]);
    expect(run(false)).toEqual(run(true));
  });

  it('none: nothing; nor before the policy is known (no survey read yet)', () => {
    policy = 'none';
    expect(run(true)).toEqual([]);
    policy = undefined;
    expect(run(false)).toEqual([]);
  });

  it('a reload past the survey announces no second finish', () => {
    policy = 'minimal';
    const host = document.createElement('div');
    document.body.append(host);
    const seen = listen(host);
    const events = hostEvents(host, ids, { submissionId: 's1', step: 'sites' });
    events.state(state('sites'), 's1');
    events.state(state('contact'), 's1');
    expect(seen).toEqual([]);
  });
});
