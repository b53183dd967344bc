import { decode, type DataDocument, type ListParams, type Resource } from '../jsonapi';
import { RMS_PROVIDER_TYPE, RmsProviderTest, type RmsProvider, type RmsProviderInput, type RmsProviderPatch } from '../model/rmsProvider';
import { parseAnswer, type ApiClient } from './client';

/** Record-system providers: everyone reads the picker; Super Users manage and test them. */
export function rmsProvidersApi(client: ApiClient) {
  return {
    list: (params: ListParams = {}) => client.list<RmsProvider>('rms-providers', params),
    get: (id: string) => client.get<RmsProvider>(`rms-providers/${encodeURIComponent(id)}`),
    create: (values: RmsProviderInput) => client.create<RmsProvider>('rms-providers', RMS_PROVIDER_TYPE, { ...values }),
    update: (id: string, values: RmsProviderPatch) =>
      client.update<RmsProvider>(`rms-providers/${encodeURIComponent(id)}`, RMS_PROVIDER_TYPE, id, { ...values }),
    remove: (id: string) => client.remove(`rms-providers/${encodeURIComponent(id)}`),
    /** Sends a synthetic, clearly marked test referral; answers what the receiver said. */
    async test(id: string): Promise<RmsProviderTest> {
      const doc = await client.call((http) => http.post(`rms-providers/${encodeURIComponent(id)}/test`).json<DataDocument<Resource>>());
      return parseAnswer(RmsProviderTest, decode(doc), 'a test delivery');
    },
  };
}
