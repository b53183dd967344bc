import { SiteLocationForm } from './SiteLocationForm';

export default function SiteLocationsAdd() {
  return <SiteLocationForm />;
}
