/**
 * /api/o-forms/o-form-versions/{id} (SPEC section 4): a survey version's approval state.
 * Approving (server/surveys/approval.ts) happens once; the identity's previously approved version
 * stops being the approved one. Scope: the surveys' (another sponsor's version answers 404).
 */
import type { Hono } from 'hono';
import type * as v from 'valibot';
import { OFORM_VERSION, OFORM_VERSION_TYPE, VersionApprovalPatch } from '@core/model/surveyDoc';
import type { AppEnv } from '../context';
import type { Db } from '../db/open';
import { approveVersion } from './approval';
import { findForm, type FormRow } from './versions';
import { memberRead } from '../http/memberRead';
import { rowMember, updateAtPath } from '../http/memberWrites';
import { toResource } from '../http/serialize';
import { resourceUpdate } from '../http/resourceWrites';
import { describe } from '../openapi/describe';

const versionResource = (row: Pick<FormRow, 'id' | 'identity' | 'version' | 'isApproved' | 'approvedAt'>) =>
  toResource(OFORM_VERSION_TYPE, row.id, {
    identity: row.identity,
    version: row.version,
    isApproved: row.isApproved,
    approvedAt: row.approvedAt?.toISOString() ?? null,
  });

export function oFormVersionsRoutes(app: Hono<AppEnv>, db: Db) {
  const version = rowMember('survey version', (id, user) => findForm(db, id, user), versionResource);

  /** A version's approval state (what PATCH changes; the audit trail reads it as the old values). */
  app.get(
    '/o-form-versions/:id',
    describe({ summary: "Read a survey version's approval state", answer: { resource: OFORM_VERSION } }),
    memberRead(null, version.what, version.read),
  );

  /** Approves a version once; the identity's previously approved version stops being the approved one. */
  app.patch(
    '/o-form-versions/:id',
    describe(resourceUpdate('Update a survey version (approve, rename)', OFORM_VERSION, VersionApprovalPatch)),
    updateAtPath(version, (existing, _attributes: v.InferOutput<typeof VersionApprovalPatch>, user) =>
      approveVersion(db, { id: existing.id, identity: existing.identity }, user.id),
    ),
  );
}
