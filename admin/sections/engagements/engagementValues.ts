/** An engagement as its form holds it, and the mapping to the API's input. */
import type { Engagement, EngagementInput, EngagementLookupRelationship } from '@core/model/engagement';
import { DEFAULT_DUPLICATE_WINDOW_DAYS, DEFAULT_ENGAGEMENT_RADIUS, DEFAULT_FIRST_CONTACT_HOURS, DEFAULT_STALE_DAYS } from '@core/model/engagement';
import { fieldText, numberOrNull } from '../../components/form/fieldText';

/** The labels of an engagement's fields, shared by the list, the form and the view. */
export const ENGAGEMENT_LABELS = {
  name: 'Name',
  description: 'Description',
  sponsorId: 'Sponsor',
  sponsorName: 'Sponsor',
  sponsorContact: 'Sponsor Contact',
  startDate: 'Start Date',
  endDate: 'End Date',
  isActive: 'Active',
  radius: 'Radius (miles)',
  duplicateWindowDays: 'Duplicate window (days)',
  firstContactHours: 'First contact due within (hours)',
  staleDays: 'Stale after (days without update)',
  mediaLiveDate: 'Media Live Date',
  mediaEndDate: 'Media End Date',
  g6Url: 'G6 URL',
  protocolIdentifier: 'Protocol Identifier',
  studySubjectIdentifier: 'Study Subject Identifier',
  protocolVersion: 'Protocol Version',
  phase: 'Phase',
  amendmentDate: 'Amendment Date',
  firstPatientInDate: 'First Patient In Date',
  lastPatientInDate: 'Last Patient In Date',
  rareDisease: 'Rare Disease',
  cellGeneTherapy: 'Cell / Gene Therapy',
  deiFocus: 'DEI Focus',
  deiTarget: 'DEI Target (%)',
  identification: 'Identification',
  targetParticipantCount: 'Target Participant Count',
  targetMeasure: 'Target counts',
  pause: 'Recruitment',
  rmsProviderId: 'RMS Provider',
  rmsProviderName: 'RMS Provider',
  rmsSponsorIdentifier: 'RMS Sponsor Identifier',
  ownerUserId: 'Owner',
  ownerUsername: 'Owner',
  campaignTypes: 'Campaign Types',
  indications: 'Indications',
  targetGroups: 'Target Groups',
  therapeuticAreas: 'Therapeutic Areas',
  created: 'Created',
  modified: 'Modified',
} as const;

export type EngagementFormValues = {
  name: string;
  description: string;
  sponsorId: string;
  sponsorContact: string;
  startDate: string;
  endDate: string;
  isActive: boolean;
  radius: string;
  duplicateWindowDays: string;
  firstContactHours: string;
  staleDays: string;
  mediaLiveDate: string;
  mediaEndDate: string;
  g6Url: string;
  protocolIdentifier: string;
  studySubjectIdentifier: string;
  protocolVersion: string;
  phase: string;
  amendmentDate: string;
  firstPatientInDate: string;
  lastPatientInDate: string;
  rareDisease: boolean;
  cellGeneTherapy: boolean;
  deiFocus: boolean;
  deiTarget: string;
  identification: string;
  targetParticipantCount: string;
  targetMeasure: string;
  rmsProviderId: string;
  rmsSponsorIdentifier: string;
  ownerUserId: string;
};

export const toEngagementFormValues = (e?: Engagement, sponsorId?: string): EngagementFormValues => ({
  name: fieldText(e?.name),
  description: fieldText(e?.description),
  sponsorId: e ? String(e.sponsorId) : (sponsorId ?? ''),
  sponsorContact: fieldText(e?.sponsorContact),
  startDate: fieldText(e?.startDate),
  endDate: fieldText(e?.endDate),
  isActive: e?.isActive ?? true,
  radius: fieldText(e?.radius ?? DEFAULT_ENGAGEMENT_RADIUS),
  duplicateWindowDays: fieldText(e?.duplicateWindowDays ?? DEFAULT_DUPLICATE_WINDOW_DAYS),
  firstContactHours: fieldText(e?.firstContactHours ?? DEFAULT_FIRST_CONTACT_HOURS),
  staleDays: fieldText(e?.staleDays ?? DEFAULT_STALE_DAYS),
  mediaLiveDate: fieldText(e?.mediaLiveDate),
  mediaEndDate: fieldText(e?.mediaEndDate),
  g6Url: fieldText(e?.g6Url),
  protocolIdentifier: fieldText(e?.protocolIdentifier),
  studySubjectIdentifier: fieldText(e?.studySubjectIdentifier),
  protocolVersion: fieldText(e?.protocolVersion),
  phase: fieldText(e?.phase),
  amendmentDate: fieldText(e?.amendmentDate),
  firstPatientInDate: fieldText(e?.firstPatientInDate),
  lastPatientInDate: fieldText(e?.lastPatientInDate),
  rareDisease: e?.rareDisease ?? false,
  cellGeneTherapy: e?.cellGeneTherapy ?? false,
  deiFocus: e?.deiFocus ?? false,
  deiTarget: fieldText(e?.deiTarget),
  identification: fieldText(e?.identification),
  targetParticipantCount: fieldText(e?.targetParticipantCount),
  targetMeasure: e?.targetMeasure ?? 'referrals',
  rmsProviderId: fieldText(e?.rmsProviderId),
  rmsSponsorIdentifier: fieldText(e?.rmsSponsorIdentifier),
  ownerUserId: fieldText(e?.ownerUserId),
});

export const toEngagementInput = (values: EngagementFormValues): EngagementInput => ({
  ...values,
  sponsorId: values.sponsorId === '' ? (undefined as unknown as number) : Number(values.sponsorId),
  radius: values.radius.trim() === '' ? (undefined as unknown as number) : Number(values.radius),
  duplicateWindowDays: values.duplicateWindowDays.trim() === '' ? (undefined as unknown as number) : Number(values.duplicateWindowDays),
  firstContactHours: values.firstContactHours.trim() === '' ? (undefined as unknown as number) : Number(values.firstContactHours),
  staleDays: values.staleDays.trim() === '' ? (undefined as unknown as number) : Number(values.staleDays),
  deiTarget: numberOrNull(values.deiTarget),
  targetParticipantCount: numberOrNull(values.targetParticipantCount),
  rmsProviderId: numberOrNull(values.rmsProviderId),
  ownerUserId: numberOrNull(values.ownerUserId),
  phase: values.phase === '' ? null : (values.phase as EngagementInput['phase']),
  targetMeasure: values.targetMeasure as EngagementInput['targetMeasure'],
});

/** What the target counts, as the form offers it. */
export const TARGET_MEASURE_OPTIONS = [
  { value: 'referrals', label: 'Referrals' },
  { value: 'randomized', label: 'Randomized participants' },
];

export type LookupLists = Record<EngagementLookupRelationship, string[]>;

export const toLookupLists = (e?: Engagement): LookupLists => ({
  campaignTypes: (e?.campaignTypes ?? []).map((l) => String(l.id)),
  indications: (e?.indications ?? []).map((l) => String(l.id)),
  targetGroups: (e?.targetGroups ?? []).map((l) => String(l.id)),
  therapeuticAreas: (e?.therapeuticAreas ?? []).map((l) => String(l.id)),
});

/** A yyyy-mm-dd calendar day as the admin shows dates (no time zone shift). */
export const formatDay = (day: string | null | undefined): string | null => {
  if (!day) return null;
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return day;
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, d)));
};
