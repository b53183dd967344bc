import { atom } from 'jotai';
import type { User } from '../../core/model/user';
import type { AuthStatus } from '../access';

/** 'checking' while a session found in the cookies is being confirmed with the server. */
export const authStatusAtom = atom<AuthStatus>('checking');

/** The signed-in user as GET /api/users/me returned it. */
export const currentUserAtom = atom<User | null>(null);
