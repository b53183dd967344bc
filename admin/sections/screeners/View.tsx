import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { surveyLabel } from '@core/model/surveyNaming';
import { ApiError } from '@core/api/client';
import { mediaChannelsApi } from '@core/api/mediaChannels';
import { screenersApi } from '@core/api/screeners';
import { MEDIA_CHANNEL_DEFAULT_SORT, MEDIA_CHANNEL_SORTS, MEDIA_CHANNEL_TYPES, type MediaChannel } from '@core/model/mediaChannel';
import { SCREENER_OUTCOMES, SCREENER_STYLE_GROUPS, type Screener, type ScreenerOutcome, type ScreenerStyleGroup } from '@core/model/screener';
import { hasRole } from '@core/model/user';
import { formatDateTime, textOfHtml } from '../../components/format';
import { type Column, DataTable } from '../../components/list/DataTable';
import { ListView } from '../../components/list/ListView';
import { useResourceList } from '../../components/list/useResourceList';
import { activationActions } from '../../components/list/bulk';
import { activeFilter } from '../../components/list/filters';
import { RecordView } from '../../components/RecordView';
import { FunnelPanel } from '../../components/funnel/FunnelPanel';
import { StatusBadge } from '../../components/StatusBadge';
import { useDeleteWithConfirm } from '../../components/useDeleteWithConfirm';
import { displayValue, ViewFields } from '../../components/ViewFields';
import { useConfirm } from '../../components/confirm/ConfirmProvider';
import { useAsync } from '../../hooks/useAsync';
import { pathTo } from '../../routing/routes';
import { currentUserAtom } from '../../state/auth';
import { useNotify } from '../../state/notices';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { sponsorTrail } from '../sponsors/sponsorTrail';
import { ContactFieldsPanel } from './ContactFieldsPanel';
import { ScreenerFlowPanel } from './ScreenerFlowPanel';
import { useScreener } from './useScreener';
import { OUTCOME_LABELS, SCREENER_LABELS as L, STYLE_GROUP_LABELS, colourLabel } from './screenerValues';
import { ErrorText } from '../../components/form/FormErrors';
import './screeners.css';

function StylesPanel({ screener }: { screener: Screener }) {
  return (
    <section className="panel" id="styles" aria-labelledby="styles-title">
      <h2 id="styles-title">Styles</h2>
      <ViewFields
        fields={[
          ...(Object.entries(SCREENER_STYLE_GROUPS) as [ScreenerStyleGroup, readonly string[]][]).flatMap(([group, names]) =>
            names.map((name) => {
              const value = (screener.styles[group] as Record<string, string | null>)[name] ?? null;
              return {
                label: colourLabel(group, name),
                value: value ? (
                  <span>
                    <span className="colour-swatch" aria-hidden="true" style={{ background: `#${value.length === 2 ? value.repeat(3) : value}` }} /> {value}
                  </span>
                ) : (
                  'Default'
                ),
              };
            }),
          ),
          { label: `${STYLE_GROUP_LABELS.backButton} Shown`, value: screener.styles.backButton.isShown },
        ]}
      />
    </section>
  );
}

function MessagesPanel({ screener }: { screener: Screener }) {
  const columns: Column<ScreenerOutcome>[] = [
    { id: 'outcome', header: 'Outcome', rowHeader: true, cell: (outcome) => OUTCOME_LABELS[outcome] },
    { id: 'consentMessage', header: 'Consent Message', cell: (outcome) => displayValue(textOfHtml(screener.messages[outcome].consentMessage)) },
    {
      id: 'contactFormMessage',
      header: 'Contact Form Message',
      cell: (outcome) => displayValue(textOfHtml(screener.messages[outcome].contactFormMessage)),
    },
    {
      id: 'translations',
      header: 'Translations',
      cell: (outcome) =>
        Object.entries(screener.messages[outcome].translations ?? {}).map(([code, pair]) => (
          <div key={code}>
            <strong>{code}</strong>: {[pair.consentMessage, pair.contactFormMessage].map(textOfHtml).filter(Boolean).join(' / ')}
          </div>
        )),
    },
  ];
  return (
    <section className="panel" id="messages" aria-labelledby="messages-title">
      <h2 id="messages-title">Messages</h2>
      <DataTable caption="Messages" columns={columns} rows={SCREENER_OUTCOMES} rowKey={(outcome) => outcome} emptyMessage="No messages." />
    </section>
  );
}

