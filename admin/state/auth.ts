import { atom } from 'jotai';
import type { User } from '@core/model/user';
import type { AuthStatus } from '../access';

/** 'checking' while a session found in the cookies is being confirmed with the server. */
export const authStatusAtom = atom<AuthStatus>('checking');

/** The signed-in user as GET /api/users/me returned it. */
export const currentUserAtom = atom<User | null>(null);

/** Why the session ended, when it was not the user's own doing; the login page shows it. */
export const signOutReasonAtom = atom<string | null>(null);

export const IDLE_SIGN_OUT_MESSAGE = 'You were signed out after 30 minutes without activity. Sign in again to continue.';
