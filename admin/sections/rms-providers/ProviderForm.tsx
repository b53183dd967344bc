/**
 * RmsProvidersAdd / RmsProvidersEdit (Super User): a record system's settings. The secret and
 * the bearer token are write-only: the form never shows a stored one, a blank field keeps it,
 * and "Generate" makes a fresh Standard Webhooks secret here to copy to the receiver before
 * saving. Saved providers can be tested from their edit screen (SendTest).
 */
import { useNavigate } from 'react-router-dom';
import { rmsProvidersApi } from '@core/api/rmsProviders';
import {
  RMS_PROVIDER_KIND_LABELS,
  RMS_PROVIDER_KINDS,
  RmsProviderInput,
  RmsProviderPatch,
  settingsIssues,
  TIMEOUT_MAX_MS,
  TIMEOUT_MIN_MS,
  type RmsProvider,
} from '@core/model/rmsProvider';
import { Checkbox } from '../../components/form/Checkbox';
import { EntityForm, useFormTopBar } from '../../components/form/EntityForm';
import { labelledOptions, Select } from '../../components/form/Select';
import { TextField } from '../../components/form/TextField';
import { WholeNumberField } from '../../components/form/WholeNumberField';
import { useEntityForm } from '../../components/form/useEntityForm';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { generateSecret, PROVIDER_LABELS as L, toProviderFormValues, toProviderInput } from './providerValues';
import { SendTest } from './SendTest';
import './rms-providers.css';

const FORM_ID = 'rms-provider-form';

export function ProviderForm({ provider }: { provider?: RmsProvider }) {
  const api = useApi(rmsProvidersApi);
  const navigate = useNavigate();
  const form = useEntityForm(toProviderFormValues(provider));
  const kind = form.values.kind;

  useFormTopBar(provider?.name, pathTo('RmsProvidersIndex'), FORM_ID, form.busy);

  const onSubmit = form.handleSubmit(async (values) => {
    const input = toProviderInput(values);
    const parsed = form.parse(provider ? RmsProviderPatch : RmsProviderInput, input);
    if (!parsed) return;
    // What the kind needs, checked before sending (the server checks the same).
    const missing = settingsIssues({
      kind: input.kind,
      endpoint: input.endpoint ?? null,
      hasSecret: Boolean(input.secret) || Boolean(provider?.hasSecret),
      hasBearerToken: false,
    });
    if (Object.keys(missing).length > 0) return form.fail(missing);
    const saved = provider ? await api.update(provider.id, parsed) : await api.create(parsed as RmsProviderInput);
    navigate(pathTo('RmsProvidersEdit', { id: saved.id }), { state: { saved: true } });
  });

  const keeps = (has: boolean | undefined) => (has ? 'A value is set and kept; type a new one to replace it.' : undefined);

  return (
    <>
      <EntityForm id={FORM_ID} form={form} onSubmit={onSubmit}>
        <TextField label={L.name} required maxLength={100} {...form.text('name')} />
        <Select label={L.kind} required options={labelledOptions(RMS_PROVIDER_KINDS, RMS_PROVIDER_KIND_LABELS)} {...form.text('kind')} />
        {kind !== 'none' && (
          <TextField
            label={L.endpoint}
            type="url"
            required
            maxLength={2000}
            placeholder="https://"
            hint="https://…; http:// only to this machine (localhost, 127.0.0.1)."
            {...form.text('endpoint')}
          />
        )}
        {kind !== 'none' && <WholeNumberField label={L.timeoutMs} required hint={`${TIMEOUT_MIN_MS} to ${TIMEOUT_MAX_MS}.`} {...form.text('timeoutMs')} />}
        {kind !== 'none' && (
          <div className="secret-field">
            <TextField
              label={L.secret}
              required={kind === 'webhook' && !provider?.hasSecret}
              autoComplete="off"
              placeholder="whsec_…"
              hint={
                keeps(provider?.hasSecret) ??
                (kind === 'webhook'
                  ? 'Standard Webhooks secret (whsec_…). Generate one and give it to the receiver.'
                  : 'Optional: lets this FHIR server report statuses back.')
              }
              {...form.text('secret')}
            />
            <button type="button" className="btn btn-small btn-secondary" onClick={() => form.setValue('secret', generateSecret())}>
              Generate
            </button>
          </div>
        )}
        {kind === 'fhir' && (
          <TextField
            label={L.bearerToken}
            autoComplete="off"
            hint={keeps(provider?.hasBearerToken) ?? 'Optional: sent as Authorization: Bearer.'}
            {...form.text('bearerToken')}
          />
        )}
        <Checkbox label={L.isActive} hint="An inactive record system's deliveries wait until it is active again." {...form.checkbox('isActive')} />
      </EntityForm>
      {provider && <SendTest provider={provider} />}
    </>
  );
}
