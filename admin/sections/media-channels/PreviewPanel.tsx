/**
 * The participant preview: the very widget participants see (/widget.js, widget/mount.tsx)
 * mounted in preview mode for any version of a survey, approved or not, in any of its
 * languages, over the participant transport (core/api/surveyPreview.ts composes it). The
 * page-preview endpoint tells it where answers lead; nothing is stored. The run ends qualified,
 * or where the channel's preview is told to (notQualified, noTrialSites, notActive): there the
 * widget shows that outcome's lead form from the staff API's preview of it, whose Submit is
 * checked and thanked and keeps nothing. The widget is loaded as the bundle partners load, so the
 * admin carries no second UI library; only its types are imported.
 */
import { useEffect, useRef, useState } from 'react';
import { surveysApi } from '@core/api/surveys';
import type { MediaChannel } from '@core/model/mediaChannel';
import { leadsApi } from '@core/api/leads';
import { PREVIEW_OUTCOMES, type PreviewOutcome } from '@core/model/lead';
import { previewSurvey, previewTransport } from '@core/api/surveyPreview';
import { checkParticipantAnswer } from '@core/participant/responses';
import { createParticipantTransport, type ParticipantTransport } from '@core/participant/transport';
import type { ApiClient } from '@core/api/client';
import type { MountedWidget, WidgetGlobal, WidgetModule, WidgetTransport } from '../../../widget/mountOptions';
import { Select } from '../../components/form/Select';
import { SurveyPicker, searchWithin } from '../../components/SurveyPicker';
import { screenersApi } from '@core/api/screeners';
import { useAsync } from '../../hooks/useAsync';
import { useApi, useSession } from '../../state/services';
import { mediaChannelsApi } from '@core/api/mediaChannels';
import { LEAD_KIND_LABELS } from '../leads/Index';
import { ErrorText } from '../../components/form/FormErrors';

declare global {
  interface Window {
    TrialWidget?: WidgetGlobal;
  }
}

