/**
 * The participant's steps after qualification over ky (docs/participant-api.md, "After
 * qualification"): trial sites near a ZIP code, the screener's contact fields, and the contact
 * with the consent. It is core/oform/runner.ts's `ContactTransport`, riding on the participant
 * API's client and access (the submission token header and the channel query):
 *
 *   const api = createParticipantApi(options);
 *   const transport = { ...api, ...participantContactApi(api) };
 *
 * A 422 becomes `{ ok: false, errors }` keyed as the runner shows them: `zip`, a contact field's
 * name, `acceptTerms` (or `engagementSiteLocationId` for a site that is no longer offered).
 */
import type { ErrorObject, Resource } from '../jsonapi';
import type { ContactValue, ContactTransport, Outcome, OutcomeMessages, RunnerContactField, TrialSite } from '../oform/runner';
import { ApiError } from './client';
import type { ParticipantApi } from './participant';

type Access = Pick<ParticipantApi, 'client' | 'withAccess'>;

/** A problem's key: the query parameter, else the last segment of its pointer. */
export function contactErrorKey(error: ErrorObject): string | null {
  if (error.source?.parameter) return error.source.parameter;
  const last = error.source?.pointer?.split('/').pop();
  return last ? last : null;
}

function problems(errors: readonly ErrorObject[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of errors) {
    const key = contactErrorKey(e);
    if (key && !(key in out)) out[key] = e.detail ?? e.title ?? '';
  }
  return out;
}

/** Runs `send`; a 422 answers its problems instead of failing. */
async function orProblems<T>(send: () => Promise<T>): Promise<T | { ok: false; errors: Record<string, string> }> {
  try {
    return await send();
  } catch (error) {
    if (error instanceof ApiError && error.status === 422) return { ok: false, errors: problems(error.errors) };
    throw error;
  }
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export function toTrialSite(resource: Resource): TrialSite {
  const a = resource.attributes ?? {};
  return {
    id: resource.id,
    name: String(a.name ?? ''),
    address1: text(a.address1),
    city: text(a.city),
    state: text(a.state),
    zipCode: text(a.zipCode),
    distanceMiles: Number(a.distanceMiles ?? 0),
    engagementId: a.engagementId === undefined || a.engagementId === null ? undefined : String(a.engagementId),
  };
}

const CONTACT_FIELD_KINDS: readonly RunnerContactField['type'][] = ['text', 'email', 'phone', 'zip', 'date', 'checkbox'];

export function toRunnerContactField(resource: Resource): RunnerContactField {
  const a = resource.attributes ?? {};
  const type = CONTACT_FIELD_KINDS.find((k) => k === a.type) ?? 'text';
  return {
    id: resource.id,
    name: String(a.name ?? ''),
    label: String(a.label ?? ''),
    type,
    required: a.required === true,
    translations: (a.translations ?? {}) as Record<string, string>,
  };
}

export function participantContactApi(api: Access): ContactTransport {
  const path = (route: string, submissionId: string) => `o-forms/${route}/${encodeURIComponent(submissionId)}`;

  return {
    sites: (submissionId, zip) =>
      orProblems(async () => {
        const doc = await api.client.call((http) =>
          http
            .get(path('o-form-submission-sites', submissionId), api.withAccess({ searchParams: { zip } }))
            .json<{ data: Resource[]; meta: { outcome: Outcome; messages?: OutcomeMessages } }>(),
        );
        return { ok: true as const, outcome: doc.meta.outcome, sites: doc.data.map(toTrialSite), messages: doc.meta.messages ?? {} };
      }),

    async contactFields(submissionId) {
      const doc = await api.client.call((http) =>
        http
          .get(path('o-form-submission-contact-fields', submissionId), api.withAccess())
          .json<{ data: Resource[]; meta?: { messages?: OutcomeMessages } }>(),
      );
      return { fields: doc.data.map(toRunnerContactField), messages: doc.meta?.messages ?? {} };
    },

    submitContact: (submissionId, contact: { engagementSiteLocationId: string; values: Record<string, ContactValue>; acceptTerms: boolean }) =>
      orProblems(async () => {
        const doc = await api.client.call((http) =>
          http
            .post(
              path('o-form-submission-contact', submissionId),
              api.withAccess({ json: { data: { type: 'o-form-submission-contacts', attributes: contact } } }),
            )
            .json<{ meta: { outcome: 'completed'; messages?: OutcomeMessages } }>(),
        );
        return { ok: true as const, outcome: 'completed' as const, messages: doc.meta.messages ?? {} };
      }),
  };
}
