/** "Send test": a synthetic, clearly marked referral through the saved settings, and what came back. */
import { useState } from 'react';
import { BusyButton } from '../../components/form/BusyButton';
import { rmsProvidersApi } from '@core/api/rmsProviders';
import type { RmsProvider, RmsProviderTest } from '@core/model/rmsProvider';
import { useAction } from '../../hooks/useAction';
import { useApi } from '../../state/services';
import './rms-providers.css';

export const TEST_FAILED = 'Could not send the test';

export function SendTest({ provider }: { provider: RmsProvider }) {
  const api = useApi(rmsProvidersApi);
  const action = useAction();
  const [result, setResult] = useState<RmsProviderTest | null>(null);

  const send = () =>
    action.run(async () => {
      setResult(null);
      setResult(await api.test(provider.id));
    }, TEST_FAILED);

  return (
    <section className="panel" aria-labelledby="send-test-title">
      <h2 id="send-test-title">Send test</h2>
      <p className="hint">Sends a synthetic referral marked as a test (no participant's data) with the saved settings.</p>
      <BusyButton className="btn btn-secondary" busy={action.busy} onClick={() => void send()}>
        {action.busy ? 'Sending…' : 'Send test'}
      </BusyButton>
      <div role="status" aria-live="polite">
        {action.error && <p className="form-errors">{action.error}</p>}
        {result && (
          <div className="test-result">
            <p>
              <span className={result.succeeded ? 'badge badge-active' : 'badge badge-failed'}>{result.succeeded ? 'Accepted' : 'Failed'}</span>{' '}
              {result.responseMessage} <span className="hint">({result.durationMs} ms)</span>
            </p>
          </div>
        )}
      </div>
    </section>
  );
}
