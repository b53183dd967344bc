import { sponsorsApi } from '@core/api/sponsors';
import { SponsorInput, type Sponsor } from '@core/model/sponsor';
import { Checkbox } from '../../components/form/Checkbox';
import { EntityForm } from '../../components/form/EntityForm';
import { IDENTIFICATION_TAKEN } from '../../components/form/messages';
import { loadedOptions, Select } from '../../components/form/Select';
import { TextArea } from '../../components/form/TextArea';
import { TextField } from '../../components/form/TextField';
import { useRecordForm } from '../../components/form/useRecordForm';
import { useCountryOptions } from '../../hooks/useCountryOptions';
import { useNotify } from '../../state/notices';
import { useApi } from '../../state/services';
import { SPONSOR_LABELS as L, toSponsorFormValues, toSponsorInput } from './sponsorValues';

const FORM_ID = 'sponsor-form';

/** Adds a sponsor, or edits `sponsor`; the top bar's Save submits it. */
export function SponsorForm({ sponsor }: { sponsor?: Sponsor }) {
  const api = useApi(sponsorsApi);
  const notify = useNotify();
  const countries = useCountryOptions();
  const { form, onSubmit } = useRecordForm({
    formId: FORM_ID,
    api,
    record: sponsor,
    title: sponsor?.name,
    initial: toSponsorFormValues(sponsor),
    view: 'SponsorsView',
    index: 'SponsorsIndex',
    schema: SponsorInput,
    toInput: toSponsorInput,
    async accept(input, form) {
      if (await api.isIdentificationUnique(input.identification, sponsor?.id)) return true;
      form.fail({ identification: IDENTIFICATION_TAKEN });
      return false;
    },
    onSaved: (saved) => notify('success', sponsor ? `Sponsor ${saved.name} saved.` : `Sponsor ${saved.name} added.`),
  });

  return (
    <EntityForm id={FORM_ID} form={form} onSubmit={onSubmit}>
      <TextField label={L.name} required maxLength={255} {...form.text('name')} />
      <TextField label={L.identification} required maxLength={64} {...form.text('identification')} />
      <TextField label={L.rmsSponsorIdentifier} maxLength={255} {...form.text('rmsSponsorIdentifier')} />
      <Select label={L.countryId} emptyLabel="No country" {...loadedOptions(countries)} {...form.text('countryId')} />
      <div className="span-2">
        <TextArea label={L.description} {...form.text('description')} />
      </div>
      <div className="span-2">
        <TextArea label={L.businessPractice} {...form.text('businessPractice')} />
      </div>
      <Checkbox label={L.isActive} {...form.checkbox('isActive')} />
    </EntityForm>
  );
}
