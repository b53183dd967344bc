import { useParams } from 'react-router-dom';
import { ScreenerForm } from './ScreenerForm';

export default function ScreenerAdd() {
  const { selectedSponsorId = '' } = useParams();
  return <ScreenerForm key={selectedSponsorId} sponsorId={selectedSponsorId} />;
}
