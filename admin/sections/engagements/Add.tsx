import { useParams } from 'react-router-dom';
import { EngagementForm } from './EngagementForm';

export default function EngagementsAdd() {
  const { selectedSponsorId } = useParams();
  return <EngagementForm key={selectedSponsorId ?? ''} selectedSponsorId={selectedSponsorId} />;
}
