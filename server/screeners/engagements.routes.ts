/**
 * The engagements a screener serves (POST /api/engagements-screeners/update/{screenerId}),
 * replaced as a whole (domain/screenerEngagements.ts). Needs Admin or Super User and an unlocked screener.
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { SCREENER_ENGAGEMENT, SCREENER_ENGAGEMENT_TYPE } from '@core/model/screener';
import { idNumber } from '@core/model/fields';
import type { AppEnv, Deps } from '../context';
import { STAFF_ADMIN_ROLES, authenticate, requireRole } from '../auth/guards';
import { parseId } from '../http/query';
import { setReplacement } from '../http/resourceWrites';
import { toResource } from '../http/serialize';
import { sendWholeList } from '../http/wholeList';
import { setScreenerEngagements } from './engagements';
import { editableScreener } from './access';
import { describe } from '../openapi/describe';

const EngagementsUpdate = v.strictObject({
  engagementIds: v.pipe(v.array(idNumber()), v.maxLength(1000, 'At most 1000 engagements.')),
});

export function engagementsScreenersRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps), requireRole(...STAFF_ADMIN_ROLES));

  /** Replaces the engagements a screener serves: `{data: {type, attributes: {engagementIds}}}`. */
  app.post('/update/:screenerId', describe(setReplacement("Set a screener's engagements", SCREENER_ENGAGEMENT, EngagementsUpdate)), async (c) => {
    const screener = await editableScreener(db, parseId(c.req.param('screenerId')), c.get('user'));
    const { attributes } = await c.var.body.read();
    const rows = await setScreenerEngagements(db, screener, attributes.engagementIds);
    return sendWholeList(
      c,
      rows.map((r) =>
        toResource(SCREENER_ENGAGEMENT_TYPE, `${screener.id}_${r.engagementId}`, {
          screenerId: screener.id,
          engagementId: r.engagementId,
          engagementName: r.name,
        }),
      ),
    );
  });

  return app;
}
