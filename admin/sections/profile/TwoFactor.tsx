/**
 * Two-factor sign-in for the signed-in user: the server issues a secret, shown as a QR code
 * (its otpauth URI) and as text; it is verified, and sign-in asks for codes, only once the user
 * types a valid code from their app. Turning it off again is an Administrator's reset.
 */
import { useMemo, useState, type FormEvent } from 'react';
import { useAtomValue } from 'jotai';
import { renderSVG } from 'uqr';
import { ApiError } from '@core/api/client';
import { usersApi } from '@core/api/users';
import type { TotpEnrolment } from '@core/model/user';
import { message } from '@core/validation/messages';
import { isTotpCode } from '@core/validation/rules';
import { FormErrors } from '../../components/form/FormErrors';
import { TextField } from '../../components/form/TextField';
import { currentUserAtom } from '../../state/auth';
import { useNotify } from '../../state/notices';
import { useApi, useSession } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import './profile.css';

export const TWO_FACTOR_ON = 'Two-factor sign-in is on. Each sign-in asks for a code from your authenticator app.';
export const TWO_FACTOR_OFF = 'Two-factor sign-in is off. Turn it on to protect your account with a code from an authenticator app.';
export const TWO_FACTOR_RESET_HINT = 'Lost your phone or need another device? Ask an Administrator to reset your two-factor sign-in.';

/** The QR code of an otpauth URI as an image source (an SVG drawn here; nothing is sent anywhere). */
export const qrCodeSource = (uri: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(uri, { border: 1 }))}`;

/** The secret in groups of four, easier to type. */
export const groupSecret = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

export default function TwoFactor() {
  const api = useApi(usersApi);
  const session = useSession();
  const notify = useNotify();
  const user = useAtomValue(currentUserAtom);
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const qr = useMemo(() => (enrolment ? qrCodeSource(enrolment.otpauthUri) : null), [enrolment]);

  useTopBar({ objectTitle: user?.username });

  async function run(action: () => Promise<void>) {
    if (busy) return;
    setBusy(true);
    setFailure(null);
    try {
      await action();
    } catch (error) {
      const apiError = error instanceof ApiError ? error : null;
      const codeProblem = apiError?.errors.find((e) => e.source?.pointer === '/data/attributes/code');
      if (codeProblem) setCodeError(codeProblem.detail ?? codeProblem.title);
      else setFailure(apiError ? apiError.message : 'Could not save data');
    } finally {
      setBusy(false);
    }
  }

  const start = () =>
    run(async () => {
      setCode('');
      setCodeError(undefined);
      setEnrolment(await api.startTwoFactor());
    });

  const verify = (event: FormEvent) => {
    event.preventDefault();
    const typed = code.trim();
    if (!isTotpCode(typed)) {
      setCodeError(message('code'));
      return;
    }
    void run(async () => {
      const updated = await api.verifyTwoFactor(typed);
      session.updateUser({ ...(user ?? updated), secretVerified: true });
      setEnrolment(null);
      notify('success', 'Two-factor sign-in is on.');
    });
  };

  if (!user) return null;
  return (
    <section className="panel">
      <FormErrors message={failure} />
      {user.secretVerified ? (
        <>
          <p role="status">{TWO_FACTOR_ON}</p>
          <p className="field-hint">{TWO_FACTOR_RESET_HINT}</p>
        </>
      ) : enrolment && qr ? (
        <div className="totp-setup">
          <img className="totp-qr" src={qr} alt="QR code for your authenticator app" width={200} height={200} />
          <form onSubmit={verify} noValidate aria-busy={busy || undefined}>
            <ol>
              <li>Scan the QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…).</li>
              <li>
                Or type this key into the app:{' '}
                <span className="totp-secret" data-testid="totp-secret" data-secret={enrolment.secret}>
                  {groupSecret(enrolment.secret)}
                </span>
              </li>
              <li>Enter the 6-digit code the app shows.</li>
            </ol>
            <TextField
              label="Authenticator Code"
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              autoFocus
              value={code}
              error={codeError}
              onChange={(value) => {
                setCode(value.replace(/\D/g, '').slice(0, 6));
                setCodeError(undefined);
              }}
            />
            <div className="login-buttons">
              <button type="submit" className="btn btn-primary" disabled={busy}>
                Verify and Turn On
              </button>
              <button type="button" className="btn btn-light" onClick={() => setEnrolment(null)} disabled={busy}>
                Cancel
              </button>
            </div>
          </form>
        </div>
      ) : (
        <>
          <p>{TWO_FACTOR_OFF}</p>
          <button type="button" className="btn btn-primary" onClick={() => void start()} disabled={busy}>
            Set Up Two-Factor Sign-In
          </button>
        </>
      )}
    </section>
  );
}
