import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { mediaChannelsApi } from '@core/api/mediaChannels';
import { screenersApi } from '@core/api/screeners';
import {
  CHANNEL_ISOLATION_LABELS,
  CHANNEL_ISOLATIONS,
  DEFAULT_CHANNEL_ISOLATION,
  DEFAULT_RETAKE_WINDOW_DAYS,
  FRAME_ISOLATION_EXPLAINED,
  MEDIA_CHANNEL_TYPES,
  MediaChannelInput,
  type MediaChannel,
} from '@core/model/mediaChannel';
import { DEFAULT_CHANNEL_LOCALE, distanceUnitOf, localeRegion, normalizeLocale } from '@core/model/channelLocale';
import { DEFAULT_EVENTS_POLICY, DETAILED_EVENTS_WARNING, EVENTS_POLICIES, EVENTS_POLICY_LABELS } from '@core/model/eventsPolicy';
import { Checkbox } from '../../components/form/Checkbox';
import { EntityForm, saveButtons, saveRecord } from '../../components/form/EntityForm';
import { labelledOptions, Select } from '../../components/form/Select';
import { TextField } from '../../components/form/TextField';
import { WholeNumberField } from '../../components/form/WholeNumberField';
import { useEntityForm } from '../../components/form/useEntityForm';
import { useAsync } from '../../hooks/useAsync';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { fromRows, HiddenFieldsEditor, toRows } from './HiddenFieldsEditor';
import './media-channels.css';
import { MEDIA_CHANNEL_LABELS as L } from './mediaChannelValues';

const FORM_ID = 'media-channel-form';

/** Adds a media channel for `screenerId`, or edits `channel`. Breadcrumbs: sponsor > screener. */
export function MediaChannelForm({ channel, screenerId }: { channel?: MediaChannel; screenerId: string }) {
  const api = useApi(mediaChannelsApi);
  const screeners = useApi(screenersApi);
  const navigate = useNavigate();
  const screener = useAsync(() => screeners.get(screenerId), [screeners, screenerId]);
  const [hiddenFields, setHiddenFields] = useState(() => toRows(channel?.hiddenFields));
  const form = useEntityForm(
    {
      title: channel?.title ?? '',
      domain: channel?.domain ?? '',
      channelType: channel?.channelType ?? '',
      isActive: channel?.isActive ?? true,
      retakeWindowDays: String(channel?.retakeWindowDays ?? DEFAULT_RETAKE_WINDOW_DAYS),
      eventsPolicy: channel?.eventsPolicy ?? DEFAULT_EVENTS_POLICY,
      isolation: channel?.isolation ?? DEFAULT_CHANNEL_ISOLATION,
      locale: channel?.locale ?? DEFAULT_CHANNEL_LOCALE,
    },
    { also: hiddenFields },
  );
  const s = screener.data;

  useTopBar({
    objectTitle: channel?.title,
    breadcrumbs: s
      ? [
          { label: s.sponsorName, to: pathTo('SponsorsView', { id: s.sponsorId }) },
          { label: s.title, to: pathTo('ScreenerView', { screenerId: s.id }) },
          ...(channel ? [{ label: channel.title, to: pathTo('MediaChannelView', { id: channel.id }) }, { label: 'Edit' }] : [{ label: 'Add Media Channel' }]),
        ]
      : undefined,
    buttons: saveButtons(channel ? pathTo('MediaChannelView', { id: channel.id }) : pathTo('ScreenerView', { screenerId }), FORM_ID, form.busy),
  });

  const onSubmit = form.handleSubmit(async (values) => {
    const days = values.retakeWindowDays.trim();
    // Left empty: the default; anything else not a number is refused by the schema (NaN is not a number).
    const retakeWindowDays = days === '' ? undefined : Number(days);
    const input = form.parse(MediaChannelInput, { ...values, retakeWindowDays, hiddenFields: fromRows(hiddenFields), screenerId: Number(screenerId) });
    if (!input) return;
    const saved = await saveRecord(api, channel?.id, input);
    navigate(pathTo('MediaChannelView', { id: saved.id }));
  });

  return (
    <EntityForm
      id={FORM_ID}
      form={form}
      onSubmit={onSubmit}
      after={<HiddenFieldsEditor rows={hiddenFields} onChange={setHiddenFields} error={form.errors.hiddenFields} />}
    >
      <TextField label={L.title} required maxLength={255} {...form.text('title')} />
      <TextField
        label={L.domain}
        required
        maxLength={253}
        placeholder="www.example.com"
        hint="The host name (or IPv4 address) of the page that embeds the snippet."
        {...form.text('domain')}
      />
      <Select
        label={L.type}
        required
        options={MEDIA_CHANNEL_TYPES.map((t) => ({ value: t, label: t }))}
        emptyLabel="Choose a type"
        {...form.text('channelType')}
      />
      <p className="field">
        <span className="field-label">{L.screenerName}</span> <span>{s?.title ?? '…'}</span>
      </p>
      <WholeNumberField
        label={L.retakeWindowDays}
        hint="After an outcome, the same browser sees it again on this channel for this many days, and a new run from the same address is flagged as a possible retake; 0 allows retakes (testing)."
        {...form.text('retakeWindowDays')}
      />
      <Select
        label={L.eventsPolicy}
        required
        options={labelledOptions(EVENTS_POLICIES, EVENTS_POLICY_LABELS)}
        hint="What the widget announces to the partner page's scripts (tag managers, analytics)."
        {...form.text('eventsPolicy')}
      />
      {form.values.eventsPolicy === 'detailed' && (
        <p className="field-warning" role="alert">
          {DETAILED_EVENTS_WARNING}
        </p>
      )}
      <Select
        label={L.isolation}
        required
        options={labelledOptions(CHANNEL_ISOLATIONS, CHANNEL_ISOLATION_LABELS)}
        hint={FRAME_ISOLATION_EXPLAINED}
        {...form.text('isolation')}
      />
      <TextField label={L.locale} required maxLength={10} placeholder={DEFAULT_CHANNEL_LOCALE} hint={localeHint(form.values.locale)} {...form.text('locale')} />
      <Checkbox label={L.isActive} {...form.checkbox('isActive')} />
    </EntityForm>
  );
}

/** What the locale means for participants: the unit its region reads distances in. */
export function localeHint(raw: string): string {
  const locale = normalizeLocale(raw);
  const unit = locale ? (distanceUnitOf(localeRegion(locale)) === 'km' ? 'kilometres' : 'miles') : null;
  return `The participants' language and region, such as en-US, en-CA or es-ES: the region decides whether the widget shows distances to sites in miles or kilometres${unit ? ` (${locale}: ${unit})` : ''}.`;
}
