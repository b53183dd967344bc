import { ForbiddenMessage } from '../../components/ErrorMessages';

export default function Forbidden() {
  return <ForbiddenMessage />;
}
