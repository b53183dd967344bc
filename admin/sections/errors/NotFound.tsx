import { NotFoundMessage } from '../../components/ErrorMessages';

export default function NotFound() {
  return <NotFoundMessage />;
}
