import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { engagementsApi } from '@core/api/engagements';
import { lookupsApi } from '@core/api/lookups';
import { sponsorsApi } from '@core/api/sponsors';
import { usersApi } from '@core/api/users';
import {
  ENGAGEMENT_PHASES,
  EngagementInput,
  engagementDateIssues,
  type Engagement,
  type EngagementLookupRelationship,
  ENGAGEMENT_OWNER_ROLES,
} from '@core/model/engagement';
import { LOOKUP_TYPES } from '@core/model/lookup';
import { Checkbox } from '../../components/form/Checkbox';
import { EntityForm, saveButtons } from '../../components/form/EntityForm';
import { IDENTIFICATION_TAKEN } from '../../components/form/messages';
import { MultiCheckList } from '../../components/form/MultiCheckList';
import { loadedOptions, Select } from '../../components/form/Select';
import { TextArea } from '../../components/form/TextArea';
import { TextField } from '../../components/form/TextField';
import { WholeNumberField } from '../../components/form/WholeNumberField';
import { useEntityForm } from '../../components/form/useEntityForm';
import { useOptions } from '../../hooks/useOptions';
import { pathTo } from '../../routing/routes';
import { useNotify } from '../../state/notices';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { useBusyCall } from '../../hooks/useBusyCall';
import { sponsorTrail } from '../sponsors/sponsorTrail';
import { ENGAGEMENT_LABELS as L, toEngagementFormValues, toEngagementInput, toLookupLists, TARGET_MEASURE_OPTIONS, type LookupLists } from './engagementValues';

const FORM_ID = 'engagement-form';
export const ADD_INDICATION_FAILED = 'Could not add the indication.';

const LOOKUP_LISTS: { name: EngagementLookupRelationship; type: (typeof LOOKUP_TYPES)[keyof typeof LOOKUP_TYPES] }[] = [
  { name: 'campaignTypes', type: LOOKUP_TYPES.campaignTypes },
  { name: 'indications', type: LOOKUP_TYPES.indications },
  { name: 'targetGroups', type: LOOKUP_TYPES.targetGroups },
  { name: 'therapeuticAreas', type: LOOKUP_TYPES.therapeuticAreas },
];

const asOptions = (items: { id: string; name: string }[]) => items.map((i) => ({ value: String(i.id), label: i.name }));

/** A new indication typed into the form, created on the spot and chosen. */
function AddIndication({ onAdded }: { onAdded: (option: { value: string; label: string }) => void }) {
  const api = useApi(lookupsApi);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { busy, run } = useBusyCall(setError);
  const add = async () => {
    const trimmed = name.trim();
    if (!trimmed || busy) return;
    setError(null);
    await run(async () => {
      const created = await api.addIndication(trimmed);
      onAdded({ value: String(created.id), label: created.name });
      setName('');
    }, ADD_INDICATION_FAILED);
  };
  return (
    <div className="add-lookup">
      <input
        className="input"
        aria-label="New indication"
        placeholder="New indication"
        value={name}
        maxLength={255}
        onChange={(event) => setName(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            void add();
          }
        }}
      />
      <button type="button" className="btn btn-small btn-secondary" onClick={() => void add()} disabled={busy || !name.trim()}>
        Add indication
      </button>
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}

