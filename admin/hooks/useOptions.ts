import { useEffect, useState, type DependencyList } from 'react';

/** One choice of a select or check list. */
export interface SelectOption {
  value: string;
  label: string;
}

export interface OptionsState {
  options: SelectOption[];
  loading: boolean;
  error: string | null;
  /** Adds an option (a value created from the form) without reloading. */
  add: (option: SelectOption) => void;
}

/** Select or multi-select options loaded once per `deps`. */
export function useOptions(load: () => Promise<SelectOption[]>, deps: DependencyList, failure: string): OptionsState {
  const [state, setState] = useState<Omit<OptionsState, 'add'>>({ options: [], loading: true, error: null });
  useEffect(() => {
    let current = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    load().then(
      (options) => current && setState({ options, loading: false, error: null }),
      () => current && setState({ options: [], loading: false, error: failure }),
    );
    return () => {
      current = false;
    };
  }, deps);
  return {
    ...state,
    add: (option) =>
      setState((s) => ({
        ...s,
        options: [...s.options.filter((o) => o.value !== option.value), option].sort((a, b) => a.label.localeCompare(b.label)),
      })),
  };
}
