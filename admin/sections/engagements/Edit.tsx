import { RecordLoader } from '../../components/RecordLoader';
import { EngagementForm } from './EngagementForm';
import { useEngagement } from './useEngagement';

export default function EngagementsEdit() {
  return (
    <RecordLoader state={useEngagement()} resource="engagement">
      {(engagement) => <EngagementForm engagement={engagement} />}
    </RecordLoader>
  );
}
