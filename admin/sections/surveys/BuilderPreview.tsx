/**
 * The builder's preview beside the editor: the participant widget (the same widget.js and
 * mount() the channel preview uses) showing the page being edited, in the editing language, at
 * a phone's or a desktop's width. The page comes from what the builder holds, typed texts
 * included, so it follows the editor as staff type; answering it asks the server's page-preview
 * where answers lead, and nothing is stored.
 */
import { useEffect, useRef, useState } from 'react';
import type { SurveyDetail, PageWithQuestions } from '@core/api/surveys';
import type { RunnerPage } from '@core/survey/runner';
import { previewSurvey, previewTransport } from '@core/api/surveyPreview';
import { useSession } from '../../state/services';
import { loadWidget, mountPreview } from '../media-channels/PreviewPanel';
import { ErrorText } from '../../components/form/FormErrors';
import './surveys.css';

/** A builder page as the runner shows it: its active questions, in order. */
export function runnerPage(page: PageWithQuestions): RunnerPage {
  return {
    id: page.id,
    identity: page.identity,
    title: page.title,
    translations: page.translations,
    displayOrder: page.displayOrder,
    fields: page.fields
      .filter((f) => f.isActive)
      .map((f) => ({ id: f.id, identity: f.identity, type: f.oFormFieldTypeId, title: f.title, displayOrder: f.displayOrder, configuration: f.configuration })),
  };
}

type Width = 'phone' | 'desktop';
const WIDTHS: Record<Width, number> = { phone: 375, desktop: 1024 };
/** Typing settles this long before the widget is mounted again. */
const SETTLE_MS = 250;

export default function BuilderPreview({
  detail,
  pageId,
  language,
  widgetSrc,
}: {
  detail: SurveyDetail;
  pageId: string;
  language: string;
  widgetSrc?: string;
}) {
  const { client } = useSession();
  const frame = useRef<HTMLDivElement>(null);
  const host = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<Width>('phone');
  const [room, setRoom] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const page = detail.pages.find((p) => p.id === pageId) ?? detail.pages[0];
  const key = JSON.stringify([page ? runnerPage(page) : null, language, detail.languages]);

  useEffect(() => {
    const measure = () => setRoom(frame.current?.clientWidth ?? 0);
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, []);

  useEffect(() => {
    if (!page) return;
    let widget: { unmount(): void } | null = null;
    let cancelled = false;
    const timer = setTimeout(() => {
      loadWidget(widgetSrc)
        .then((api) => {
          if (cancelled || !host.current) return;
          setProblem(null);
          const survey = previewSurvey(detail);
          const pages = new Map(detail.pages.map((p) => [p.identity, runnerPage(p)]));
          widget = mountPreview(api, host.current, { client, language }, (participant) => ({
            ...previewTransport(participant, survey),
            firstPage: async () => runnerPage(page),
            page: async (_: unknown, identity: string) => pages.get(identity) ?? participant.page(survey, identity),
          }));
        })
        .catch((error: unknown) => {
          if (!cancelled) setProblem(error instanceof Error ? error.message : 'The preview could not start.');
        });
    }, SETTLE_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
      widget?.unmount();
    };
    // The key holds everything the preview shows.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, client, widgetSrc]);

  const scale = room && WIDTHS[width] > room ? room / WIDTHS[width] : 1;
  return (
    <section className="panel builder-preview" aria-labelledby="builder-preview-title">
      <div className="builder-preview-bar">
        <h2 id="builder-preview-title" className="section-title">
          Preview
        </h2>
        <div role="group" aria-label="Preview width" className="segmented">
          {(['phone', 'desktop'] as const).map((w) => (
            <button key={w} type="button" className="btn btn-small btn-secondary" aria-pressed={width === w} onClick={() => setWidth(w)}>
              {w === 'phone' ? 'Phone' : 'Desktop'}
            </button>
          ))}
        </div>
      </div>
      <ErrorText message={problem} />
      <div ref={frame} className="builder-preview-frame">
        <div
          className={`builder-preview-screen builder-preview-${width}`}
          // zoom, unlike a transform, shrinks the layout box too: no empty space under a scaled desktop.
          style={{ width: WIDTHS[width], zoom: scale < 1 ? scale : undefined }}
        >
          <div ref={host} data-testid="survey-preview" />
        </div>
      </div>
    </section>
  );
}
