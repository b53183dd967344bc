/** The calls the engagement's view makes first, in one place: the screen makes them, and the route asks for them ahead (routing/ahead.ts). */
import { engagementFilesApi } from '@core/api/engagementFiles';
import { engagementSiteLocationsApi } from '@core/api/engagementSiteLocations';
import { engagementsApi } from '@core/api/engagements';
import { funnelApi } from '@core/api/funnel';
import { leadsApi } from '@core/api/leads';
import { messageSettingsApi } from '@core/api/messages';
import { referralsApi } from '@core/api/referrals';
import { funnelParams } from '../../components/funnel/funnelQuery';
import { leadsWithinReachParams } from '../../components/LeadsWithinReach';
import { quietly, type Ahead } from '../../routing/ahead';

/** The view shows the first sites and links to the rest. */
export const sitePreviewParams = (engagementId: string) => ({ engagementId, limit: 10 });
export const engagementFilesParams = (engagementId: string) => ({ engagementId, limit: 100 });

export const engagementViewAhead: Ahead = ({ client, params }) => {
  const id = params.engagementId;
  if (!id) return;
  quietly(
    engagementsApi(client).get(id),
    referralsApi(client).counts(id),
    funnelApi(client).rows(funnelParams({ engagementId: id }, 'none')),
    engagementSiteLocationsApi(client).list(sitePreviewParams(id)),
    engagementFilesApi(client).list(engagementFilesParams(id)),
    messageSettingsApi(client).list(id),
    leadsApi(client).list(leadsWithinReachParams({ engagementId: id })),
  );
};
