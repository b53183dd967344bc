/**
 * The signed-in user's password. Reached from the profile menu, and forced after an Admin set
 * the password (first sign-in or reset): the route guard sends every other screen here, and the
 * server refuses other calls until it is done. The change ends every other session; the answer
 * carries fresh tokens for this one.
 */
import { useAtomValue } from 'jotai';
import { useNavigate } from 'react-router-dom';
import * as v from 'valibot';
import { usersApi } from '@core/api/users';
import { issuesByField } from '@core/model/fields';
import { ChangePasswordInput } from '@core/model/user';
import { FormErrors } from '../../components/form/FormErrors';
import { TextField } from '../../components/form/TextField';
import { useEntityForm } from '../../components/form/useEntityForm';
import { pathTo } from '../../routing/routes';
import { AFTER_SIGN_IN } from '../../routing/redirect';
import { currentUserAtom } from '../../state/auth';
import { useNotify } from '../../state/notices';
import { useApi, useSession } from '../../state/services';

export const PASSWORDS_DIFFER = 'The two new passwords are not the same.';
export const MUST_CHANGE_HINT = 'Your password was set by an Administrator. Choose your own password to continue.';

export default function ChangePassword() {
  const api = useApi(usersApi);
  const session = useSession();
  const navigate = useNavigate();
  const notify = useNotify();
  const user = useAtomValue(currentUserAtom);
  const forced = !!user?.mustChangePassword;
  const form = useEntityForm({ currentPassword: '', password: '', confirmPassword: '' });

  const onSubmit = form.handleSubmit(async (values) => {
    const parsed = v.safeParse(ChangePasswordInput, { currentPassword: values.currentPassword, password: values.password });
    const problems = parsed.success ? {} : issuesByField(parsed.issues);
    if (values.confirmPassword !== values.password) problems.confirmPassword = PASSWORDS_DIFFER;
    if (!parsed.success || Object.keys(problems).length > 0) {
      form.fail(problems);
      return;
    }
    const result = await api.changePassword(parsed.output);
    session.adopt({ access: result.access, refresh: result.refresh }, result.user);
    notify('success', 'Your password has been changed.');
    navigate(AFTER_SIGN_IN, { replace: true });
  });

  return (
    <div className="login">
      <h1 className="card-title">Change your password</h1>
      {forced && <p className="login-hint">{MUST_CHANGE_HINT}</p>}
      <form onSubmit={onSubmit} noValidate aria-busy={form.busy || undefined}>
        <FormErrors message={form.formError} />
        <TextField label="Current Password" type="password" autoComplete="current-password" required autoFocus {...form.text('currentPassword')} />
        <TextField label="New Password" type="password" autoComplete="new-password" required hint="At least 8 characters." {...form.text('password')} />
        <TextField label="Repeat New Password" type="password" autoComplete="new-password" required {...form.text('confirmPassword')} />
        <div className="login-buttons">
          <button type="submit" className="btn btn-primary" disabled={form.busy} aria-busy={form.busy || undefined}>
            {form.busy && <span className="spinner spinner-small" aria-hidden="true" />}
            Change Password
          </button>
          {forced ? (
            <a className="btn btn-light" href={pathTo('Logout')} onClick={(event) => (event.preventDefault(), navigate(pathTo('Logout')))}>
              Log Out
            </a>
          ) : (
            <a className="btn btn-light" href={pathTo('SponsorsIndex')} onClick={(event) => (event.preventDefault(), navigate(-1))}>
              Cancel
            </a>
          )}
        </div>
      </form>
    </div>
  );
}
