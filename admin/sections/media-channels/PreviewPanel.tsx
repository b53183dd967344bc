/**
 * The participant preview (issue 8, item 6): the very widget participants see (/widget.js,
 * widget/mount.tsx) mounted in preview mode for any version of a survey, approved or not, in
 * any of its languages. The page-preview endpoint tells it where answers lead; nothing is
 * stored and the run always ends qualified. The widget is loaded as the bundle partners load,
 * so the admin carries no second UI library.
 */
import { useEffect, useRef, useState } from 'react';
import type { ApiClient } from '../../../core/api/client';
import { toRunnerPage } from '../../../core/api/participant';
import { oformsApi } from '../../../core/api/oforms';
import type { Resource } from '../../../core/jsonapi';
import type { MediaChannel } from '../../../core/model/mediaChannel';
import type { Answers } from '../../../core/oform/answers';
import type { RunnerPage, RunnerSurvey, RunnerTransport, SaveResult } from '../../../core/oform/runner';
import { Select } from '../../components/form/Select';
import { useAsync } from '../../hooks/useAsync';
import { useApi, useSession } from '../../state/services';
import { mediaChannelsApi } from '../../../core/api/mediaChannels';

/** What widget.js exposes (its IIFE's exports). */
interface WidgetGlobal {
  mount(element: HTMLElement, options: Record<string, unknown>): { unmount(): void };
}
declare global {
  interface Window {
    TrialWidget?: WidgetGlobal;
  }
}

let loading: Promise<WidgetGlobal> | null = null;
/** widget.js once per page; a data attribute keeps its own start-up from mounting anything. */
export function loadWidget(src = '/widget.js'): Promise<WidgetGlobal> {
  if (window.TrialWidget) return Promise.resolve(window.TrialWidget);
  loading ??= new Promise<WidgetGlobal>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    // Marked as mounted: the bundle's own start-up looks for snippet tags and must skip this one.
    script.setAttribute('data-trial-widget-mounted', '');
    script.onload = () => (window.TrialWidget ? resolve(window.TrialWidget) : reject(new Error('widget.js did not start')));
    script.onerror = () => {
      loading = null;
      reject(new Error('widget.js could not be loaded'));
    };
    document.head.append(script);
  });
  return loading;
}

/** The preview's transport: the staff session reads any version's pages; answers go to the page-preview endpoint. */
export function previewTransport(client: ApiClient, survey: RunnerSurvey, language: string): RunnerTransport {
  const page = (params: Record<string, string>) =>
    client
      .call((http) => http.get('o-forms/o-form-containers', { searchParams: { oFormId: survey.id, include: 'oFormFields', ...params } }).json<{ data: Resource; included?: Resource[] }>())
      .then(toRunnerPage);
  const refused = () => Promise.reject(new Error('A preview stores nothing.'));
  return {
    loadSurvey: async () => survey,
    firstPage: () => page({ type: 'firstContainerPerForm' }),
    page: (_s, identity) => page({ identity }),
    async previewAnswers(p: RunnerPage, answers: Answers): Promise<SaveResult> {
      const res = await client.call((http) =>
        http.patch(`o-forms/o-form-submission-page-preview/${encodeURIComponent(p.id)}`, {
          searchParams: { language },
          json: { data: { type: 'o-form-submission-pages', id: p.id, attributes: { answers } } },
          throwHttpErrors: false,
        }),
      );
      const body = (await res.json()) as { meta?: { nextContainerIdentity?: string | null; errors?: Record<string, string> }; errors?: { detail?: string; title: string; source?: { pointer?: string } }[] };
      if (res.status === 422) {
        const errors: Record<string, string> = { ...body.meta?.errors };
        for (const e of body.errors ?? []) {
          const name = e.source?.pointer?.split('/').pop();
          if (name && !(name in errors)) errors[name] = e.detail ?? e.title;
        }
        return { ok: false, errors };
      }
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return { ok: true, nextContainerIdentity: body.meta?.nextContainerIdentity ?? null, nextContainerEntryId: null };
    },
    createSubmission: refused,
    createEntry: refused,
    saveAnswers: refused,
    sanitize: refused,
    qualification: refused,
  };
}

/**
 * One version previewed in one language. H2's survey builder can place it as it is:
 * `<PreviewPanel oFormId={version.id} language="es" />`.
 */
export function PreviewPanel({ oFormId, language = 'en', widgetSrc }: { oFormId: string; language?: string; widgetSrc?: string }) {
  const { client } = useSession();
  const host = useRef<HTMLDivElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [run, setRun] = useState(0);
  useEffect(() => {
    let widget: { unmount(): void } | null = null;
    let cancelled = false;
    setProblem(null);
    (async () => {
      const [api, detail] = await Promise.all([loadWidget(widgetSrc), oformsApi(client).detail(oFormId)]);
      if (cancelled || !host.current) return;
      const survey: RunnerSurvey = {
        id: detail.form.id,
        identity: detail.form.identity,
        title: detail.form.title,
        containerCount: detail.pages.length,
        languages: ['en', ...detail.languages.map((l) => l.isoCode).filter((c) => c !== 'en')],
      };
      widget = api.mount(host.current, {
        mediaChannelId: 'preview',
        screenerId: 'preview',
        apiOrigin: window.location.origin,
        preview: true,
        language,
        storage: null,
        transport: previewTransport(client, survey, language),
      });
    })().catch((error: unknown) => {
      if (!cancelled) setProblem(error instanceof Error ? error.message : 'The preview could not start.');
    });
    return () => {
      cancelled = true;
      widget?.unmount();
    };
  }, [client, oFormId, language, widgetSrc, run]);
  return (
    <div className="survey-preview">
      {problem && (
        <p className="form-errors" role="alert">
          {problem}
        </p>
      )}
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
  const oforms = useApi(oformsApi);
  const links = useAsync(() => channels.surveys(channel.id), [channels, channel.id]);
  const [identity, setIdentity] = useState('');
  const [versionId, setVersionId] = useState('');
  const [language, setLanguage] = useState('en');
  const [shown, setShown] = useState(false);
  const versions = useAsync(() => (identity ? oforms.versions(identity) : Promise.resolve([])), [oforms, identity]);
  const detail = useAsync(() => (versionId ? oforms.detail(versionId) : Promise.resolve(null)), [oforms, versionId]);
  const identities = (links.data?.items ?? []).map((l) => ({ value: l.oFormIdentity, label: l.oFormIdentity }));
  const languageOptions = [{ value: 'en', label: 'English' }, ...(detail.data?.languages ?? []).filter((l) => l.isoCode !== 'en').map((l) => ({ value: l.isoCode, label: l.name }))];
  return (
    <section className="panel" id="preview" aria-labelledby="channel-preview-title">
      <h2 id="channel-preview-title">Preview</h2>
      <p className="muted">The participant widget as it runs on this channel, for any version. Nothing is stored; the run always qualifies.</p>
      <div className="add-lookup">
        <Select
          label="Survey"
          name="preview-survey"
          options={identities}
          emptyLabel="Choose a survey"
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
        <button type="button" className="btn btn-small btn-primary" disabled={!versionId} onClick={() => setShown(true)}>
          Preview
        </button>
      </div>
      {shown && versionId && <PreviewPanel oFormId={versionId} language={language} />}
    </section>
  );
}
