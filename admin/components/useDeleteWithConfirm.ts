import { ApiError } from '@core/api/client';
import { useNotify } from '../state/notices';
import { deleteConfirmation, useConfirm } from './confirm/ConfirmProvider';

export const DELETE_FAILED = 'Could not delete data';

/**
 * Delete after asking (SPEC: 'Are you sure you want to delete this ?', naming the record when
 * its name is given), then report the outcome. Resolves true when the record is gone.
 */
export function useDeleteWithConfirm(remove: (id: string) => Promise<void>, what: string) {
  const confirm = useConfirm();
  const notify = useNotify();
  return async (id: string, name?: string): Promise<boolean> => {
    const confirmed = await confirm({ title: `Delete ${what}`, message: deleteConfirmation(what, name), danger: true });
    if (!confirmed) return false;
    try {
      await remove(id);
      notify('success', `${what} deleted.`);
      return true;
    } catch (error) {
      notify('error', error instanceof ApiError ? error.message : DELETE_FAILED);
      return false;
    }
  };
}
