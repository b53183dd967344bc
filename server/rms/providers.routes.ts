/**
 * Record-system providers (System Configuration). Everyone signed in reads the list (the
 * engagement form's picker: id, name, kind, isActive); Super Users see each provider's settings
 * and create, change, delete and test them. Secrets are write-only (rms/providers.ts).
 *
 * POST /api/rms-providers/{id}/test sends a synthetic referral marked as a test (`referral.test`,
 * FHIR's HTEST tag) through the provider once and answers its status, how long it took and a
 * classified outcome (testOutcome): never the receiver's body, nor a network error that would
 * tell a closed port from a silent one. It writes no audit row (there is no contact), only an
 * audit-trail event with the outcome.
 */
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import {
  RMS_PROVIDER,
  RMS_PROVIDER_DEFAULT_SORT,
  RMS_PROVIDER_SORTS,
  RMS_PROVIDER_TEST,
  RMS_PROVIDER_TYPE,
  RmsProviderInput,
  RmsProviderPatch,
  type RmsProvider,
  type RmsProviderTest,
} from '@core/model/rmsProvider';
import { nowOf, type AppEnv, type Deps } from '../context';
import { authenticate, hasAnyRole, requireRole } from '../auth/guards';
import { notFound } from '../http/errors';
import { parseId, parseListQuery, type ListSpec } from '../http/query';
import { memberRead } from '../http/memberRead';
import { answerList } from '../http/listAnswer';
import { sendDocument, sendResource, toResource } from '../http/serialize';
import { testReferralFacts } from './payload';
import { providerFor } from './provider';
import { testOutcome } from './attempt';
import {
  createProvider,
  deleteProvider,
  engagementCounts,
  findProvider,
  openSecrets,
  PROVIDER_FILTERS,
  providerPage,
  toRmsProvider,
  updateProvider,
  type RmsProviderRow,
} from './providers';
import { phiOf } from '../security/phi';
import { resourceCreation, resourceUpdate } from '../http/resourceWrites';
import { describe } from '../openapi/describe';

const listSpec: ListSpec<(typeof RMS_PROVIDER_SORTS)[number], typeof PROVIDER_FILTERS> = {
  type: RMS_PROVIDER_TYPE,
  sorts: RMS_PROVIDER_SORTS,
  defaultSort: RMS_PROVIDER_DEFAULT_SORT,
  // A lookup: the engagement form's picker takes the whole list.
  defaultLimit: 1000,
  filters: PROVIDER_FILTERS,
};

function serialize(provider: RmsProvider) {
  const { id, ...attributes } = provider;
  return toResource(RMS_PROVIDER_TYPE, id, attributes);
}

export function rmsProvidersRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  const now = () => nowOf(deps);
  app.use('*', authenticate(deps));

  async function load(idText: string): Promise<RmsProviderRow> {
    const row = await findProvider(db, parseId(idText));
    if (!row) throw notFound('record system');
    return row;
  }

  const full = async (row: RmsProviderRow) => toRmsProvider(row, { full: true, engagementCount: (await engagementCounts(db, [row.id])).get(row.id) ?? 0 });

  app.get('/', describe({ summary: 'List record systems', list: listSpec, answer: { list: RMS_PROVIDER } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, listSpec);
    return answerList(c, q, async (window) => {
      const { rows, total } = await providerPage(db, { ...q, ...window });
      const isSuper = hasAnyRole(c.get('user'), ['Super User']);
      const counts = isSuper
        ? await engagementCounts(
            db,
            rows.map((r) => r.id),
          )
        : new Map<number, number>();
      const data = rows.map((r) => serialize(toRmsProvider(r, { full: isSuper, engagementCount: counts.get(r.id) ?? 0 })));
      return { data, total };
    });
  });

  app.get(
    '/:id',
    describe({ summary: 'Read a record system', read: listSpec, answer: { resource: RMS_PROVIDER } }),
    memberRead(listSpec, 'record system', async (id, _q, user) => {
      const row = await findProvider(db, id);
      if (!row) return null;
      return { data: serialize(hasAnyRole(user, ['Super User']) ? await full(row) : toRmsProvider(row, { full: false })) };
    }),
  );

  const superOnly = requireRole('Super User');

  app.post('/', describe(resourceCreation('Create a record system', RMS_PROVIDER, RmsProviderInput)), superOnly, async (c) => {
    const { attributes } = await c.var.body.read();
    const row = await createProvider(db, phiOf(deps), deps.config.rmsAllowPrivateHosts, attributes, now());
    return sendResource(c, serialize(await full(row)), 201);
  });

  app.patch('/:id', describe(resourceUpdate('Update a record system', RMS_PROVIDER, RmsProviderPatch)), superOnly, async (c) => {
    const current = await load(c.req.param('id'));
    const { attributes } = await c.var.body.read({ id: current.id });
    const row = await updateProvider(db, phiOf(deps), deps.config.rmsAllowPrivateHosts, current, attributes, now());
    return sendResource(c, serialize(await full(row)));
  });

  app.delete('/:id', describe({ summary: 'Delete a record system', answer: { empty: true } }), superOnly, async (c) => {
    const row = await load(c.req.param('id'));
    await deleteProvider(db, row.id);
    return c.body(null, 204);
  });

  app.post(
    '/:id/test',
    describe({ summary: 'Send a test delivery to a record system', answer: { resource: RMS_PROVIDER_TEST, status: 201 } }),
    superOnly,
    async (c) => {
      const row = await load(c.req.param('id'));
      const sentAt = now();
      const referralId = randomUUID();
      const provider = providerFor(row, openSecrets(phiOf(deps), row), deps.config.rmsAllowPrivateHosts);
      const started = performance.now();
      const result = await provider.send(testReferralFacts(referralId, sentAt), 1, sentAt);
      const test: Omit<RmsProviderTest, 'id'> = { ...testOutcome(result), durationMs: Math.round(performance.now() - started) };
      c.set('audit', {
        entity: 'rms-providers',
        entityId: row.id,
        action: 'rms-test',
        meta: { succeeded: result.succeeded, status: result.status, referralId },
      });
      return sendDocument(c, { data: toResource(RMS_PROVIDER_TEST.type, referralId, test) }, 201);
    },
  );

  return app;
}
