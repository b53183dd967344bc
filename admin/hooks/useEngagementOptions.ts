import { engagementsApi } from '@core/api/engagements';
import { useApi } from '../state/services';
import { ENGAGEMENT_OPTION_PARAMS } from './optionCalls';
import { useOptions, type OptionsState } from './useOptions';

/**
 * The engagements the user may see, by name, as a filter's options (value: the engagement id).
 * `enabled` false for users the server opens no engagement list to: no call, no options.
 */
export function useEngagementOptions(enabled = true): OptionsState {
  const api = useApi(engagementsApi);
  return useOptions(
    async () => (enabled ? (await api.list(ENGAGEMENT_OPTION_PARAMS)).items.map((e) => ({ value: String(e.id), label: e.name })) : []),
    [api, enabled],
    'Could not load the engagements.',
  );
}
