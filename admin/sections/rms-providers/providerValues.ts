import type { RmsProvider, RmsProviderInput, RmsProviderKind } from '@core/model/rmsProvider';
import { TIMEOUT_DEFAULT_MS } from '@core/model/rmsProvider';

export const PROVIDER_LABELS = {
  name: 'Name',
  kind: 'Kind',
  endpoint: 'Endpoint URL',
  timeoutMs: 'Timeout (ms)',
  isActive: 'Active',
  secret: 'Signing secret',
  bearerToken: 'Bearer token',
} as const;

export type ProviderFormValues = {
  name: string;
  kind: string;
  endpoint: string;
  timeoutMs: string;
  isActive: boolean;
  /** Write-only: blank keeps the stored one. */
  secret: string;
  bearerToken: string;
};

export const toProviderFormValues = (p?: RmsProvider): ProviderFormValues => ({
  name: p?.name ?? '',
  kind: p?.kind ?? 'webhook',
  endpoint: p?.endpoint ?? '',
  timeoutMs: String(p?.timeoutMs ?? TIMEOUT_DEFAULT_MS),
  isActive: p?.isActive ?? true,
  secret: '',
  bearerToken: '',
});

/** The API's input: a blank secret or token is left out (kept), never sent as empty. */
export function toProviderInput(values: ProviderFormValues): Partial<RmsProviderInput> & { kind: RmsProviderKind } {
  const kind = values.kind as RmsProviderKind;
  return {
    name: values.name,
    kind,
    endpoint: kind === 'none' ? null : values.endpoint.trim() || null,
    timeoutMs: values.timeoutMs.trim() === '' ? Number.NaN : Number(values.timeoutMs),
    isActive: values.isActive,
    ...(values.secret.trim() ? { secret: values.secret.trim() } : {}),
    ...(kind === 'fhir' && values.bearerToken.trim() ? { bearerToken: values.bearerToken.trim() } : {}),
  };
}

/** A fresh Standard Webhooks secret, made in the browser: 32 random bytes after whsec_. */
export function generateSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}
