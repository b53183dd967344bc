/** A user as its form holds it, and the mapping to the API's input. */
import { toApiIsoCode, toUiIsoCode } from '@core/i18n';
import type { User, UserInput, UserPatch } from '@core/model/user';

export const USER_LABELS = {
  username: 'Username',
  email: 'Email',
  password: 'Initial Password',
  newPassword: 'New Password',
  locale: 'Language',
  isActive: 'Active',
  roles: 'Roles',
  sponsors: 'Sponsors',
  secretVerified: 'Two-Factor',
  modified: 'Modified',
} as const;

export type UserFormValues = {
  username: string;
  email: string;
  password: string;
  /** The interface form, `es-MX`. */
  locale: string;
  isActive: boolean;
};

export const toUserFormValues = (user?: User): UserFormValues => ({
  username: user?.username ?? '',
  email: user?.email ?? '',
  password: '',
  locale: toUiIsoCode(user?.locale ?? 'en'),
  isActive: user?.isActive ?? true,
});

export const toUserInput = (values: UserFormValues): UserInput => ({
  username: values.username,
  email: values.email,
  password: values.password,
  locale: toApiIsoCode(values.locale),
  isActive: values.isActive,
});

/** An edit sends a password only when one was typed (a reset). */
export const toUserPatch = (values: UserFormValues): UserPatch => ({
  email: values.email,
  locale: toApiIsoCode(values.locale),
  isActive: values.isActive,
  ...(values.password !== '' ? { password: values.password } : {}),
});
