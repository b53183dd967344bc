/**
 * The referrals resource: the work queue (GET /api/referrals), one referral with its timeline,
 * moving it up the status ladder (PATCH), contact attempts, the engagement's referral counts
 * (SPEC section 7), and the reasons staff keep for closing referrals (/api/referral-reasons).
 * Every route sees only the referrals of the caller's scope (scope.ts), and answers 404 outside it.
 */
import { Hono, type Context } from 'hono';
import { and } from 'drizzle-orm';
import {
  CONTACT_ATTEMPT_TYPE,
  ContactAttemptInput,
  REFERRAL_CONTACT,
  REFERRAL_CONTACT_TYPE,
  REFERRAL_COUNTS_TYPE,
  REFERRAL_EVENT,
  REFERRAL_EVENT_TYPE,
  REFERRAL_REASON,
  REFERRAL_REASON_TYPE,
  REASONED_REFERRAL_STATUSES,
  REFERRAL,
  REFERRAL_COUNTS,
  REFERRAL_TYPE,
  ReferralPatch,
  ReferralReasonInput,
  ReferralReasonPatch,
} from '@core/model/referral';
import { nowOf, type AppEnv, type AuditNote, type AuthUser, type Deps } from '../context';
import type { Db } from '../db/open';
import { STAFF_ADMIN_ROLES, authenticate, requireRole } from '../auth/guards';
import { findAccessibleEngagement } from '../engagements';
import { invalid, notFound } from '../http/errors';
import { parseId, parseListQuery, type ListSpec } from '../http/query';
import { memberRead } from '../http/memberRead';
import { answerList, answerRows } from '../http/listAnswer';
import { choiceParam } from '../http/params';
import { modelResource, sendResource, toResource } from '../http/serialize';
import { resourceCreation, resourceUpdate } from '../http/resourceWrites';
import { answerWholeList, wholeListRead } from '../http/wholeList';
import { describe } from '../openapi/describe';
import { phiOf, type PhiCipher } from '../security/phi';
import { logAttempt } from './attempts';
import { referralCounts } from './counts';
import { ReferralRefused } from './errors';
import { moveReferral, type ReferralActor } from './ladder';
import {
  REFERRAL_FILTERS,
  REFERRAL_SORTS,
  contactValuesOf,
  findReferral,
  referralConditions,
  referralPage,
  type ReferralFilter,
  type ReferralSort,
} from './queue';
import { addReason, listReasons, updateReason } from './reasons';
import { referralScope } from './scope';
import { referralTimeline } from './timeline';

const listSpec: ListSpec<ReferralSort, ReferralFilter> = {
  type: REFERRAL_TYPE,
  sorts: REFERRAL_SORTS,
  defaultSort: 'due',
  filters: REFERRAL_FILTERS,
  fields: REFERRAL.names,
};

/** A refusal of the ladder as a 422 naming the attribute, or the document when the body has no such attribute. */
function refusal(error: unknown, bodyAttributes: readonly string[]): never {
  if (!(error instanceof ReferralRefused)) throw error;
  const pointer = bodyAttributes.includes(error.attribute) ? `/data/attributes/${error.attribute}` : '/data';
  throw invalid([{ pointer, detail: error.message }]);
}

const actorOf = (user: AuthUser): ReferralActor => ({ userId: user.id, name: user.username });

/** A step on the ladder, with the body's attributes its refusals may name, and what the trail keeps of it. */
interface Step<A, R> {
  readonly take: (db: Db, phi: PhiCipher, id: number, attributes: A, actor: ReferralActor, now: Date) => Promise<R | null>;
  readonly refusedAt: readonly string[];
  readonly audit: (taken: R) => Pick<AuditNote, 'action' | 'meta'>;
  /** 201 where the step is a new record (a logged attempt). */
  readonly status?: 201;
}

