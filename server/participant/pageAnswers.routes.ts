/** /api/o-forms/o-form-container-entries: a submission's page entries (open one, read one with its answers). */
import { participantCall, type ParticipantCall } from './callDescription';
import { EntryAttributes } from '@core/participant/requests';
import { FIELD_ENTRY_TYPE } from '@core/participant/wire';
import type { Deps } from '../context';
import { conflict, invalid, notFound, unauthorized } from '../http/errors';
import { choiceParam, parseParams } from '../http/params';
import { parseId } from '../http/query';
import { sendDocument, sendResource, toResource } from '../http/serialize';
import { assertRunNotEnded, entryForToken, keptSubmissionForToken, rememberPageEntry, MISSING_TOKEN, submissionForToken, tokenOf } from './access';
import { entryResource, unlessEnded, PAGE_NOT_ON_PATH, SUBMISSION_COMPLETED, UNKNOWN_PAGE, type ParticipantApp } from './api';
import { assertChannelOfRequest } from './cors';
import { createChildEntry, createPageEntry } from './entries';
import { activeChildren, loadSurvey } from './runSurvey';
import { mayEnter, participantPath } from './path';
import { pageEntryAnswers } from './pageAnswers';
import { openAnswer } from '../security/sealedAnswer';
import { phiOf } from '../security/phi';
import type { Context } from 'hono';
import type { AppEnv } from '../context';

/** A page entry read back: with its answers included, or not. */
const ENTRY_QUERY = { include: choiceParam(['oFormFieldEntries', 'OFormFieldEntries'], 'oFormFieldEntries: the answers as included resources.') };

export function participantOFormContainerEntriesRoutes(app: ParticipantApp, deps: Deps) {
  const { db } = deps;
  const phi = phiOf(deps);

  /** A page entry of the submission the token opens (a page; or a child container's entry under its page entry). */
  app.post(
    '/o-form-container-entries',
    participantCall({
      summary: 'Participant: open a page of the submission',
      access: 'participant',
      attributes: EntryAttributes,
      answer: 'entry',
      status: 201,
    }),
    async (c) => {
      if (tokenOf(c) === null) throw unauthorized(MISSING_TOKEN.createEntry);
      const input = await c.var.body.read();
      // A page's entry re-checks the run's status as it is made; a child's entry (rare) reads it afresh.
      const { submission, form, region } =
        input.parentId === null
          ? await keptSubmissionForToken(db, c, input.oFormSubmissionId, MISSING_TOKEN.createEntry)
          : await submissionForToken(db, c, input.oFormSubmissionId, MISSING_TOKEN.createEntry);
      assertChannelOfRequest(c, deps, submission.mediaChannelId);
      if (submission.status === 'completed') throw notFound('submission');
      const survey = await loadSurvey(db, form);
      const container = survey.containers.find((x) => x.id === input.oFormContainerId && x.isActive);
      if (!container) throw invalid([{ pointer: '/data/attributes/oFormContainerId', detail: UNKNOWN_PAGE }]);
      if (input.parentId === null) {
        if (container.parentId !== null)
          throw invalid([{ pointer: '/data/attributes/parentId', detail: 'A child container needs the entry of its page as parentId.' }]);
        if (!survey.pages.some((p) => p.id === container.id)) throw invalid([{ pointer: '/data/attributes/oFormContainerId', detail: UNKNOWN_PAGE }]);
        // Beyond the first page, only where the stored answers lead (or back along that path).
        if (survey.pages[0]?.id !== container.id && !mayEnter(survey, await participantPath(db, survey, submission.id, phi), container.id)) {
          throw await unlessEnded(db, submission.id, 'submission', conflict(PAGE_NOT_ON_PATH));
        }
        const made = await createPageEntry(db, submission.id, container.id, activeChildren(survey, container.id));
        // Completed since this process last read it: nothing was made.
        if (!made) throw await unlessEnded(db, submission.id, 'submission', conflict(SUBMISSION_COMPLETED));
        const { entry, children } = made;
        rememberPageEntry(db, entry.id, {
          submission,
          form,
          region,
          page: { id: entry.id, containerId: container.id, children: children.map((ch) => ({ id: ch.id, containerId: ch.containerId })) },
        });
        return sendResource(c, entryResource(entry, container.identity, children), 201);
      }
      const made = await createChildEntry(db, submission.id, container, input.parentId);
      if (made.status === 'notUnderPage') {
        throw invalid([{ pointer: '/data/attributes/parentId', detail: "Choose the entry of this container's page in this submission." }]);
      }
      if (made.status === 'closed') throw await unlessEnded(db, submission.id, 'submission', conflict(SUBMISSION_COMPLETED));
      return sendResource(c, entryResource(made.entry, container.identity), 201);
    },
  );

  /** A page entry with its answers (include=oFormFieldEntries); meta.answers maps field identity to value. */
  // The widget POSTs (the token in the body: no preflight for a resume); GET with the header answers the same.
  const readDoc = {
    summary: 'Participant: read a page of the submission with its answers',
    access: 'participant',
    query: ENTRY_QUERY,
    answer: 'entryAnswers',
  } satisfies ParticipantCall;
  const entryWithAnswers = async (c: Context<AppEnv>) => {
    if (tokenOf(c) === null) throw unauthorized(MISSING_TOKEN.read);
    const { include } = parseParams(ENTRY_QUERY, (name) => c.req.query(name));
    const { entry, submission, form } = await entryForToken(db, c, parseId(c.req.param('id')));
    assertRunNotEnded(submission, 'page entry');
    assertChannelOfRequest(c, deps, submission.mediaChannelId);
    const survey = await loadSurvey(db, form);
    const { children, answers } = await pageEntryAnswers(db, entry.id);
    const identityOf = new Map(survey.fields.map((f) => [f.id, f.identity]));
    const given = new Map(answers.map((a) => [a.id, openAnswer(phi, { value: a.fieldValue, sealed: a.sealedValue })]));
    const containerIdentity = survey.containers.find((x) => x.id === entry.containerId)?.identity ?? null;
    const included = include
      ? answers.map((a) =>
          toResource(FIELD_ENTRY_TYPE, a.id, {
            fieldValue: given.get(a.id),
            oFormFieldId: a.fieldId,
            oFormFieldIdentity: identityOf.get(a.fieldId) ?? null,
            containerEntryId: a.containerEntryId,
          }),
        )
      : [];
    const data = entryResource(entry, containerIdentity, children);
    data.relationships = { ...data.relationships, oFormFieldEntries: { data: answers.map((a) => ({ type: FIELD_ENTRY_TYPE, id: String(a.id) })) } };
    const meta = { answers: Object.fromEntries(answers.flatMap((a) => (identityOf.has(a.fieldId) ? [[identityOf.get(a.fieldId)!, given.get(a.id)]] : []))) };
    return sendDocument(c, included.length ? { data, included, meta } : { data, meta });
  };
  app.post('/o-form-container-entries/:id', participantCall(readDoc), entryWithAnswers);
  app.get('/o-form-container-entries/:id', participantCall(readDoc), entryWithAnswers);
}