function MediaChannelsPanel({ screener }: { screener: Screener }) {
  const api = useApi(mediaChannelsApi);
  const list = useResourceList<MediaChannel>({
    load: api.list,
    loadCsv: api.listCsv,
    defaultSort: MEDIA_CHANNEL_DEFAULT_SORT,
    sortable: MEDIA_CHANNEL_SORTS,
    filters: { screenerId: screener.id },
    filterNames: ['channelType', 'isActive'],
  });
  return (
    <section className="panel" id="media-channels" aria-labelledby="media-channels-title">
      <div className="panel-heading">
        <h2 id="media-channels-title">Media Channels</h2>
        <Link className="btn btn-small btn-secondary" to={pathTo('MediaChannelAdd', { screenerId: screener.id })}>
          Add Media Channel
        </Link>
      </div>
      <ListView
        list={list}
        caption="This screener's media channels"
        emptyMessage="No media channels yet."
        filters={[{ kind: 'select', name: 'channelType', label: 'Type', options: MEDIA_CHANNEL_TYPES.map((t) => ({ value: t, label: t })) }, activeFilter()]}
        bulk={{ noun: ['media channel', 'media channels'], label: (m) => m.title, actions: activationActions<MediaChannel>(api.update) }}
        columns={[
          { id: 'title', header: 'Title', sortField: 'title', cell: (m) => <Link to={pathTo('MediaChannelView', { id: m.id })}>{m.title}</Link> },
          { id: 'domain', header: 'Domain', sortField: 'domain', cell: (m) => m.domain },
          { id: 'channelType', header: 'Type', sortField: 'channelType', cell: (m) => m.channelType },
          { id: 'active', header: 'Active', sortField: 'isActive', cell: (m) => <StatusBadge active={m.isActive} /> },
        ]}
      />
    </section>
  );
}

function SurveysPanel({ screener, canEdit }: { screener: Screener; canEdit: boolean }) {
  const api = useApi(screenersApi);
  const surveys = useAsync(() => api.surveys(screener.id), [api, screener.id]);
  const [error, setError] = useState<string | null>(null);
  const toggle = async (id: string) => {
    setError(null);
    try {
      await api.toggleSurvey(id);
      surveys.reload();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'Could not save data');
    }
  };
  return (
    <section className="panel" id="surveys" aria-labelledby="surveys-title">
      <div className="panel-heading">
        <h2 id="surveys-title">Surveys</h2>
        {canEdit && (
          <span className="row-actions">
            <Link className="btn btn-small btn-secondary" to={pathTo('VersionedSurveyAdd', { screenerId: screener.id })}>
              New Survey
            </Link>
            <Link className="btn btn-small btn-secondary" to={pathTo('ScreenerAssociateSurveys', { screenerId: screener.id })}>
              Associate Surveys
            </Link>
          </span>
        )}
      </div>
      <ErrorText message={error} />
      {surveys.data && surveys.data.items.length === 0 && <p className="muted">No surveys yet.</p>}
      <ul className="plain-list">
        {surveys.data?.items.map((s) => (
          <li key={s.id}>
            {surveyLabel(s)} <StatusBadge active={s.isActive} />{' '}
            {canEdit && (
              <button
                type="button"
                className="btn btn-small btn-secondary"
                aria-label={`${s.isActive ? 'Deactivate' : 'Activate'} ${surveyLabel(s)}`}
                onClick={() => void toggle(s.id)}
              >
                {s.isActive ? 'Deactivate' : 'Activate'}
              </button>
            )}
          </li>
        ))}
      </ul>
      <ScreenerFlowPanel screenerId={screener.id} />
    </section>
  );
}

