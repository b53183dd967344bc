import { UserForm } from './UserForm';

export default function UsersAdd() {
  return <UserForm />;
}
