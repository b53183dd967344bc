/**
 * SiteLocationsUpload (/site-locations/upload/{engagementId}): a CSV or XLSX of sites for the
 * engagement. The server imports all rows or none; a refused file lists each bad row.
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ApiError } from '@core/api/client';
import { engagementSiteLocationsApi } from '@core/api/engagementSiteLocations';
import type { Engagement } from '@core/model/engagement';
import type { SiteUploadResult } from '@core/model/engagementSiteLocation';
import { RecordLoader } from '../../components/RecordLoader';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { useEngagement } from '../engagements/useEngagement';
import './site-locations.css';

/** SPEC section 8. */
export const UPLOAD_SERVER_ERROR = 'There was a server side error. Please contact your Administrator.';
export const UPLOAD_FAILED = 'Could not upload the file.';
const FORM_ID = 'site-upload-form';

export const UPLOAD_COLUMNS_HELP =
  'Columns: site_id and name (required), then any of street_address, unit_number, city, state, zip_code, country (ISO code or name), latitude, longitude, pi_name, is_virtual, is_active, site_location_type, irb_type, radius, rms_site_identification.';

function UploadForm({ engagement }: { engagement: Engagement }) {
  const api = useApi(engagementSiteLocationsApi);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [result, setResult] = useState<SiteUploadResult | null>(null);

  useTopBar({
    objectTitle: engagement.name,
    buttons: [
      { label: 'Cancel', to: pathTo('EngagementsView', { engagementId: engagement.id }) },
      { label: 'Upload', submits: FORM_ID, busy, disabled: !file, variant: 'primary' },
    ],
  });

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!file || busy) return;
    setBusy(true);
    setProblems([]);
    setMessage(null);
    setResult(null);
    try {
      setResult(await api.upload(engagement.id, file, file.name));
    } catch (error) {
      if (error instanceof ApiError && error.status >= 500) setMessage(UPLOAD_SERVER_ERROR);
      else if (error instanceof ApiError && error.status === 422 && error.errors.length > 1) {
        setMessage('Nothing was imported. Fix these rows and upload the file again:');
        setProblems(error.errors.map((e) => e.detail ?? e.title));
      } else if (error instanceof ApiError && error.status === 422) {
        setMessage(`Nothing was imported. ${error.message}`);
      } else setMessage(error instanceof ApiError ? error.message : UPLOAD_FAILED);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form id={FORM_ID} className="panel entity-form" onSubmit={submit} noValidate aria-busy={busy || undefined}>
      {message && (
        <div className="form-errors" role="alert">
          <p>{message}</p>
          {problems.length > 0 && (
            <ul className="upload-problems">
              {problems.map((p, i) => (
                <li key={i}>{p}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      {result && (
        <div className="notice notice-success" role="status">
          Imported {result.rows} row{result.rows === 1 ? '' : 's'}: {result.createdSiteLocations} new site location
          {result.createdSiteLocations === 1 ? '' : 's'}, {result.linkedSiteLocations} newly linked, {result.updatedLinks} link
          {result.updatedLinks === 1 ? '' : 's'} updated. <Link to={pathTo('SiteAssociations', { engagementId: engagement.id })}>See the linked sites</Link>
        </div>
      )}
      <div className="field">
        <label htmlFor="site-upload-file" className="field-label required">
          Sites file (.csv or .xlsx)
        </label>
        <input
          id="site-upload-file"
          className="input"
          type="file"
          accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          onChange={(event) => {
            setFile(event.target.files?.[0] ?? null);
            setResult(null);
          }}
          aria-describedby="site-upload-help"
        />
        <p className="field-hint" id="site-upload-help">
          {UPLOAD_COLUMNS_HELP} The first row is the header. All rows are imported, or none.
        </p>
      </div>
    </form>
  );
}

export default function SiteLocationsUpload() {
  return (
    <RecordLoader state={useEngagement()} resource="engagement">
      {(engagement) => <UploadForm engagement={engagement} />}
    </RecordLoader>
  );
}
