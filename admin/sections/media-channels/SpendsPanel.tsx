import { useState } from 'react';
import { channelSpendsApi } from '@core/api/channelSpends';
import { formatMinor, parseAmount, type ChannelSpend } from '@core/model/channelSpend';
import { PageTable } from '../../components/list/DataTable';
import { buttonsColumn } from '../../components/list/columns';
import { useAsync } from '../../hooks/useAsync';
import { useApi } from '../../state/services';
import { useNotify } from '../../state/notices';
import { useBusyCall } from '../../hooks/useBusyCall';

export const AMOUNT_INVALID = 'Enter the amount as a number such as 1250.00.';

/** What the channel cost, period by period: the funnel divides it by its outcomes (cost per started … randomized). */
export function SpendsPanel({ channelId }: { channelId: string }) {
  const api = useApi(channelSpendsApi);
  const notify = useNotify();
  const spends = useAsync(() => api.ofChannel(channelId), [api, channelId]);
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState('USD');
  const [periodStart, setPeriodStart] = useState('');
  const [periodEnd, setPeriodEnd] = useState('');
  const [campaign, setCampaign] = useState('');
  const { busy, run } = useBusyCall((message) => notify('error', message));
  const act = (action: () => Promise<unknown>, done: string) =>
    run(async () => {
      await action();
      notify('success', done);
      spends.reload();
    }, 'Could not save the change.');
  const add = async () => {
    const amountMinor = parseAmount(amount, currency.trim().toUpperCase() || 'USD');
    if (amountMinor === null) return notify('error', AMOUNT_INVALID);
    const saved = await act(
      () => api.create({ mediaChannelId: Number(channelId), amountMinor, currency, periodStart, periodEnd, campaign: campaign || null }),
      'Spend added',
    );
    if (saved) {
      setAmount('');
      setCampaign('');
    }
  };
  return (
    <section className="panel" id="spends" aria-labelledby="spends-title">
      <h2 id="spends-title">Spend</h2>
      <p className="muted">
        What this channel cost, period by period. The Recruitment screen prorates each spend by the days its period shares with the range shown.
      </p>
      <PageTable
        caption="Spend"
        page={spends}
        emptyMessage="No spend entered for this channel yet."
        columns={[
          { id: 'period', header: 'Period', cell: (s) => `${s.periodStart} to ${s.periodEnd}` },
          { id: 'amount', header: 'Amount', cell: (s) => `${formatMinor(s.amountMinor, s.currency)} ${s.currency}` },
          { id: 'campaign', header: 'Campaign', cell: (s) => s.campaign ?? 'whole channel' },
          buttonsColumn<ChannelSpend>('Actions', (s) => (
            <button type="button" className="btn btn-small btn-secondary" disabled={busy} onClick={() => void act(() => api.remove(s.id), 'Spend removed')}>
              Remove <span className="visually-hidden">spend from {s.periodStart}</span>
            </button>
          )),
        ]}
      />
      <div className="inline-form">
        <label htmlFor="spend-amount">Amount</label>
        <input id="spend-amount" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
        <label htmlFor="spend-currency">Currency</label>
        <input id="spend-currency" maxLength={3} size={4} value={currency} onChange={(e) => setCurrency(e.target.value)} />
        <label htmlFor="spend-from">From</label>
        <input id="spend-from" type="date" value={periodStart} onChange={(e) => setPeriodStart(e.target.value)} />
        <label htmlFor="spend-to">To</label>
        <input id="spend-to" type="date" value={periodEnd} onChange={(e) => setPeriodEnd(e.target.value)} />
        <label htmlFor="spend-campaign">Campaign (utm_campaign, optional)</label>
        <input id="spend-campaign" value={campaign} onChange={(e) => setCampaign(e.target.value)} />
        <button type="button" className="btn btn-primary" disabled={busy || amount === '' || periodStart === '' || periodEnd === ''} onClick={() => void add()}>
          Add spend
        </button>
      </div>
    </section>
  );
}
