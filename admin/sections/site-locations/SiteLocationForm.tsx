import { siteLocationsApi } from '@core/api/siteLocations';
import { IRB_TYPES, IRB_TYPE_LABELS, SITE_LOCATION_KINDS, SITE_LOCATION_KIND_LABELS, SiteLocationInput, type SiteLocation } from '@core/model/siteLocation';
import { Checkbox } from '../../components/form/Checkbox';
import { EntityForm } from '../../components/form/EntityForm';
import { labelledOptions, loadedOptions, Select } from '../../components/form/Select';
import { TextArea } from '../../components/form/TextArea';
import { TextField } from '../../components/form/TextField';
import { useRecordForm } from '../../components/form/useRecordForm';
import { useCountryOptions } from '../../hooks/useCountryOptions';
import { useApi } from '../../state/services';
import { SITE_LOCATION_LABELS as L, toSiteLocationFormValues, toSiteLocationInput } from './siteLocationValues';

const FORM_ID = 'site-location-form';

/** Adds a site location, or edits `site`; the top bar's Save submits it. */
export function SiteLocationForm({ site }: { site?: SiteLocation }) {
  const api = useApi(siteLocationsApi);
  const countries = useCountryOptions();
  const { form, onSubmit } = useRecordForm({
    formId: FORM_ID,
    api,
    record: site,
    title: site?.name,
    initial: toSiteLocationFormValues(site),
    view: 'SiteLocationsView',
    index: 'SiteLocationsIndex',
    schema: SiteLocationInput,
    toInput: toSiteLocationInput,
  });

  return (
    <EntityForm id={FORM_ID} form={form} onSubmit={onSubmit}>
      <TextField label={L.name} required maxLength={255} {...form.text('name')} />
      <TextField label={L.siteId} maxLength={64} {...form.text('siteId')} />
      <TextField label={L.streetAddress} maxLength={255} {...form.text('streetAddress')} />
      <TextField label={L.unitNumber} maxLength={64} {...form.text('unitNumber')} />
      <TextField label={L.city} maxLength={128} {...form.text('city')} />
      <TextField label={L.state} maxLength={128} {...form.text('state')} />
      <TextField label={L.zipCode} maxLength={32} {...form.text('zipCode')} />
      <Select label={L.countryId} emptyLabel="No country" {...loadedOptions(countries)} {...form.text('countryId')} />
      <TextField label={L.latitude} type="number" inputMode="decimal" {...form.text('latitude')} />
      <TextField label={L.longitude} type="number" inputMode="decimal" {...form.text('longitude')} />
      <TextField label={L.piName} maxLength={255} {...form.text('piName')} />
      <Select
        label={L.siteLocationType}
        options={labelledOptions(SITE_LOCATION_KINDS, SITE_LOCATION_KIND_LABELS)}
        emptyLabel="Not set"
        {...form.text('siteLocationType')}
      />
      <Select label={L.irbType} options={labelledOptions(IRB_TYPES, IRB_TYPE_LABELS)} emptyLabel="Not set" {...form.text('irbType')} />
      <div className="span-2">
        <TextArea label={L.description} {...form.text('description')} />
      </div>
      <Checkbox label={L.isVirtual} {...form.checkbox('isVirtual')} />
      <Checkbox label={L.isActive} {...form.checkbox('isActive')} />
    </EntityForm>
  );
}