let loading: Promise<WidgetModule> | null = null;
/** widget.js once per page, and the module it imports; a data attribute keeps its own start-up from mounting anything. */
export function loadWidget(src = '/widget.js'): Promise<WidgetModule> {
  loading ??= new Promise<WidgetModule>((resolve, reject) => {
    const ready = () => window.TrialWidget?.ready;
    if (ready()) return resolve(ready()!);
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    // Marked as mounted: the module's own start-up looks for snippet tags and must skip this one.
    script.setAttribute('data-trial-widget-mounted', '');
    script.onload = () => (ready() ? resolve(ready()!) : reject(new Error('widget.js did not start')));
    script.onerror = () => reject(new Error('widget.js could not be loaded'));
    document.head.append(script);
  }).catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

/**
 * Mounts the widget for staff on `host`, in `language`: no channel, nothing kept in the browser,
 * its calls through `transportOf` the participant transport with the staff session's token
 * (versions not yet approved can be read).
 */
export function mountPreview(
  widget: WidgetModule,
  host: HTMLElement,
  { client, language }: { client: ApiClient; language: string },
  transportOf: (participant: ParticipantTransport) => WidgetTransport,
): MountedWidget {
  const participant = createParticipantTransport({ apiOrigin: window.location.origin, language, fetch: client.fetch, check: checkParticipantAnswer });
  return widget.mount(host, {
    mediaChannelId: 'preview',
    screenerId: 'preview',
    apiOrigin: window.location.origin,
    preview: true,
    language,
    storage: null,
    transport: transportOf(participant),
  });
}

/** Where a preview may end: qualified, or a lead's outcome with its form. */
const OUTCOME_OPTIONS = PREVIEW_OUTCOMES.map((value) => ({ value, label: value === 'qualified' ? 'Qualified' : LEAD_KIND_LABELS[value] }));
const isPreviewOutcome = (value: string): value is PreviewOutcome => PREVIEW_OUTCOMES.some((o) => o === value);

/**
 * One version previewed in one language. H2's survey builder can place it as it is:
 * `<PreviewPanel oFormId={version.id} language="es" />`. With `ending`, the run ends at that
 * outcome, a lead's form from the screener's contact fields and messages.
 */
export function PreviewPanel({
  oFormId,
  language = 'en',
  widgetSrc,
  ending,
}: {
  oFormId: string;
  language?: string;
  widgetSrc?: string;
  ending?: { outcome: PreviewOutcome; screenerId: number };
}) {
  const { client } = useSession();
  const host = useRef<HTMLDivElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [run, setRun] = useState(0);
  useEffect(() => {
    let widget: { unmount(): void } | null = null;
    let cancelled = false;
    setProblem(null);
    (async () => {
      const [api, detail] = await Promise.all([loadWidget(widgetSrc), surveysApi(client).detail(oFormId)]);
      if (cancelled || !host.current) return;
      widget = mountPreview(api, host.current, { client, language }, (participant) =>
        previewTransport(
          participant,
          previewSurvey(detail),
          ending && { outcome: ending.outcome, leads: leadsApi(client), request: { screenerId: ending.screenerId, oFormId: Number(detail.form.id), language } },
        ),
      );
    })().catch((error: unknown) => {
      if (!cancelled) setProblem(error instanceof Error ? error.message : 'The preview could not start.');
    });
    return () => {
      cancelled = true;
      widget?.unmount();
    };
  }, [client, oFormId, language, widgetSrc, run, ending?.outcome, ending?.screenerId]);
  return (
    <div className="survey-preview">
      <ErrorText message={problem} />
      <div ref={host} data-testid="survey-preview" />
      <button type="button" className="btn btn-small btn-secondary" onClick={() => setRun((n) => n + 1)}>
        Restart preview
      </button>
    </div>
  );
}

/** The media channel view's preview: one of the channel's surveys, any version, any language. */
export function ChannelPreviewPanel({ channel }: { channel: MediaChannel }) {
  const channels = useApi(mediaChannelsApi);
  const surveyCalls = useApi(surveysApi);
  const screeners = useApi(screenersApi);
  const links = useAsync(() => channels.surveys(channel.id), [channels, channel.id]);
  const offered = useAsync(() => screeners.surveys(String(channel.screenerId)), [screeners, channel.screenerId]);
  const [identity, setIdentity] = useState('');
  const [versionId, setVersionId] = useState('');
  const [language, setLanguage] = useState('en');
  const [outcome, setOutcome] = useState<PreviewOutcome>('qualified');
  const [shown, setShown] = useState(false);
  const versions = useAsync(() => (identity ? surveyCalls.versions(identity) : Promise.resolve([])), [surveyCalls, identity]);
  const detail = useAsync(() => (versionId ? surveyCalls.detail(versionId) : Promise.resolve(null)), [surveyCalls, versionId]);
  // The surveys the channel names, else every survey of its screener (what it may serve).
  const own = links.data?.items ?? [];
  const surveys = own.length ? own : (offered.data?.items ?? []);
  const languageOptions = [
    { value: 'en', label: 'English' },
    ...(detail.data?.languages ?? []).filter((l) => l.isoCode !== 'en').map((l) => ({ value: l.isoCode, label: l.name })),
  ];
  return (
    <section className="panel" id="preview" aria-labelledby="channel-preview-title">
      <h2 id="channel-preview-title">Preview</h2>
      <p className="muted">
        The participant widget as it runs on this channel, for any version. Nothing is stored. The run ends at the outcome chosen: a lead&apos;s outcome shows
        its contact form and consent, whose Submit stores no lead.
      </p>
      <div className="add-lookup">
        <SurveyPicker
          label="Survey"
          name="preview-survey"
          search={searchWithin(surveys)}
          refreshKey={surveys.map((s) => s.oFormIdentity).join()}
          value={identity}
          onChange={(v) => {
            setIdentity(v);
            setVersionId('');
            setShown(false);
          }}
        />
        <Select
          label="Version"
          name="preview-version"
          options={(versions.data ?? []).map((v) => ({ value: v.id, label: `Version ${v.version}${v.isApproved ? ' (approved)' : ''}` }))}
          emptyLabel="Choose a version"
          value={versionId}
          disabled={!identity}
          onChange={(v) => {
            setVersionId(v);
            setShown(false);
          }}
        />
        <Select label="Language" name="preview-language" options={languageOptions} value={language} disabled={!versionId} onChange={setLanguage} />
        <Select label="Outcome" name="preview-outcome" options={OUTCOME_OPTIONS} value={outcome} onChange={(v) => isPreviewOutcome(v) && setOutcome(v)} />
        <button type="button" className="btn btn-small btn-primary" disabled={!versionId} onClick={() => setShown(true)}>
          Preview
        </button>
      </div>
      {shown && versionId && <PreviewPanel oFormId={versionId} language={language} ending={{ outcome, screenerId: channel.screenerId }} />}
    </section>
  );
}
