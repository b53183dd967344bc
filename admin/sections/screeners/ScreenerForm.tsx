import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { engagementsApi } from '@core/api/engagements';
import { screenersApi } from '@core/api/screeners';
import { sponsorsApi } from '@core/api/sponsors';
import { SCREENER_DEFAULT_TYPE, SCREENER_OUTCOMES, ScreenerInput, type Screener, type ScreenerOutcome } from '@core/model/screener';
import { Checkbox } from '../../components/form/Checkbox';
import { FormErrors } from '../../components/form/FormErrors';
import { MultiCheckList } from '../../components/form/MultiCheckList';
import { loadedOptions } from '../../components/form/Select';
import { TextArea } from '../../components/form/TextArea';
import { TextField } from '../../components/form/TextField';
import { useEntityForm } from '../../components/form/useEntityForm';
import { useAsync } from '../../hooks/useAsync';
import { languageLabel, useActiveLanguages } from '../../hooks/useLanguages';
import { useOptions } from '../../hooks/useOptions';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { screenerTrail, sponsorTrail } from '../sponsors/sponsorTrail';
import { StylesFields, styleIssues } from './StylesFields';
import {
  OUTCOME_LABELS,
  SCREENER_LABELS as L,
  toMessagesFormValues,
  toMessagesInput,
  toStyleFormValues,
  toStylesInput,
  type MessageFormValue,
  type MessagesFormValues,
} from './screenerValues';
import './screeners.css';

const FORM_ID = 'screener-form';
type MessageKind = 'consentMessage' | 'contactFormMessage';
const KIND_LABELS: Record<MessageKind, string> = { consentMessage: 'Consent Message', contactFormMessage: 'Contact Form Message' };

/** One outcome's two messages, in the default language and each chosen additional language. */
function OutcomeMessages({
  outcome,
  value,
  languages,
  onChange,
}: {
  outcome: ScreenerOutcome;
  value: MessageFormValue;
  languages: { isoCode: string; description: string }[];
  onChange: (value: MessageFormValue) => void;
}) {
  const label = OUTCOME_LABELS[outcome];
  const setTranslation = (code: string, kind: MessageKind, text: string) => {
    const current = value.translations[code] ?? { consentMessage: '', contactFormMessage: '' };
    onChange({ ...value, translations: { ...value.translations, [code]: { ...current, [kind]: text } } });
  };
  return (
    <fieldset className="outcome-messages">
      <legend>{label}</legend>
      <div className="form-grid">
        {(['consentMessage', 'contactFormMessage'] as const).map((kind) => (
          <div key={kind}>
            <TextArea
              label={`${label} ${KIND_LABELS[kind]}`}
              name={`${outcome}-${kind}`}
              rows={2}
              value={value[kind]}
              onChange={(text) => onChange({ ...value, [kind]: text })}
            />
            {languages.map((language) => (
              <TextArea
                key={language.isoCode}
                label={`${label} ${KIND_LABELS[kind]} (${language.description})`}
                name={`${outcome}-${kind}-${language.isoCode}`}
                rows={2}
                value={value.translations[language.isoCode]?.[kind] ?? ''}
                onChange={(text) => setTranslation(language.isoCode, kind, text)}
              />
            ))}
          </div>
        ))}
      </div>
    </fieldset>
  );
}

