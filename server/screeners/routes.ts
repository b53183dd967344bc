/**
 * Screeners (SPEC sections 3, 7): list, read, create, update, delete; clone and clone delete;
 * additional languages; the toggle of a screener's survey link. Everyone signed in reads the
 * screeners of the sponsors they may see; only Admin and Super User change them, and a locked
 * screener refuses every change until it is unlocked.
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import {
  SCREENER,
  SCREENER_DEFAULT_SORT,
  SCREENER_LANGUAGE,
  SCREENER_LANGUAGE_TYPE,
  SCREENER_OUTCOMES,
  SCREENER_SORTS,
  SCREENER_TYPE,
  ScreenerInput,
  ScreenerPatch,
  defaultScreenerStyles,
  emptyScreenerMessage,
  type Screener,
  type ScreenerLanguage,
  type ScreenerStyles,
} from '@core/model/screener';
import { REFRESHED_CLONE_SURVEY, SCREENER_SURVEY, ScreenerSurveyToggle } from '@core/model/screenerSurvey';
import { requiredText } from '@core/model/fields';
import type { AppEnv, Deps } from '../context';
import type { Db } from '../db/open';
import { editableScreenerSurveyLink, readScreenerSurveyLink, toggleScreenerSurveyLink } from './surveyLinks';
import { editableScreener, findScreener, type ScreenerRow } from './access';
import {
  SCREENER_LANGUAGE_FILTERS,
  SCREENER_LIST_FILTERS,
  createScreener,
  deleteScreener,
  loadRelated,
  screenerById,
  screenerLanguagePage,
  screenerPage,
  updateScreener,
  type Related,
} from './screeners';
import { createClone, deleteClone, refreshCloneSurveys } from './clones';
import { STAFF_ADMIN_ROLES, authenticate, requireRole } from '../auth/guards';
import { notFound } from '../http/errors';
import { parseId, parseListQuery, type ListSpec } from '../http/query';
import { rowAtPath } from '../http/pathRow';
import { memberRead } from '../http/memberRead';
import { answerList, answerRows } from '../http/listAnswer';
import { sendResource, toResource, modelResource } from '../http/serialize';
import { sendWholeList } from '../http/wholeList';
import { resourceCreation, resourceUpdate } from '../http/resourceWrites';
import { describe } from '../openapi/describe';

export { NOT_A_CLONE, SCREENER_HAS_MEDIA_CHANNELS, UNKNOWN_SCREENER_SPONSOR } from './screeners';

const listSpec: ListSpec<(typeof SCREENER_SORTS)[number], typeof SCREENER_LIST_FILTERS> = {
  type: SCREENER_TYPE,
  sorts: SCREENER_SORTS,
  defaultSort: SCREENER_DEFAULT_SORT,
  filters: SCREENER_LIST_FILTERS,
  fields: SCREENER.names,
};

function toScreener(row: ScreenerRow, related: Related): Screener {
  const { id, created, modified, styles, ...rest } = row;
  return {
    ...rest,
    id: String(id),
    // Stored styles were validated on the way in; older or empty ones get their defaults.
    styles: { ...defaultScreenerStyles(), ...(styles as Partial<ScreenerStyles>) },
    messages: related.messages.get(id) ?? (Object.fromEntries(SCREENER_OUTCOMES.map((o) => [o, emptyScreenerMessage()])) as Screener['messages']),
    engagements: related.engagements.get(id) ?? [],
    languages: related.languages.get(id) ?? [],
    created: created.toISOString(),
    modified: modified.toISOString(),
  };
}

const serialize = (row: ScreenerRow, related: Related, fields: Set<string> | null = null) => modelResource(SCREENER_TYPE, toScreener(row, related), fields);

export async function sendScreener(c: Parameters<typeof sendResource>[0], db: Db, id: number, status: 200 | 201 = 200) {
  const row = await screenerById(db, id);
  if (!row) throw notFound('screener');
  return sendResource(c, serialize(row, await loadRelated(db, [id])), status);
}

export { ADDITIONAL_LANGUAGE_INVALID } from './screeners';

const CloneInput = v.strictObject({ title: v.optional(requiredText(255)) });

export function screenersRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  const canEdit = requireRole(...STAFF_ADMIN_ROLES);
  app.use('*', authenticate(deps));

  app.get('/', describe({ summary: 'List screeners', list: listSpec, answer: { list: SCREENER } }), async (c) => {
    const user = c.get('user');
    const q = parseListQuery(new URL(c.req.url).searchParams, listSpec);
    return answerList(c, q, async (window) => {
      const { rows, total, related } = await screenerPage(db, user, { ...q, ...window });
      return { data: rows.map((r) => serialize(r, related, q.fields)), total };
    });
  });

  // Before '/:id'. A screener's additional languages; screenerId narrows to one screener.
  const languagesSpec = {
    type: SCREENER_LANGUAGE_TYPE,
    sorts: ['description', 'isoCode'] as const,
    defaultSort: 'description',
    defaultLimit: 1000,
    filters: SCREENER_LANGUAGE_FILTERS,
  };
  app.get('/languages-screeners', describe({ summary: "List a screener's languages", list: languagesSpec, answer: { list: SCREENER_LANGUAGE } }), (c) =>
    answerRows(
      c,
      languagesSpec,
      (q) => screenerLanguagePage(db, c.get('user'), q),
      (r) => toResource(SCREENER_LANGUAGE_TYPE, `${r.screenerId}_${r.languageId}`, r satisfies Omit<ScreenerLanguage, 'id'>),
    ),
  );

  app.get(
    '/:id',
    describe({ summary: 'Read a screener', read: listSpec, answer: { resource: SCREENER } }),
    memberRead(listSpec, 'screener', async (id, q, user) => {
      const row = await findScreener(db, id, user);
      return row ? { data: serialize(row, await loadRelated(db, [row.id]), q.fields) } : null;
    }),
  );

  app.post('/', describe(resourceCreation('Create a screener', SCREENER, ScreenerInput)), canEdit, async (c) => {
    const user = c.get('user');
    const { attributes, relationships } = await c.var.body.read();
    const id = await createScreener(db, user, attributes, relationships);
    return sendScreener(c, db, id, 201);
  });

  app.patch('/:id', describe(resourceUpdate('Update a screener', SCREENER, ScreenerPatch)), canEdit, async (c) => {
    const user = c.get('user');
    const { id, row: existing } = await rowAtPath(c, 'screener', (id) => findScreener(db, id, user));
    const { attributes, relationships } = await c.var.body.read({ id });
    await updateScreener(db, existing, attributes, relationships);
    return sendScreener(c, db, id);
  });

  app.delete('/:id', describe({ summary: 'Delete a screener', answer: { empty: true } }), canEdit, async (c) => {
    const id = parseId(c.req.param('id'));
    const existing = await editableScreener(db, id, c.get('user'));
    await deleteScreener(db, existing);
    return c.body(null, 204);
  });

  // Cloning: POST /api/screeners/{id}/clone (optional attributes.title), answering the copy.
  app.post('/:id/clone', describe(resourceCreation('Clone a screener', SCREENER, CloneInput)), canEdit, async (c) => {
    const user = c.get('user');
    const { row: source } = await rowAtPath(c, 'screener', (id) => findScreener(db, id, user));
    // The body is optional: without one the copy is titled "{title} (Copy)".
    const hasBody = c.req.header('content-type') !== undefined || Number(c.req.header('content-length') ?? 0) > 0;
    const { attributes } = hasBody ? await c.var.body.read() : { attributes: {} as v.InferOutput<typeof CloneInput> };
    const id = await createClone(db, source, attributes.title ?? `${source.title} (Copy)`, user.id);
    return sendScreener(c, db, id, 201);
  });

  app.delete('/clone/:id', describe({ summary: 'Delete a screener clone', answer: { empty: true } }), canEdit, async (c) => {
    const { row: existing } = await rowAtPath(c, 'screener', (id) => findScreener(db, id, c.get('user')));
    await deleteClone(db, existing);
    return c.body(null, 204);
  });

  /**
   * Brings a clone's surveys up to date with its source's: each survey the clone still has
   * gets a new, unapproved version copied from the source survey's approved version (its
   * latest when none is approved). Answers the versions made.
   */
  app.patch(
    '/update-surveys/:id',
    describe({ summary: "Bring a clone's surveys up to date with its source's", answer: { list: REFRESHED_CLONE_SURVEY } }),
    canEdit,
    async (c) => {
      const { row: existing } = await rowAtPath(c, 'screener', (id) => findScreener(db, id, c.get('user')));
      const refreshed = await refreshCloneSurveys(db, existing);
      const data = refreshed.map((r) =>
        toResource(REFRESHED_CLONE_SURVEY.type, r.oFormId, {
          identity: r.oFormIdentity,
          version: r.version,
          title: r.title,
          sourceIdentity: r.sourceIdentity,
          sourceVersionId: r.sourceVersionId,
        }),
      );
      return sendWholeList(c, data);
    },
  );

  // toggle_active of one of a screener's survey links.
  app.patch('/surveys/:id', describe(resourceUpdate("Turn a screener's survey on or off", SCREENER_SURVEY, ScreenerSurveyToggle)), canEdit, async (c) => {
    // The same check as the link's other writes: a link out of reach answers like a missing one.
    const { id } = await editableScreenerSurveyLink(db, parseId(c.req.param('id')), c.get('user'));
    await c.var.body.read({ id });
    const toggled = await toggleScreenerSurveyLink(db, id);
    const answer = toggled !== undefined && (await readScreenerSurveyLink(db, toggled));
    if (!answer) throw notFound('screener survey');
    return sendResource(c, answer);
  });

  return app;
}
