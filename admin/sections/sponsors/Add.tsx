import { SponsorForm } from './SponsorForm';

export default function SponsorsAdd() {
  return <SponsorForm />;
}
