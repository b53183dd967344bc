import { useNavigate } from 'react-router-dom';
import { type Crumb, type TopBarButton, useTopBar } from '../state/topBar';
import { useDeleteWithConfirm } from './useDeleteWithConfirm';

/** Delete on a view screen: what is deleted, how, and where the screen goes once it is gone. */
export interface ViewDelete {
  run: (id: string) => Promise<void>;
  /** Names the kind of record in the confirmation and the notice, e.g. 'Sponsor'. */
  what: string;
  id: string;
  /** Names the record in the confirmation. */
  name?: string;
  /** Where the screen goes once the record is removed. */
  goTo: string;
}

export interface ViewTopBar {
  objectTitle: string;
  breadcrumbs?: Crumb[];
  back: string;
  edit?: string;
  /** Absent, or false, where the user may not delete the record. */
  remove?: ViewDelete | false;
}

/** A view screen's top bar: Back, Edit (primary) and, where allowed, Delete after asking. */
export function useViewTopBar({ objectTitle, breadcrumbs, back, edit, remove }: ViewTopBar): void {
  const navigate = useNavigate();
  const confirmDelete = useDeleteWithConfirm(remove ? remove.run : noDelete, remove ? remove.what : '');
  const buttons: TopBarButton[] = [{ label: 'Back', to: back }];
  if (edit) buttons.push({ label: 'Edit', to: edit, variant: 'primary' });
  if (remove) {
    buttons.push({
      label: 'Delete',
      onClick: async () => {
        if (await confirmDelete(remove.id, remove.name)) navigate(remove.goTo);
      },
    });
  }
  useTopBar({ objectTitle, ...(breadcrumbs ? { breadcrumbs } : {}), buttons });
}

const noDelete = async (): Promise<void> => {};
