/**
 * Sites from ClinicalTrials.gov (README "Sites from ClinicalTrials.gov"):
 * POST /api/clinicaltrials-gov/preview/{engagementId} and /import/{engagementId}, each with
 * `data.attributes` naming an `nctId` (fetched from CTGOV_API_URL) or carrying the study record
 * itself as `study` (uploaded JSON). The preview lists new, changed and closed sites and writes
 * nothing; the import applies the same plan in one transaction. Admin and Super User (it creates
 * site locations, like the site upload).
 */
import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import { CtgovPlanDocument, type CtgovPlan } from '@core/model/clinicalTrialsGov';
import type { AppEnv, Deps } from '../context';
import { STAFF_ADMIN_ROLES, authenticate, requireRole } from '../auth/guards';
import { findAccessibleEngagement } from '../engagements';
import { ApiProblem, conflict, invalid, notFound } from '../http/errors';
import { parseId } from '../http/query';
import { sendDocument } from '../http/serialize';
import { pgErrorCode } from '../http/sql';
import { describe, type BodyEnv } from '../openapi/describe';
import { matchLeadsToSites } from '../leads';
import { fetchStudy, StudyUnavailable } from './fetch';
import { NCT_ID_AS_TYPED, readStudy, StudyRefused } from './study';
import { applySync, planSync, type SyncPlan } from './sync';

export const CTGOV_IMPORT_TYPE = 'clinicaltrials-gov-imports';
export const ONE_SOURCE = 'Give either an NCT number (nctId) or the study record (study), not both.';
export const IMPORT_RACE = 'Another import created some of these site locations at the same time. Import again.';

/** What a preview or an import reads: a study by its NCT number, or the study record itself. */
const ImportDocument = v.object({
  data: v.object({
    type: v.optional(v.literal(CTGOV_IMPORT_TYPE)),
    attributes: v.strictObject({
      nctId: v.optional(v.pipe(v.string('Must be text.'), v.regex(NCT_ID_AS_TYPED, 'Must be an NCT number such as NCT06388018.'), v.trim(), v.toUpperCase())),
      study: v.optional(v.unknown()),
    }),
  }),
});

/** The preview and the import: the same document read, the same plan answered. */
const PLAN_CALL = { body: { json: ImportDocument }, answer: { document: CtgovPlanDocument } } as const;

const planMeta = (plan: SyncPlan): CtgovPlan => ({
  nctId: plan.nctId,
  title: plan.title,
  new: plan.new,
  changed: plan.changed,
  closed: plan.closed,
  unchanged: plan.unchanged,
});

export function clinicalTrialsGovRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));
  app.use('*', requireRole(...STAFF_ADMIN_ROLES));

  /** The plan for the request's study and engagement, or the error that says what is wrong. */
  async function planOf(c: Context<AppEnv & BodyEnv<(typeof PLAN_CALL)['body']>>) {
    const engagement = await findAccessibleEngagement(db, parseId(c.req.param('engagementId') ?? ''), c.get('user'));
    if (!engagement) throw notFound('engagement');
    const parsed = await c.var.body.read();
    if (!parsed.success) {
      throw invalid(parsed.issues.map((i) => ({ pointer: `/${(v.getDotPath(i) ?? 'data').split('.').join('/')}`, detail: i.message })));
    }
    const { nctId, study } = parsed.output.data.attributes;
    if ((nctId === undefined) === (study === undefined)) throw invalid([{ pointer: '/data/attributes', detail: ONE_SOURCE }]);
    const base = study !== undefined ? '/data/attributes/study' : null;
    let record: unknown = study;
    if (nctId !== undefined) {
      try {
        record = await fetchStudy(deps.config.ctgovApiUrl, nctId);
      } catch (error) {
        if (!(error instanceof StudyUnavailable)) throw error;
        if (error.notFound) throw invalid([{ pointer: '/data/attributes/nctId', detail: error.message }]);
        throw new ApiProblem(502, [{ status: '502', title: 'Bad Gateway', detail: error.message }]);
      }
    }
    try {
      const read = readStudy(record);
      if (nctId !== undefined && read.nctId !== nctId)
        throw new StudyRefused([{ path: '/protocolSection/identificationModule/nctId', detail: `The record is ${read.nctId}, not ${nctId}.` }]);
      return { engagement, plan: await planSync(db, engagement.id, read) };
    } catch (error) {
      if (!(error instanceof StudyRefused)) throw error;
      // Named by record and field: a pointer into the uploaded study, or into the fetched one by meta.
      throw new ApiProblem(
        422,
        error.issues.slice(0, 50).map((i) => ({
          status: '422',
          title: 'Invalid Study Record',
          detail: i.detail,
          source: base ? { pointer: `${base}${i.path}` } : { parameter: 'nctId' },
          meta: { path: i.path },
        })),
      );
    }
  }

  app.post(
    '/preview/:engagementId',
    describe({ summary: "Preview an engagement's sites from a ClinicalTrials.gov study (writes nothing)", ...PLAN_CALL }),
    async (c) => {
      const { plan } = await planOf(c);
      return sendDocument(c, { meta: planMeta(plan) });
    },
  );

  app.post('/import/:engagementId', describe({ summary: "Import an engagement's sites from a ClinicalTrials.gov study", ...PLAN_CALL }), async (c) => {
    const { engagement, plan } = await planOf(c);
    const applied = await applySync(db, engagement.id, plan).catch((error: unknown) => {
      if (pgErrorCode(error).code === '23505') throw conflict(IMPORT_RACE);
      throw error;
    });
    c.set('audit', {
      entity: 'clinicaltrials-gov/import',
      entityId: engagement.id,
      action: 'import',
      meta: { nctId: plan.nctId, new: plan.new.length, changed: plan.changed.length, closed: plan.closed.length, siteLocationIds: applied.siteLocationIds },
    });
    // Sites now offered: the engagement's noTrialSites leads within reach are matched to them.
    await matchLeadsToSites(deps, [engagement.id]);
    return sendDocument(c, { meta: planMeta(plan) });
  });

  return app;
}
