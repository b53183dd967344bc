import { sponsorsApi } from '@core/api/sponsors';
import { useApi } from '../state/services';
import { useOptions, type OptionsState } from './useOptions';

/** The call behind the options (a screen's route may make it ahead, routing/ahead.ts). */
export const SPONSOR_OPTION_PARAMS = { limit: 1000, sort: 'name', fields: 'name' };

/** The sponsors the user may see, by name, as select options (value: the sponsor id). */
export function useSponsorOptions(): OptionsState {
  const api = useApi(sponsorsApi);
  return useOptions(
    async () => (await api.list(SPONSOR_OPTION_PARAMS)).items.map((s) => ({ value: String(s.id), label: s.name })),
    [api],
    'Could not load the sponsors.',
  );
}
