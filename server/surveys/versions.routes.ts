/**
 * /api/o-forms/o-form-versions/{id} (SPEC section 4): a survey version's approval state.
 * Approving (server/surveys/approval.ts) happens once; the identity's previously approved version
 * stops being the approved one. Scope: the surveys' (another sponsor's version answers 404).
 */
import type { Hono } from 'hono';
import { OFORM_VERSION, OFORM_VERSION_TYPE, VersionApprovalPatch } from '@core/model/surveyDoc';
import type { AppEnv } from '../context';
import type { Db } from '../db/open';
import { approveVersion } from './approval';
import { findForm, type FormRow } from './versions';
import { notFound } from '../http/errors';
import { rowAtPath } from '../http/pathRow';
import { memberRead, rowReader } from '../http/memberRead';
import { sendResource, toResource } from '../http/serialize';
import { describe } from '../openapi/describe';

const versionResource = (row: Pick<FormRow, 'id' | 'identity' | 'version' | 'isApproved' | 'approvedAt'>) =>
  toResource(OFORM_VERSION_TYPE, row.id, {
    identity: row.identity,
    version: row.version,
    isApproved: row.isApproved,
    approvedAt: row.approvedAt?.toISOString() ?? null,
  });

export function oFormVersionsRoutes(app: Hono<AppEnv>, db: Db) {
  /** A version's approval state (what PATCH changes; the audit trail reads it as the old values). */
  app.get(
    '/o-form-versions/:id',
    describe({ summary: "Read a survey version's approval state", answer: { resource: OFORM_VERSION } }),
    memberRead(
      null,
      'survey version',
      rowReader((id, user) => findForm(db, id, user), versionResource),
    ),
  );

  /** Approves a version once; the identity's previously approved version stops being the approved one. */
  app.patch(
    '/o-form-versions/:id',
    describe({
      summary: 'Update a survey version (approve, rename)',
      body: { resource: OFORM_VERSION_TYPE, attributes: VersionApprovalPatch },
      answer: { resource: OFORM_VERSION },
    }),
    async (c) => {
      const user = c.get('user');
      const { id, row: existing } = await rowAtPath(c, 'survey version', (id) => findForm(db, id, user));
      await c.var.body.read({ id });
      await approveVersion(db, { id, identity: existing.identity }, user.id);
      const row = await findForm(db, id, user);
      if (!row) throw notFound('survey version');
      return sendResource(c, versionResource(row));
    },
  );
}
