import { RecordLoader } from '../../components/RecordLoader';
import { SiteLocationForm } from './SiteLocationForm';
import { useSiteLocation } from './useSiteLocation';

export default function SiteLocationsEdit() {
  return (
    <RecordLoader state={useSiteLocation()} resource="site location">
      {(site) => <SiteLocationForm site={site} />}
    </RecordLoader>
  );
}
