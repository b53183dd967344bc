import { Hono } from 'hono';
import type { User } from '../../core/model/user';
import type { AppEnv, Deps } from '../context';
import { authenticate } from '../auth/guards';
import { loadUser } from '../auth/users';
import { unauthorized } from '../http/errors';
import { sendResource, toResource } from '../http/serialize';

export const USER_TYPE = 'users';

/** A user as a JSON:API resource with its roles and sponsors included. */
export function userDocument(user: User) {
  const { roles, sponsors, id, ...attributes } = user;
  const data = toResource(USER_TYPE, id, attributes, {
    relationships: {
      roles: { data: roles.map((r) => ({ type: 'roles', id: r.id })) },
      sponsors: { data: sponsors.map((s) => ({ type: 'sponsors', id: s.id })) },
    },
  });
  const included = [
    ...roles.map((r) => toResource('roles', r.id, { name: r.name })),
    ...sponsors.map((s) => toResource('sponsors', s.id, { name: s.name })),
  ];
  return { data, included };
}

export function usersRoutes(deps: Deps) {
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.get('/me', async (c) => {
    const user = await loadUser(deps.db, c.get('user').id);
    if (!user) throw unauthorized();
    const { row: _row, ...publicUser } = user;
    const doc = userDocument(publicUser);
    return sendResource(c, doc.data, 200, doc.included);
  });

  return app;
}