function ScreenerDetails({ screener, reload }: { screener: Screener; reload: () => void }) {
  const api = useApi(screenersApi);
  const navigate = useNavigate();
  const notify = useNotify();
  const confirm = useConfirm();
  const user = useAtomValue(currentUserAtom);
  const canEdit = hasRole(user, 'Admin', 'Super User');
  const isClone = screener.clonedFromId !== null;
  const remove = useDeleteWithConfirm(isClone ? api.removeClone : api.remove, isClone ? 'Screener clone' : 'Screener');

  const run = async (action: () => Promise<unknown>, done: string) => {
    try {
      await action();
      notify('success', done);
      reload();
    } catch (e) {
      notify('error', e instanceof ApiError ? e.message : 'Could not save data');
    }
  };

  useTopBar({
    objectTitle: screener.title,
    breadcrumbs: [...sponsorTrail(screener), { label: screener.title }],
    buttons: [
      { label: 'Back', to: pathTo('SponsorsView', { id: screener.sponsorId }) },
      ...(canEdit
        ? [
            { label: 'Edit', to: pathTo('ScreenerEdit', { screenerId: screener.id }), variant: 'primary' as const, disabled: screener.isLocked },
            {
              label: screener.isLocked ? 'Unlock' : 'Lock',
              onClick: () =>
                void run(() => api.update(screener.id, { isLocked: !screener.isLocked }), screener.isLocked ? 'Screener unlocked.' : 'Screener locked.'),
            },
            {
              label: 'Clone',
              onClick: async () => {
                if (!(await confirm({ title: 'Clone screener', message: `Make a copy of <b>${screener.title.replace(/[<>&]/g, '')}</b>?` }))) return;
                try {
                  const copy = await api.clone(screener.id);
                  notify('success', `Cloned as ${copy.title}.`);
                  navigate(pathTo('ScreenerView', { screenerId: copy.id }));
                } catch (e) {
                  notify('error', e instanceof ApiError ? e.message : 'Could not save data');
                }
              },
            },
            {
              label: 'Delete',
              onClick: async () => {
                if (await remove(screener.id, screener.title)) navigate(pathTo('SponsorsView', { id: screener.sponsorId }));
              },
            },
          ]
        : []),
    ],
  });

  return (
    <>
      {screener.isLocked && (
        <p className="notice screener-locked" role="status">
          This screener is locked: unlock it to change it.
        </p>
      )}
      <section className="panel">
        <ViewFields
          fields={[
            { label: L.title, value: screener.title },
            { label: L.sponsorName, value: <Link to={pathTo('SponsorsView', { id: screener.sponsorId })}>{screener.sponsorName}</Link> },
            { label: L.type, value: screener.screenerType },
            { label: L.isActive, value: <StatusBadge active={screener.isActive} /> },
            { label: L.isLocked, value: screener.isLocked },
            { label: L.isTest, value: screener.isTest },
            { label: L.isInterestVisible, value: screener.isInterestVisible },
            {
              label: L.engagements,
              value: screener.engagements.length
                ? screener.engagements.map((e, i) => (
                    <span key={e.id}>
                      {i > 0 && ', '}
                      <Link to={pathTo('EngagementsView', { engagementId: e.id })}>{e.name}</Link>
                    </span>
                  ))
                : null,
            },
            { label: L.languages, value: screener.languages.length ? screener.languages.map((l) => l.description).join(', ') : null },
            {
              label: L.clonedFrom,
              value: isClone ? <Link to={pathTo('ScreenerView', { screenerId: screener.clonedFromId })}>Screener {screener.clonedFromId}</Link> : null,
            },
            { label: L.description, value: screener.description, multiline: true },
            { label: L.created, value: formatDateTime(screener.created) },
            { label: L.modified, value: formatDateTime(screener.modified) },
          ]}
        />
      </section>
      <ContactFieldsPanel screenerId={screener.id} canEdit={canEdit && !screener.isLocked} />
      <MediaChannelsPanel screener={screener} />
      <FunnelPanel filters={{ screenerId: screener.id }} of={screener.title} groupBy="mediaChannel" />
      <SurveysPanel screener={screener} canEdit={canEdit && !screener.isLocked} />
      <StylesPanel screener={screener} />
      <MessagesPanel screener={screener} />
    </>
  );
}

export default function ScreenerView() {
  const state = useScreener();
  return (
    <RecordView state={state} resource="screener" history="screeners" labels={L}>
      {(screener) => <ScreenerDetails screener={screener} reload={state.reload} />}
    </RecordView>
  );
}
