/**
 * Sign-in (SPEC sections 2 and 4): credentials first; when the server says a second factor
 * is needed, the authenticator code, sent as soon as six digits are typed. Success needs no
 * navigation here: the route guard sends a signed-in visitor on.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useAtom } from 'jotai';
import { signOutReasonAtom } from '../../state/auth';
import * as v from 'valibot';
import { ApiError } from '@core/api/client';
import { DEFAULT_LANGUAGE } from '@core/i18n';
import { issuesByField } from '@core/model/fields';
import { LoginInput } from '@core/model/user';
import { message } from '@core/validation/messages';
import { isTotpCode } from '@core/validation/rules';
import { TextField } from '../../components/form/TextField';
import type { FieldErrors } from '../../components/form/useEntityForm';
import { safeRedirect } from '../../routing/redirect';
import { useSession } from '../../state/services';
import { SSO_SERVICE, ssoStartUrl } from './ssoUrl';
import './auth.css';

export const LOGIN_FAILED = 'Could not log in. Try again.';
const CODE_LENGTH = 6;

const isTruthy = (value: string | null) => value !== null && value !== '' && value !== '0' && value !== 'false';

export default function Login() {
  const session = useSession();
  const [search] = useSearchParams();
  const [step, setStep] = useState<'credentials' | 'code'>('credentials');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [signOutReason, setSignOutReason] = useAtom(signOutReasonAtom);
  // Opens with the reason the last session ended, if the user did not end it themselves.
  const [serverMessage, setServerMessage] = useState<string | null>(signOutReason);
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const authService = useRef<string | undefined>(undefined);
  const autoSubmitted = useRef(false);
  // Offered only when the server has it configured: a button that leads to "not configured" is a dead end.
  const [ssoOffered, setSsoOffered] = useState(false);
  useEffect(() => {
    let live = true;
    void session.ssoServices().then((services) => live && setSsoOffered(services.includes(SSO_SERVICE)));
    return () => {
      live = false;
    };
  }, [session]);

  async function send(input: LoginInput) {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setServerMessage(null);
    setSignOutReason(null);
    try {
      const result = await session.signIn(input, authService.current);
      if (result.success) return;
      if (result.data?.secret_verified) {
        setStep('code');
        setCode('');
      }
      setServerMessage(result.data?.message || LOGIN_FAILED);
    } catch (error) {
      setServerMessage(error instanceof ApiError ? error.message : LOGIN_FAILED);
    } finally {
      running.current = false;
      setBusy(false);
    }
  }

  // `/login?submit=1&auth_service=duo`: back from single sign-on, the server knows who this is.
  useEffect(() => {
    const service = search.get('auth_service');
    if (autoSubmitted.current || !service || !isTruthy(search.get('submit'))) return;
    autoSubmitted.current = true;
    authService.current = service;
    void send({ username: '', password: '', code: '', lang: DEFAULT_LANGUAGE });
    // Once, on arrival: later changes of the query string are not new requests to sign in.
  }, []);

  function submitCredentials(event: FormEvent) {
    event.preventDefault();
    const parsed = v.safeParse(LoginInput, { username, password });
    if (!parsed.success) {
      setErrors(issuesByField(parsed.issues));
      return;
    }
    setErrors({});
    authService.current = undefined;
    void send({ username: parsed.output.username, password, code: '', lang: DEFAULT_LANGUAGE });
  }

  function submitCode(value: string) {
    if (!isTotpCode(value)) {
      setErrors({ code: message('code') });
      return;
    }
    setErrors({});
    void send({ username: username.trim(), password, code: value, lang: DEFAULT_LANGUAGE });
  }

  function changeCode(raw: string) {
    const digits = raw.replace(/\D/g, '').slice(0, CODE_LENGTH);
    setCode(digits);
    setErrors({});
    if (digits.length === CODE_LENGTH) submitCode(digits);
  }

  function reset() {
    setStep('credentials');
    setCode('');
    setPassword('');
    setErrors({});
    setServerMessage(null);
  }

  const alert = serverMessage && (
    <p className="login-message" role="alert">
      {serverMessage}
    </p>
  );

  return (
    <div className="login">
      <h1 className="card-title">Log in with an existing account</h1>
      {step === 'credentials' ? (
        <form onSubmit={submitCredentials} noValidate aria-busy={busy || undefined}>
          <TextField
            label="Username"
            name="username"
            autoComplete="username"
            autoFocus
            value={username}
            onChange={setUsername}
            error={errors.username}
            required
          />
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={setPassword}
            error={errors.password}
            required
          />
          {alert}
          <button type="submit" className="btn btn-primary btn-block" disabled={busy} aria-busy={busy || undefined}>
            {busy && <span className="spinner spinner-small" aria-hidden="true" />}
            Log In
          </button>
          {ssoOffered && (
            <>
              <div className="login-divider">
                <span>or</span>
              </div>
              <a className="btn btn-light btn-block" href={ssoStartUrl(window.location.origin, safeRedirect(search.get('redirect')))}>
                Log In with DUO
              </a>
            </>
          )}
        </form>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            submitCode(code);
          }}
          noValidate
          aria-busy={busy || undefined}
        >
          <p className="login-hint">Enter the six-digit code your authenticator app shows for {username.trim()}.</p>
          <TextField
            label="Google Authenticator Code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={CODE_LENGTH}
            autoFocus
            value={code}
            onChange={changeCode}
            error={errors.code}
            disabled={busy}
          />
          {alert}
          <div className="login-buttons">
            <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={busy || undefined}>
              {busy && <span className="spinner spinner-small" aria-hidden="true" />}
              Verify
            </button>
            <button type="button" className="btn btn-light" onClick={reset} disabled={busy}>
              Reset
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
