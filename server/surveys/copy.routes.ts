/**
 * POST /api/o-forms/o-form-copy (SPEC section 4): the next version of a survey identity, a deep
 * copy of its latest version (server/surveys/copy.ts) — same identities, new ids, unapproved.
 * Scope: only a survey of the user's sponsors' engagements can be copied.
 */
import type { Hono } from 'hono';
import { OFORM, OFORM_COPY_TYPE, VersionCopyInput } from '@core/model/surveyDoc';
import type { AppEnv } from '../context';
import type { Db } from '../db/open';
import { copyLatestVersion } from './copy';
import { sendForm } from './serialize';
import { describe } from '../openapi/describe';

export function oFormCopyRoutes(app: Hono<AppEnv>, db: Db) {
  /** The next version of an identity: a deep copy of its latest, same identities, new ids. */
  app.post(
    '/o-form-copy',
    describe({
      summary: 'Copy a survey version (new version or new survey)',
      body: { resource: OFORM_COPY_TYPE, attributes: VersionCopyInput },
      answer: { resource: OFORM, status: 201 },
    }),
    async (c) => {
      const user = c.get('user');
      const { attributes } = await c.var.body.read();
      const id = await copyLatestVersion(db, attributes.copy_identity, user);
      return sendForm(c, db, id, user, 201);
    },
  );
}
