import { RecordLoader } from '../../components/RecordLoader';
import { SponsorForm } from './SponsorForm';
import { useSponsor } from './useSponsor';

export default function SponsorsEdit() {
  return (
    <RecordLoader state={useSponsor()} resource="sponsor">
      {(sponsor) => <SponsorForm sponsor={sponsor} />}
    </RecordLoader>
  );
}
