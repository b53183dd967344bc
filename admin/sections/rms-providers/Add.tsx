import { ProviderForm } from './ProviderForm';

export default function RmsProvidersAdd() {
  return <ProviderForm />;
}
