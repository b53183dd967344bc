import { useNavigate } from 'react-router-dom';
import { sponsorsApi } from '../../../core/api/sponsors';
import type { Sponsor } from '../../../core/model/sponsor';
import { formatDateTime } from '../../components/format';
import { RecordLoader } from '../../components/RecordLoader';
import { StatusBadge } from '../../components/StatusBadge';
import { useDeleteWithConfirm } from '../../components/useDeleteWithConfirm';
import { ViewFields } from '../../components/ViewFields';
import { pathTo } from '../../router';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { SPONSOR_LABELS as L } from './sponsorValues';
import { useSponsor } from './useSponsor';

function SponsorDetails({ sponsor }: { sponsor: Sponsor }) {
  const api = useApi(sponsorsApi);
  const navigate = useNavigate();
  const remove = useDeleteWithConfirm(api.remove, 'Sponsor');

  useTopBar({
    objectTitle: sponsor.name,
    buttons: [
      { label: 'Back', to: pathTo('SponsorsIndex') },
      { label: 'Edit', to: pathTo('SponsorsEdit', { id: sponsor.id }), variant: 'primary' },
      {
        label: 'Delete',
        onClick: async () => {
          if (await remove(sponsor.id)) navigate(pathTo('SponsorsIndex'));
        },
      },
    ],
  });

  return (
    <section className="panel">
      <ViewFields
        fields={[
          { label: L.name, value: sponsor.name },
          { label: L.identification, value: sponsor.identification },
          { label: L.rmsSponsorIdentifier, value: sponsor.rmsSponsorIdentifier },
          { label: L.countryName, value: sponsor.countryName },
          { label: L.isActive, value: <StatusBadge active={sponsor.isActive} /> },
          { label: L.description, value: sponsor.description, multiline: true },
          { label: L.businessPractice, value: sponsor.businessPractice, multiline: true },
          { label: L.created, value: formatDateTime(sponsor.created) },
          { label: L.modified, value: formatDateTime(sponsor.modified) },
        ]}
      />
    </section>
  );
}

export default function SponsorsView() {
  return (
    <RecordLoader state={useSponsor()} resource="sponsor">
      {(sponsor) => <SponsorDetails sponsor={sponsor} />}
    </RecordLoader>
  );
}
