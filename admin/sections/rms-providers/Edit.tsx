import { RecordLoader } from '../../components/RecordLoader';
import { ProviderForm } from './ProviderForm';
import { useProvider } from './useProvider';

export default function RmsProvidersEdit() {
  return (
    <RecordLoader state={useProvider()} resource="record system">
      {(provider) => <ProviderForm provider={provider} />}
    </RecordLoader>
  );
}
