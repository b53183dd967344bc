import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import { engagementsApi } from '@core/api/engagements';
import { sponsorsApi } from '@core/api/sponsors';
import { ENGAGEMENT_DEFAULT_SORT, ENGAGEMENT_SORTS } from '@core/model/engagement';
import { ListView } from '../../components/list/ListView';
import { useResourceList } from '../../components/list/useResourceList';
import { engagementColumns } from '../engagements/Index';
import { SponsorScreeners } from '../screeners/SponsorScreeners';
import { SPONSOR_FIGURES, type Sponsor } from '@core/model/sponsor';
import { hasRole } from '@core/model/user';
import { useDeleteWithConfirm } from '../../components/useDeleteWithConfirm';
import { RecordView } from '../../components/RecordView';
import { useViewTopBar } from '../../components/useViewTopBar';
import { activeField, multilineField, recordFields, stampFields, ViewFields } from '../../components/ViewFields';
import { pathTo } from '../../routing/routes';
import { currentUserAtom } from '../../state/auth';
import { useApi } from '../../state/services';
import { SPONSOR_LABELS as L } from './sponsorValues';
import { useSponsor } from './useSponsor';

/** The sponsor's engagements, with an Add that preselects the sponsor. */
function SponsorEngagements({ sponsor }: { sponsor: Sponsor }) {
  const api = useApi(engagementsApi);
  const list = useResourceList({ load: api.list, defaultSort: ENGAGEMENT_DEFAULT_SORT, sortable: ENGAGEMENT_SORTS, filters: { sponsorId: sponsor.id } });
  const remove = useDeleteWithConfirm(api.remove, 'Engagement');
  return (
    <section className="panel" id="engagements" aria-labelledby="sponsor-engagements-title">
      <div className="panel-heading">
        <h2 id="sponsor-engagements-title">Engagements</h2>
        <Link className="btn btn-small btn-secondary" to={pathTo('EngagementsAdd', { selectedSponsorId: sponsor.id })}>
          Add Engagement
        </Link>
      </div>
      <ListView list={list} columns={engagementColumns(remove, list.reload, false)} caption="Sponsor engagements" emptyMessage="No engagements yet." />
    </section>
  );
}

function SponsorDetails({ sponsor }: { sponsor: Sponsor }) {
  const api = useApi(sponsorsApi);
  // Sponsors are created and deleted by Admins and Super Users only (the server refuses others).
  const canDelete = hasRole(useAtomValue(currentUserAtom), 'Admin', 'Super User');
  useViewTopBar({
    objectTitle: sponsor.name,
    back: pathTo('SponsorsIndex'),
    edit: pathTo('SponsorsEdit', { id: sponsor.id }),
    remove: canDelete && { run: api.remove, what: 'Sponsor', id: sponsor.id, name: sponsor.name, goTo: pathTo('SponsorsIndex') },
  });
  return (
    <section className="panel">
      <ViewFields
        fields={recordFields(L, sponsor, [
          'name',
          'identification',
          'rmsSponsorIdentifier',
          'countryName',
          activeField(L, sponsor),
          multilineField(L.description, sponsor.description),
          multilineField(L.businessPractice, sponsor.businessPractice),
          ...SPONSOR_FIGURES,
          ...stampFields(L, sponsor),
        ])}
      />
    </section>
  );
}

export default function SponsorsView() {
  return (
    <RecordView state={useSponsor()} resource="sponsor" history="sponsors" labels={L}>
      {(sponsor) => (
        <>
          <SponsorDetails sponsor={sponsor} />
          <SponsorEngagements sponsor={sponsor} />
          <SponsorScreeners sponsorId={sponsor.id} />
        </>
      )}
    </RecordView>
  );
}
