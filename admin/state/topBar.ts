/**
 * What the current screen shows in the top bar: titles, breadcrumbs, contextual buttons and
 * the search box. Screens declare it with `useTopBar({...})`; the top bar renders it.
 */
import { useLayoutEffect, useRef } from 'react';
import { atom, useSetAtom } from 'jotai';

export interface Crumb {
  label: string;
  /** Absent for the current page. */
  to?: string;
}

export type TopBarButtonVariant = 'primary' | 'secondary' | 'danger';

export interface TopBarButton {
  /** SPEC's contextual buttons are Add, Cancel, Back, Done, Delete, Edit and Save. */
  label: 'Add' | 'Cancel' | 'Back' | 'Done' | 'Delete' | 'Edit' | 'Save' | (string & {});
  /** A link to this path... */
  to?: string;
  /** ...or an action... */
  onClick?: () => void;
  /** ...or the submit button of the form with this id. */
  submits?: string;
  variant?: TopBarButtonVariant;
  disabled?: boolean;
  busy?: boolean;
}

export interface TopBarSearch {
  value: string;
  /** Called once typing pauses. */
  onSearch: (text: string) => void;
  placeholder?: string;
}

export interface TopBarConfig {
  /** Overrides the route's title. */
  actionTitle?: string;
  /** What the screen is about, e.g. the sponsor's name; also fills the route's object crumb. */
  objectTitle?: string;
  /** Replaces the trail derived from the route table (Home is always first). */
  breadcrumbs?: Crumb[];
  buttons?: TopBarButton[];
  search?: TopBarSearch;
}

export const topBarAtom = atom<TopBarConfig>({});

/**
 * Declares the top bar for as long as the calling screen is mounted. Callbacks may change on
 * every render; the top bar re-renders only when something it shows changes.
 */
export function useTopBar(config: TopBarConfig): void {
  const setTopBar = useSetAtom(topBarAtom);
  const latest = useRef(config);
  useLayoutEffect(() => {
    latest.current = config;
  });

  // Functions are left out by JSON.stringify, so this changes only with what is displayed.
  const shown = JSON.stringify(config);
  useLayoutEffect(() => {
    const current = latest.current;
    setTopBar({
      ...current,
      buttons: current.buttons?.map((button, index) => ({
        ...button,
        onClick: button.onClick && (() => latest.current.buttons?.[index]?.onClick?.()),
      })),
      search: current.search && {
        ...current.search,
        onSearch: (text: string) => latest.current.search?.onSearch(text),
      },
    });
  }, [shown, setTopBar]);

  useLayoutEffect(() => () => setTopBar({}), [setTopBar]);
}