/** Adds a screener for `sponsorId`, or edits `screener`: details, engagements, languages, styles, messages. */
export function ScreenerForm({ screener, sponsorId }: { screener?: Screener; sponsorId: string }) {
  const api = useApi(screenersApi);
  const engagementsClient = useApi(engagementsApi);
  const sponsors = useApi(sponsorsApi);
  const navigate = useNavigate();
  const languages = useActiveLanguages();
  const sponsor = useAsync(() => sponsors.get(sponsorId), [sponsors, sponsorId]);
  const [engagementIds, setEngagementIds] = useState<string[]>(screener?.engagements.map((e) => String(e.id)) ?? []);
  const [languageIds, setLanguageIds] = useState<string[]>(screener?.languages.map((l) => String(l.id)) ?? []);
  const [styles, setStyles] = useState(toStyleFormValues(screener?.styles));
  const [styleErrors, setStyleErrors] = useState<Record<string, string>>({});
  const [messages, setMessages] = useState<MessagesFormValues>(toMessagesFormValues(screener));
  const form = useEntityForm(
    {
      title: screener?.title ?? '',
      description: screener?.description ?? '',
      screenerType: screener?.screenerType ?? SCREENER_DEFAULT_TYPE,
      isActive: screener?.isActive ?? true,
      isTest: screener?.isTest ?? false,
      isInterestVisible: screener?.isInterestVisible ?? false,
    },
    { also: [engagementIds, languageIds, styles, messages] },
  );

  const engagementOptions = useOptions(
    async () =>
      (await engagementsClient.list({ sponsorId, limit: 1000, sort: 'name', fields: 'name' })).items.map((e) => ({ value: String(e.id), label: e.name })),
    [engagementsClient, sponsorId],
    'Could not load the engagements.',
  );
  const chosenLanguages = languages.translated.filter((l) => languageIds.includes(String(l.id)));
  const sponsorName = screener?.sponsorName ?? sponsor.data?.name ?? '';

  const cancelTo = screener ? pathTo('ScreenerView', { screenerId: screener.id }) : pathTo('SponsorsView', { id: sponsorId });
  useTopBar({
    objectTitle: screener?.title,
    breadcrumbs: screener
      ? screenerTrail(screener, 'Edit')
      : sponsorName
        ? [...sponsorTrail({ sponsorName, sponsorId }), { label: 'Add Screener' }]
        : undefined,
    buttons: [
      { label: 'Cancel', to: cancelTo },
      { label: 'Save', submits: FORM_ID, busy: form.busy },
    ],
  });

  const onSubmit = form.handleSubmit(async (values) => {
    const issues = styleIssues(styles);
    setStyleErrors(issues);
    const input = form.parse(ScreenerInput, {
      ...values,
      sponsorId: Number(sponsorId),
      styles: toStylesInput(styles),
      messages: toMessagesInput(
        messages,
        chosenLanguages.map((l) => l.isoCode),
      ),
    });
    if (!input || Object.keys(issues).length) {
      if (Object.keys(issues).length) form.fail({}, 'Check the colours: each is 6 or 2 hex characters, or blank.');
      return;
    }
    const links = { engagementIds, languageIds };
    const saved = screener ? await api.update(screener.id, input, links) : await api.create(input, links);
    navigate(pathTo('ScreenerView', { screenerId: saved.id }));
  });

  return (
    <form id={FORM_ID} className="panel entity-form" onSubmit={onSubmit} noValidate aria-busy={form.busy || undefined}>
      <FormErrors message={form.formError} />
      <div className="form-grid">
        <TextField label={L.title} required maxLength={255} {...form.text('title')} />
        <TextField label={L.type} maxLength={64} {...form.text('screenerType')} />
        <p className="field">
          <span className="field-label">{L.sponsorName}</span> <span>{sponsorName || '…'}</span>
        </p>
        <div className="span-2">
          <TextArea label={L.description} {...form.text('description')} />
        </div>
        <MultiCheckList label={L.engagements} name="engagements" {...loadedOptions(engagementOptions)} value={engagementIds} onChange={setEngagementIds} />
        <MultiCheckList
          label={L.languages}
          name="languages"
          options={languages.translated.map((l) => ({ value: String(l.id), label: languageLabel(l) }))}
          loading={languages.loading}
          hint={languages.error ?? undefined}
          value={languageIds}
          onChange={setLanguageIds}
        />
        {/* One row of their own: in the grid's columns they read as part of the lists above them. */}
        <fieldset className="span-2 form-flags">
          <legend className="sr-only">Status</legend>
          <Checkbox label={L.isActive} {...form.checkbox('isActive')} />
          <Checkbox label={L.isTest} {...form.checkbox('isTest')} />
          <Checkbox label={L.isInterestVisible} {...form.checkbox('isInterestVisible')} />
        </fieldset>
      </div>
      <h2 className="section-title">Styles</h2>
      <StylesFields
        value={styles}
        errors={styleErrors}
        onChange={(next) => {
          setStyles(next);
          setStyleErrors({});
        }}
      />
      <h2 className="section-title">Messages</h2>
      {SCREENER_OUTCOMES.map((outcome) => (
        <OutcomeMessages
          key={outcome}
          outcome={outcome}
          value={messages[outcome]}
          languages={chosenLanguages}
          onChange={(value) => setMessages((previous) => ({ ...previous, [outcome]: value }))}
        />
      ))}
    </form>
  );
}
