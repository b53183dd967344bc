/**
 * A screener's contact fields with their weights (/api/contact-fields-screeners): read in the
 * screener's sponsor scope; replaced as a whole (domain/screenerContactFields.ts) by Admin or
 * Super User while the screener is unlocked.
 */
import { Hono } from 'hono';
import {
  CONTACT_FIELD_SCREENER,
  CONTACT_FIELD_SCREENER_DEFAULT_SORT,
  CONTACT_FIELD_SCREENER_LIMIT,
  CONTACT_FIELD_SCREENER_SORTS,
  CONTACT_FIELD_SCREENER_TYPE,
  ContactFieldScreenersUpdate,
} from '@core/model/contactFieldScreener';
import type { AppEnv, Deps } from '../context';
import { STAFF_ADMIN_ROLES, authenticate, requireRole } from '../auth/guards';
import { idParam } from '../http/params';
import { parseId } from '../http/query';
import { answerRows } from '../http/listAnswer';
import { setReplacement } from '../http/resourceWrites';
import { toResource } from '../http/serialize';
import { sendWholeList } from '../http/wholeList';
import { contactFieldLinkPage, setScreenerContactFields } from './contactFields';
import { editableScreener } from './access';
import { describe } from '../openapi/describe';

const contactFieldScreenerResource = ({ id, ...attributes }: { id: number } & Record<string, unknown>) =>
  toResource(CONTACT_FIELD_SCREENER_TYPE, id, attributes);

export function contactFieldsScreenersRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  const listSpec = {
    type: CONTACT_FIELD_SCREENER_TYPE,
    sorts: CONTACT_FIELD_SCREENER_SORTS,
    defaultSort: CONTACT_FIELD_SCREENER_DEFAULT_SORT,
    defaultLimit: CONTACT_FIELD_SCREENER_LIMIT,
    filters: { screenerId: idParam('screener') },
  };
  app.get('/', describe({ summary: "List a screener's contact fields", list: listSpec, answer: { list: CONTACT_FIELD_SCREENER } }), (c) =>
    answerRows(c, listSpec, (q) => contactFieldLinkPage(db, c.get('user'), q.filters.screenerId, q), contactFieldScreenerResource),
  );

  /** Replaces a screener's contact fields and their weights in one transaction. */
  app.post(
    '/update/:screenerId',
    describe(setReplacement("Set a screener's contact fields", CONTACT_FIELD_SCREENER, ContactFieldScreenersUpdate)),
    requireRole(...STAFF_ADMIN_ROLES),
    async (c) => {
      const screener = await editableScreener(db, parseId(c.req.param('screenerId')), c.get('user'));
      const { attributes } = await c.var.body.read();
      const rows = await setScreenerContactFields(db, screener.id, attributes.contactFieldScreeners);
      return sendWholeList(c, rows.map(contactFieldScreenerResource));
    },
  );

  return app;
}
