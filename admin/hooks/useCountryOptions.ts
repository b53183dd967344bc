import { useEffect, useState } from 'react';
import { countriesApi } from '@core/api/countries';
import type { ApiClient } from '@core/api/client';
import type { Country } from '@core/model/country';
import type { SelectOption } from './useOptions';
import { useSession } from '../state/services';

// Countries do not change while the admin is open: load them once per session.
const cache = new WeakMap<ApiClient, Promise<Country[]>>();

function loadCountries(client: ApiClient): Promise<Country[]> {
  let pending = cache.get(client);
  if (!pending) {
    pending = countriesApi(client)
      .all()
      .then((result) => result.items);
    pending.catch(() => cache.delete(client));
    cache.set(client, pending);
  }
  return pending;
}

/** Countries as select options (value: the country id). */
export function useCountryOptions(): { options: SelectOption[]; loading: boolean; error: string | null } {
  const { client } = useSession();
  const [state, setState] = useState<{ options: SelectOption[]; loading: boolean; error: string | null }>({
    options: [],
    loading: true,
    error: null,
  });
  useEffect(() => {
    let current = true;
    loadCountries(client).then(
      (countries) => current && setState({ options: countries.map((c) => ({ value: String(c.id), label: c.name })), loading: false, error: null }),
      () => current && setState({ options: [], loading: false, error: 'Could not load the countries.' }),
    );
    return () => {
      current = false;
    };
  }, [client]);
  return state;
}
