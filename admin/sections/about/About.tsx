/** About (SPEC breadcrumb /about): the product, its version and build, the database it runs on, the API reference and the licences it ships with. */
import { aboutApi } from '@core/api/about';
import { API_REFERENCE_PATH, OPENAPI_PATH, type About } from '@core/model/about';
import { formatDateTime } from '../../components/format';
import { DataTable } from '../../components/list/DataTable';
import { RecordLoader } from '../../components/RecordLoader';
import { ViewFields } from '../../components/ViewFields';
import { useAsync } from '../../hooks/useAsync';
import { useApi } from '../../state/services';

function Licences() {
  const api = useApi(aboutApi);
  const licences = useAsync(() => api.licences(), [api]);
  return (
    <section className="panel" id="licences" aria-labelledby="licences-title">
      <h2 id="licences-title">Licences</h2>
      <p className="muted">The open-source packages the product runs with, by the licence each declares.</p>
      <RecordLoader state={licences} resource="licence list">
        {(rows) => (
          <DataTable
            caption="Licences of the packages the product runs with"
            rows={rows}
            rowKey={(r) => r.id}
            emptyMessage="No packages."
            columns={[
              {
                id: 'name',
                header: 'Package',
                cell: (r) =>
                  r.homepage ? (
                    <a href={r.homepage} target="_blank" rel="noopener noreferrer">
                      {r.name}
                    </a>
                  ) : (
                    r.name
                  ),
              },
              { id: 'version', header: 'Version', cell: (r) => r.version },
              { id: 'licence', header: 'Licence', cell: (r) => r.licence },
            ]}
          />
        )}
      </RecordLoader>
    </section>
  );
}

function Facts({ about }: { about: About }) {
  return (
    <section className="panel" aria-labelledby="about-title">
      <h2 id="about-title">{about.productName}</h2>
      <p>{about.description}</p>
      <ViewFields
        fields={[
          { label: 'Version', value: about.version },
          { label: 'Built', value: about.buildTime ? formatDateTime(about.buildTime) : 'Not built: served from the sources (development)' },
          { label: 'Database', value: `${about.databaseKind} · ${about.databaseVersion}` },
          {
            label: 'API reference',
            value: (
              <>
                <a href={API_REFERENCE_PATH}>API reference</a> · <a href={OPENAPI_PATH}>OpenAPI document</a>
              </>
            ),
          },
          { label: 'Licences', value: <a href="#licences">Licences of the packages it runs with</a> },
        ]}
      />
    </section>
  );
}

export default function AboutScreen() {
  const api = useApi(aboutApi);
  const about = useAsync(() => api.get(), [api]);
  return (
    <>
      <RecordLoader state={about} resource="product facts">
        {(facts) => <Facts about={facts} />}
      </RecordLoader>
      <Licences />
    </>
  );
}
