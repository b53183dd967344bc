import { RecordLoader } from '../../components/RecordLoader';
import { UserForm } from './UserForm';
import { useUser } from './useUser';

export default function UsersEdit() {
  const state = useUser();
  return (
    <RecordLoader state={state} resource="user">
      {(user) => <UserForm user={user} onChanged={state.reload} />}
    </RecordLoader>
  );
}
