/**
 * The start of a run: `GET /participant-start` (the survey, its languages, the screener's styles
 * and the first page in one answer) and the first page. All a partner's page needs before the
 * first question shows; the rest of the transport (./transport.ts) may arrive later.
 */
import type { RunnerField, RunnerPage, RunnerSurvey, RunnerTransport } from '../survey/runner';
import { OutcomeReached } from '../survey/runner';
import { OFORM_FIELD_TYPE } from '../model/kinds';
import { bodyOf, type ParticipantCaller } from './call';
import { pageAttribution } from './attribution';
import type { ViewBody } from './requests';
import type { PageDocument } from './responses';
import { VIEW_TYPE } from './wire';

export interface StartOptions {
  screenerId?: string | null;
  /** A transition survey's identity, when the run continues in another survey. */
  oFormIdentity?: string;
  /** The page the participant is on: its origin and path and its campaign parameters are stored with the submission; a view carries its campaign parameters. */
  pageUrl?: string;
}

/** A page document (the containers route, or participant-start's first page): the page and its questions in order. */
export function pageOf({ data, included, meta }: PageDocument): RunnerPage {
  // The questions follow the page's child containers in `included`, in display order.
  // The runner's field type is the attribute's value under a short name (the widget's code reads it often).
  const fields = included.flatMap((r): RunnerField[] =>
    r.type === OFORM_FIELD_TYPE ? [{ id: r.id, ...r.attributes, type: r.attributes.oFormFieldTypeId }] : [],
  );
  // The page's attributes as they come (its title's translations among them): fewer widget bytes than picking some.
  // A page where no answer can end the run carries the page after it (meta.cannotEnd).
  return { id: data.id, ...data.attributes, fields, next: meta && pageOf(meta.nextPage) };
}

/** One page of the survey by query (`type=firstContainerPerForm` or `identity=…`). */
export async function fetchPage(caller: ParticipantCaller, survey: RunnerSurvey, query: string): Promise<RunnerPage> {
  return pageOf(bodyOf(await caller.call(`/o-form-containers?oFormId=${encodeURIComponent(survey.id)}&${query}&include=oFormFields`, 'page')));
}

export interface StartCalls extends Pick<RunnerTransport, 'loadSurvey' | 'firstPage'> {
  /** Counts a view of the channel (the widget seen, showing `identity` in `language`); resolves also when it failed: counting never fails a run. */
  view(identity: string | null, language: string): Promise<void>;
}

export function startCalls(caller: ParticipantCaller, options: StartOptions): StartCalls {
  // participant-start answers the first page too: kept for the firstPage call that follows.
  let started: { identity: string; page: RunnerPage | null } | null = null;
  return {
    async loadSurvey(identity) {
      const q = new URLSearchParams();
      if (options.screenerId) q.set('screenerId', options.screenerId);
      const oFormIdentity = identity || options.oFormIdentity;
      if (oFormIdentity) q.set('oFormIdentity', oFormIdentity);
      const { meta } = bodyOf(await caller.call(`/participant-start?${q}`, 'start'));
      // A channel switched off: the outcome for the participant (with its lead's submission, if any), its problem for the console.
      if (!meta.runnable) throw new OutcomeReached(meta);
      // The rest of the answer as it comes (title, languages, styles…; its channel's ids, unread, too): fewer widget bytes than picking.
      const { oFormId: id, oFormIdentity: runs, firstPage, ...survey } = meta;
      started = { identity: runs, page: firstPage && pageOf(firstPage) };
      return { ...survey, id, identity: runs };
    },

    async view(oFormIdentity, language) {
      const mediaChannelId = caller.channel;
      if (mediaChannelId === null) return;
      const utm = options.pageUrl ? pageAttribution(options.pageUrl).utm : {};
      const attributes: ViewBody = { mediaChannelId, oFormIdentity, language, ...(Object.keys(utm).length ? { utm } : {}) };
      await caller.call('/participant-views', 'view', { data: { type: VIEW_TYPE, attributes } }).catch(() => undefined);
    },

    async firstPage(survey) {
      const cached = started?.identity === survey.identity ? started.page : null;
      started = null;
      return cached ?? fetchPage(caller, survey, 'type=firstContainerPerForm');
    },
  };
}
