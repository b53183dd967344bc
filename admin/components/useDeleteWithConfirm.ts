import { ApiError } from '@core/api/client';
import { useNotify } from '../state/notices';
import { DELETE_CONFIRMATION, useConfirm } from './confirm/ConfirmProvider';

export const DELETE_FAILED = 'Could not delete data';

/**
 * Delete after asking (SPEC: 'Are you sure you want to delete this ?'), then report the
 * outcome. Resolves true when the record is gone.
 */
export function useDeleteWithConfirm(remove: (id: string) => Promise<void>, what: string) {
  const confirm = useConfirm();
  const notify = useNotify();
  return async (id: string): Promise<boolean> => {
    const confirmed = await confirm({ title: `Delete ${what}`, message: DELETE_CONFIRMATION, danger: true });
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
