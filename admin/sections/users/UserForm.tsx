/**
 * Adds a user (with an initial password they must change at first sign-in) or edits one:
 * e-mail (checked with the server when the field is left), language, active flag, roles and
 * sponsors. An edit can set a new password and reset the user's two-factor sign-in.
 */
import { useState } from 'react';
import { useAtomValue } from 'jotai';
import { useNavigate } from 'react-router-dom';
import * as v from 'valibot';
import { ApiError } from '@core/api/client';
import { sponsorsApi } from '@core/api/sponsors';
import { usersApi } from '@core/api/users';
import { issuesByField } from '@core/model/fields';
import { UserInput, UserPatch, type User } from '@core/model/user';
import { message } from '@core/validation/messages';
import { Checkbox } from '../../components/form/Checkbox';
import { EntityForm } from '../../components/form/EntityForm';
import { MultiCheckList } from '../../components/form/MultiCheckList';
import { loadedOptions, Select } from '../../components/form/Select';
import { TextField } from '../../components/form/TextField';
import { useEntityForm, type FieldErrors } from '../../components/form/useEntityForm';
import { useConfirm } from '../../components/confirm/ConfirmProvider';
import { useAsync } from '../../hooks/useAsync';
import { useActiveLanguages } from '../../hooks/useLanguages';
import { pathTo } from '../../routing/routes';
import { currentUserAtom } from '../../state/auth';
import { useNotify } from '../../state/notices';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { USER_LABELS as L, toUserFormValues, toUserInput, toUserPatch } from './userValues';

const FORM_ID = 'user-form';
export const ROLES_REQUIRED = 'Choose at least one role.';
export const RESET_TWO_FACTOR_CONFIRMATION = 'Turn off two-factor sign-in for this user? They sign in with their password alone until they set it up again.';

export function UserForm({ user, onChanged }: { user?: User; onChanged?: () => void }) {
  const api = useApi(usersApi);
  const sponsorApi = useApi(sponsorsApi);
  const navigate = useNavigate();
  const confirm = useConfirm();
  const notify = useNotify();
  const me = useAtomValue(currentUserAtom);
  const languages = useActiveLanguages();
  const [roleIds, setRoleIds] = useState<string[]>(user?.roles.map((r) => r.id) ?? []);
  const [sponsorIds, setSponsorIds] = useState<string[]>(user?.sponsors.map((s) => s.id) ?? []);
  const form = useEntityForm(toUserFormValues(user), { also: [roleIds, sponsorIds] });
  const [emailProblem, setEmailProblem] = useState<string | null>(null);
  const roles = useAsync(() => api.roles(), [api]);
  const sponsors = useAsync(() => sponsorApi.list({ limit: 1000, sort: 'name', fields: 'name' }), [sponsorApi]);

  async function resetTwoFactor() {
    if (!user) return;
    if (!(await confirm({ title: 'Reset Two-Factor', message: RESET_TWO_FACTOR_CONFIRMATION, confirmLabel: 'Reset' }))) return;
    try {
      await api.resetTwoFactor(user.id);
      notify('success', `Two-factor sign-in is off for ${user.username}.`);
      onChanged?.();
    } catch (error) {
      notify('error', error instanceof ApiError ? error.message : 'Could not save data');
    }
  }

  useTopBar({
    objectTitle: user?.username,
    buttons: [
      { label: 'Cancel', to: pathTo('UsersIndex') },
      ...(user?.secretVerified ? [{ label: 'Reset Two-Factor', onClick: () => void resetTwoFactor() }] : []),
      { label: 'Save', submits: FORM_ID, busy: form.busy },
    ],
  });

  /** Asks the server whether the address is free; answers the message to show, if any. */
  async function checkEmail(email: string): Promise<string | null> {
    if (email.trim() === '') return null;
    try {
      const result = await api.validateEmail(email.trim(), user?.id);
      return result.isValid ? null : (result.message ?? message('email'));
    } catch {
      // Unreachable now: the save will say so, and the server checks again anyway.
      return null;
    }
  }

  const onSubmit = form.handleSubmit(async (values) => {
    // Field rules from core/model, plus the roles (relationships, outside the schema).
    const parsed = user ? v.safeParse(UserPatch, toUserPatch(values)) : v.safeParse(UserInput, toUserInput(values));
    const problems: FieldErrors = parsed.success ? {} : issuesByField(parsed.issues);
    if (roleIds.length === 0) problems.roles = ROLES_REQUIRED;
    if (!parsed.success || Object.keys(problems).length > 0) {
      form.fail(problems);
      return;
    }
    const input = parsed.output;
    const problem = await checkEmail(values.email);
    if (problem) {
      form.fail({ email: problem });
      return;
    }
    const links = { roleIds, sponsorIds };
    if (user) await api.update(user.id, input as UserPatch, links);
    else await api.create(input as UserInput, links);
    notify('success', user ? `User ${user.username} saved.` : `User ${values.username.trim()} added.`);
    navigate(pathTo('UsersIndex'));
  });

  const email = form.text('email');
  const self = !!user && me?.id === user.id;

  return (
    <EntityForm id={FORM_ID} form={form} onSubmit={onSubmit}>
      {user ? (
        <TextField label={L.username} name="username" value={user.username} onChange={() => undefined} disabled hint="Usernames do not change." />
      ) : (
        <TextField label={L.username} required maxLength={64} autoComplete="off" {...form.text('username')} />
      )}
      <TextField
        label={L.email}
        type="email"
        maxLength={320}
        autoComplete="off"
        {...email}
        error={email.error ?? emailProblem ?? undefined}
        onChange={(value) => {
          setEmailProblem(null);
          email.onChange(value);
        }}
        onBlur={() => void checkEmail(form.values.email).then(setEmailProblem)}
      />
      <TextField
        label={user ? L.newPassword : L.password}
        type="password"
        required={!user}
        autoComplete="new-password"
        hint={
          user
            ? 'Leave empty to keep the current password. A new one must be changed by the user at their next sign-in.'
            : 'The user must choose their own password at their first sign-in.'
        }
        {...form.text('password')}
      />
      <Select label={L.locale} {...loadedOptions(languages)} {...form.text('locale')} />
      <MultiCheckList
        label={L.roles}
        name="roles"
        required
        options={(roles.data?.items ?? []).map((r) => ({ value: r.id, label: r.name }))}
        loading={roles.loading}
        value={roleIds}
        onChange={(next) => {
          setRoleIds(next);
          if (form.errors.roles) form.fail({ ...form.errors, roles: undefined });
        }}
        error={form.errors.roles}
        hint={roles.error ? 'Could not load the roles.' : 'A User sees only the sponsors chosen below; Admins and Super Users see all.'}
      />
      <MultiCheckList
        label={L.sponsors}
        name="sponsors"
        options={(sponsors.data?.items ?? []).map((s) => ({ value: s.id, label: s.name }))}
        loading={sponsors.loading}
        value={sponsorIds}
        onChange={setSponsorIds}
        hint={sponsors.error ? 'Could not load the sponsors.' : undefined}
      />
      <Checkbox
        label={L.isActive}
        {...form.checkbox('isActive')}
        disabled={self}
        hint={self ? 'You cannot deactivate your own account.' : 'Deactivating ends the user’s sessions at once.'}
      />
      {user && (
        <p className="field-hint span-2">
          Two-factor sign-in: {user.secretVerified ? 'on' : 'off'}
          {user.mustChangePassword ? ' · must change the password at the next sign-in' : ''}
        </p>
      )}
    </EntityForm>
  );
}