export function referralsRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.get(
    '/counts/:id',
    describe({ summary: 'Referral counts of an engagement', answer: { resource: REFERRAL_COUNTS } }),
    memberRead(null, 'engagement', async (id, _q, user) => {
      const engagement = await findAccessibleEngagement(db, id, user);
      return engagement ? { data: toResource(REFERRAL_COUNTS_TYPE, engagement.id, await referralCounts(db, engagement.id)) } : null;
    }),
  );

  app.get('/', describe({ summary: 'List referrals (the work queue)', list: listSpec, answer: { list: REFERRAL } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, listSpec);
    const now = nowOf(deps);
    const where = and(referralScope(c.get('user')), ...referralConditions(q.filters, now));
    return answerList(c, q, async (window) => {
      const page = await referralPage(db, phiOf(deps), now, { ...q, ...window }, where);
      return { data: page.referrals.map((referral) => modelResource(REFERRAL_TYPE, referral, q.fields)), total: page.total };
    });
  });

  const visible = async (user: AuthUser, rawId: string | undefined) => {
    const id = parseId(rawId);
    const found = id === null ? undefined : await findReferral(db, phiOf(deps), nowOf(deps), id, referralScope(user));
    if (!found) throw notFound('referral');
    return found;
  };

  app.get(
    '/:id',
    describe({ summary: 'Read a referral', read: listSpec, answer: { resource: REFERRAL } }),
    memberRead(listSpec, 'referral', async (id, q, user) => {
      const found = await findReferral(db, phiOf(deps), nowOf(deps), id, referralScope(user));
      return found ? { data: modelResource(REFERRAL_TYPE, found, q.fields) } : null;
    }),
  );

  app.get('/:id/timeline', describe(wholeListRead("A referral's timeline", REFERRAL_EVENT)), (c) =>
    answerWholeList(c, async () => {
      const referral = await visible(c.get('user'), c.req.param('id'));
      const entries = await referralTimeline(db, phiOf(deps), referral);
      return entries.map((entry) => modelResource(REFERRAL_EVENT_TYPE, entry));
    }),
  );

  /**
   * A step on the referral at the path (moved up its ladder, a contact attempt logged), taken as
   * the body asks: the ladder's refusal answered at the body's attribute it names, the step
   * recorded in the trail as what `audit` keeps of it (the step, never the note: a participant's
   * words may be in it), and the referral answered as it then stands.
   */
  const takeStep = async <E extends AppEnv, A, R>(c: Context<E>, referral: { id: string }, attributes: A, step: Step<A, R>) => {
    const user = c.get('user');
    const referralId = Number(referral.id);
    const taken = await step.take(db, phiOf(deps), referralId, attributes, actorOf(user), nowOf(deps)).catch((e: unknown) => refusal(e, step.refusedAt));
    if (!taken) throw notFound('referral');
    c.set('audit', { entity: 'referrals', entityId: referralId, ...step.audit(taken) });
    return sendResource(c, modelResource(REFERRAL_TYPE, await visible(user, referral.id)), step.status ?? 200);
  };

  app.patch('/:id', describe(resourceUpdate('Move a referral on its status ladder', REFERRAL, ReferralPatch)), async (c) => {
    const referral = await visible(c.get('user'), c.req.param('id'));
    const { attributes } = await c.var.body.read({ id: Number(referral.id) });
    return takeStep(c, referral, attributes, {
      take: moveReferral,
      refusedAt: ['status', 'reasonId'],
      audit: (moved) => ({ action: 'status', meta: { from: moved.from, to: moved.to, reasonId: attributes.reasonId ?? null } }),
    });
  });

  app.post('/:id/reveal', describe({ summary: "Reveal a referral's contact values (audited)", answer: { resource: REFERRAL_CONTACT } }), async (c) => {
    const referral = await visible(c.get('user'), c.req.param('id'));
    const values = await contactValuesOf(db, phiOf(deps), Number(referral.id));
    if (!values) throw notFound('contact');
    // Who looked, and at whose contact: never the values themselves.
    c.set('audit', { entity: 'referrals', entityId: Number(referral.id), action: 'reveal-contact' });
    return sendResource(c, toResource(REFERRAL_CONTACT_TYPE, referral.id, { values }));
  });

  app.post(
    '/:id/contact-attempts',
    describe({
      summary: 'Log a contact attempt on a referral',
      body: { resource: CONTACT_ATTEMPT_TYPE, attributes: ContactAttemptInput },
      answer: { resource: REFERRAL, status: 201 },
    }),
    async (c) => {
      const referral = await visible(c.get('user'), c.req.param('id'));
      const { attributes } = await c.var.body.read();
      return takeStep(c, referral, attributes, {
        take: logAttempt,
        refusedAt: ['attemptedAt', 'nextAttemptDue'],
        audit: () => ({ action: 'contact-attempt', meta: { channel: attributes.channel, result: attributes.result } }),
        status: 201,
      });
    },
  );

  return app;
}

const REASON_FILTERS = { status: choiceParam(REASONED_REFERRAL_STATUSES) };
const reasonSpec: ListSpec<'name', typeof REASON_FILTERS> = {
  type: REFERRAL_REASON_TYPE,
  sorts: ['name'],
  defaultSort: 'name',
  filters: REASON_FILTERS,
  defaultLimit: 100,
};

/** GET /api/referral-reasons for all staff; POST and PATCH for Admin and Super User. */
export function referralReasonsRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));
  const canChange = requireRole(...STAFF_ADMIN_ROLES);

  app.get('/', describe({ summary: 'List the reasons for closing referrals', list: reasonSpec, answer: { list: REFERRAL_REASON } }), (c) =>
    answerRows(
      c,
      reasonSpec,
      (q) => listReasons(db, q, q.filters.status),
      (reason) => modelResource(REFERRAL_REASON_TYPE, reason),
    ),
  );

  app.post('/', describe(resourceCreation('Add a reason for closing referrals', REFERRAL_REASON, ReferralReasonInput)), canChange, async (c) => {
    const { attributes } = await c.var.body.read();
    const added = await addReason(db, attributes).catch((e: unknown) => refusal(e, ['name']));
    return sendResource(c, modelResource(REFERRAL_REASON_TYPE, added), 201);
  });

  app.patch('/:id', describe(resourceUpdate('Change a reason for closing referrals', REFERRAL_REASON, ReferralReasonPatch)), canChange, async (c) => {
    const reasonId = parseId(c.req.param('id'));
    const { attributes } = await c.var.body.read(reasonId === null ? {} : { id: reasonId });
    const updated = reasonId === null ? undefined : await updateReason(db, reasonId, attributes).catch((e: unknown) => refusal(e, ['name']));
    if (!updated) throw notFound('referral reason');
    return sendResource(c, modelResource(REFERRAL_REASON_TYPE, updated));
  });

  return app;
}