/** Adds an engagement (for `selectedSponsorId` when given), or edits `engagement`. */
export function EngagementForm({ engagement, selectedSponsorId }: { engagement?: Engagement; selectedSponsorId?: string }) {
  const api = useApi(engagementsApi);
  const lookups = useApi(lookupsApi);
  const sponsors = useApi(sponsorsApi);
  const navigate = useNavigate();
  const notify = useNotify();
  const [lists, setLists] = useState<LookupLists>(toLookupLists(engagement));
  const form = useEntityForm(toEngagementFormValues(engagement, selectedSponsorId), { also: lists });

  const sponsorOptions = useOptions(
    async () =>
      (await sponsors.list({ limit: 1000, sort: 'name', fields: 'name,identification' })).items.map((s) => ({
        value: String(s.id),
        label: `${s.name} (${s.identification})`,
      })),
    [sponsors],
    'Could not load the sponsors.',
  );
  const users = useApi(usersApi);
  // Who may own it: active Admins, Super Users and Users; the current owner stays a choice even if the list cannot be read.
  const ownerOptions = useOptions(
    async () => {
      const staff = (await users.list({ limit: 1000, sort: 'username', isActive: true })).items
        .filter((u) => u.roles.some((r) => (ENGAGEMENT_OWNER_ROLES as readonly string[]).includes(r.name)))
        .map((u) => ({ value: String(u.id), label: u.username }));
      const current = engagement?.ownerUserId;
      return current && !staff.some((o) => o.value === String(current))
        ? [{ value: String(current), label: engagement.ownerUsername ?? `#${current}` }, ...staff]
        : staff;
    },
    [users],
    'Could not load the staff.',
  );
  const providerOptions = useOptions(async () => asOptions(await lookups.all(LOOKUP_TYPES.rmsProviders)), [lookups], 'Could not load the providers.');
  const campaignTypes = useOptions(async () => asOptions(await lookups.all(LOOKUP_TYPES.campaignTypes)), [lookups], 'Could not load the campaign types.');
  const indications = useOptions(async () => asOptions(await lookups.indications()), [lookups], 'Could not load the indications.');
  const targetGroups = useOptions(async () => asOptions(await lookups.all(LOOKUP_TYPES.targetGroups)), [lookups], 'Could not load the target groups.');
  const therapeuticAreas = useOptions(
    async () => asOptions(await lookups.all(LOOKUP_TYPES.therapeuticAreas)),
    [lookups],
    'Could not load the therapeutic areas.',
  );
  const listOptions = { campaignTypes, indications, targetGroups, therapeuticAreas };

  const cancelTo = engagement
    ? pathTo('EngagementsView', { engagementId: engagement.id })
    : selectedSponsorId
      ? pathTo('SponsorsView', { id: selectedSponsorId })
      : pathTo('EngagementsIndex');

  useTopBar({
    objectTitle: engagement?.name,
    // SPEC: engagement edit's trail is Sponsors > sponsor > view Engagement.
    breadcrumbs: engagement
      ? [...sponsorTrail(engagement), { label: engagement.name, to: pathTo('EngagementsView', { engagementId: engagement.id }) }, { label: 'Edit' }]
      : undefined,
    buttons: saveButtons(cancelTo, FORM_ID, form.busy),
  });

  const onSubmit = form.handleSubmit(async (values) => {
    const input = form.parse(EngagementInput, toEngagementInput(values));
    if (!input) return;
    const dateIssues = engagementDateIssues(input);
    if (Object.keys(dateIssues).length) {
      form.fail(dateIssues);
      return;
    }
    if (!(await api.isIdentificationUnique(input.identification, engagement?.id))) {
      form.fail({ identification: IDENTIFICATION_TAKEN });
      return;
    }
    // A new engagement without a chosen owner is its creator's (the server's default).
    const saved = engagement
      ? await api.update(engagement.id, input, lists)
      : await api.create(values.ownerUserId === '' ? { ...input, ownerUserId: undefined } : input, lists);
    notify('success', engagement ? `Engagement ${saved.name} saved.` : `Engagement ${saved.name} added.`);
    navigate(pathTo('EngagementsView', { engagementId: saved.id }));
  });

  const date = (name: 'startDate' | 'endDate' | 'mediaLiveDate' | 'mediaEndDate' | 'amendmentDate' | 'firstPatientInDate' | 'lastPatientInDate') => (
    <TextField label={L[name]} type="date" {...form.text(name)} />
  );

  return (
    <EntityForm id={FORM_ID} form={form} onSubmit={onSubmit}>
      <TextField label={L.name} required maxLength={255} {...form.text('name')} />
      <Select label={L.sponsorId} required emptyLabel="Choose a sponsor" {...loadedOptions(sponsorOptions)} {...form.text('sponsorId')} />
      <TextField label={L.identification} required maxLength={64} {...form.text('identification')} />
      <TextField label={L.sponsorContact} maxLength={255} {...form.text('sponsorContact')} />
      {date('startDate')}
      {date('endDate')}
      {date('mediaLiveDate')}
      {date('mediaEndDate')}
      <WholeNumberField label={L.radius} {...form.text('radius')} />
      <WholeNumberField
        label={L.duplicateWindowDays}
        hint="The same person referred again within this many days is kept as a duplicate and not sent; 0 never."
        {...form.text('duplicateWindowDays')}
      />
      <WholeNumberField
        label={L.firstContactHours}
        hint="The referral queue shows a referral overdue when nobody reached the person by then."
        {...form.text('firstContactHours')}
      />
      <WholeNumberField label={L.staleDays} hint="An open referral nobody updated for this long shows as stale." {...form.text('staleDays')} />
      <WholeNumberField label={L.targetParticipantCount} {...form.text('targetParticipantCount')} />
      <Select label={L.targetMeasure} options={TARGET_MEASURE_OPTIONS} {...form.text('targetMeasure')} />
      <TextField label={L.protocolIdentifier} maxLength={255} {...form.text('protocolIdentifier')} />
      <TextField label={L.protocolVersion} maxLength={64} {...form.text('protocolVersion')} />
      <TextField label={L.studySubjectIdentifier} maxLength={255} {...form.text('studySubjectIdentifier')} />
      <Select label={L.phase} options={ENGAGEMENT_PHASES.map((p) => ({ value: p, label: p }))} emptyLabel="No phase" {...form.text('phase')} />
      {date('amendmentDate')}
      {date('firstPatientInDate')}
      {date('lastPatientInDate')}
      <TextField label={L.g6Url} type="url" maxLength={2000} {...form.text('g6Url')} />
      <Select label={L.ownerUserId} emptyLabel={engagement ? 'Nobody' : 'Me (the creator)'} {...loadedOptions(ownerOptions)} {...form.text('ownerUserId')} />
      <Select label={L.rmsProviderId} emptyLabel="No provider" {...loadedOptions(providerOptions)} {...form.text('rmsProviderId')} />
      <TextField label={L.rmsSponsorIdentifier} maxLength={255} {...form.text('rmsSponsorIdentifier')} />
      <TextField label={L.deiTarget} type="number" inputMode="decimal" {...form.text('deiTarget')} />
      <div className="span-2">
        <TextArea label={L.description} {...form.text('description')} />
      </div>
      {LOOKUP_LISTS.map(({ name }) => (
        <div key={name}>
          <MultiCheckList
            label={L[name]}
            name={name}
            {...loadedOptions(listOptions[name])}
            error={form.errors[name]}
            value={lists[name]}
            onChange={(value) => setLists((previous) => ({ ...previous, [name]: value }))}
          />
          {name === 'indications' && (
            <AddIndication
              onAdded={(option) => {
                indications.add(option);
                setLists((previous) => ({ ...previous, indications: [...previous.indications, option.value] }));
              }}
            />
          )}
        </div>
      ))}
      <Checkbox label={L.rareDisease} {...form.checkbox('rareDisease')} />
      <Checkbox label={L.cellGeneTherapy} {...form.checkbox('cellGeneTherapy')} />
      <Checkbox label={L.deiFocus} {...form.checkbox('deiFocus')} />
      <Checkbox label={L.isActive} {...form.checkbox('isActive')} />
    </EntityForm>
  );
}
