import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { ApiError } from '@core/api/client';
import { mediaChannelsApi } from '@core/api/mediaChannels';
import { screenersApi } from '@core/api/screeners';
import { EVENTS_POLICY_LABELS, type EventsPolicy } from '@core/model/eventsPolicy';
import { HOST_EVENTS, POLICY_EVENTS } from '@core/participant/hostEvents';
import {
  CHANNEL_ISOLATION_LABELS,
  FRAME_ISOLATION_EXPLAINED,
  campaignLink,
  embedSnippet,
  participantPageUrl,
  partnerCspText,
  partnerTrustedTypesText,
  reservedStyle,
  type MediaChannel,
} from '@core/model/mediaChannel';
import { distanceUnitOf, localeRegion } from '@core/model/channelLocale';
import { EMBED_PROBLEM_LABELS } from '@core/model/embedProblem';
import { UTM_MAX_LENGTH, UTM_PARAMETERS, type Utm } from '@core/model/partnerPage';
import { TextField } from '../../components/form/TextField';
import { download, qrPng, qrSvg } from './qrDownload';
import { surveyLabel } from '@core/model/surveyNaming';
import { qrCodeSource } from '../profile/TwoFactor';
import { formatDateTime } from '../../components/format';

/** Why the channel's participants reach notActive, if they do: its engagements paused, each with why and since when. */
function recruitmentText(pause: MediaChannel['recruitmentPause']): string {
  if (!pause || pause.engagements.length === 0) return 'offered';
  const each = pause.engagements.map((e) => `${e.engagementName}: ${e.text} (since ${formatDateTime(e.since)})`).join('; ');
  return pause.isPaused ? `paused (participants reach notActive) — ${each}` : `partly paused — ${each}`;
}
import { SurveyAdder, searchWithin } from '../../components/SurveyPicker';
import { RecordView } from '../../components/RecordView';
import { FunnelPanel } from '../../components/funnel/FunnelPanel';
import { StatusBadge } from '../../components/StatusBadge';
import { SurveyLinks } from '../../components/SurveyLinks';
import { ViewFields } from '../../components/ViewFields';
import { useAsync } from '../../hooks/useAsync';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { MEDIA_CHANNEL_LABELS as L } from './mediaChannelValues';
import { useMediaChannel } from './useMediaChannel';
import { ChannelPreviewPanel } from './PreviewPanel';
import { SpendsPanel } from './SpendsPanel';
import { ErrorText } from '../../components/form/FormErrors';
import './media-channels.css';

export const COPIED = 'Copied';
export const COPY_FAILED = 'Could not copy: select the snippet and copy it by hand.';

/** Writes `text` to the clipboard, falling back to a selected textarea and the copy command. */
export async function copyText(text: string, fallbackFrom: HTMLTextAreaElement | HTMLInputElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Not allowed here (no permission, insecure origin): try the old way.
  }
  if (!fallbackFrom) return false;
  fallbackFrom.focus();
  fallbackFrom.select();
  try {
    return document.execCommand?.('copy') ?? false;
  } catch {
    return false;
  }
}

/**
 * A Copy button's work: `copy` writes `text` to the clipboard (or through `field`, the control
 * showing it), and `result` says how that went; "Copied" clears itself after a few seconds.
 */
function useCopy<E extends HTMLTextAreaElement | HTMLInputElement>(text: string) {
  const field = useRef<E>(null);
  const [result, setResult] = useState<string | null>(null);
  useEffect(() => {
    if (result !== COPIED) return;
    const timer = setTimeout(() => setResult(null), 4000);
    return () => clearTimeout(timer);
  }, [result]);
  const copy = async () => setResult((await copyText(text, field.current)) ? COPIED : COPY_FAILED);
  return { field, copy, result };
}

/** A Copy button's outcome, read out when it changes. */
function CopyStatus({ result }: { result: string | null }) {
  return (
    <p role="status" className={result === COPIED ? 'copy-status copied' : 'copy-status'}>
      {result ?? ''}
    </p>
  );
}

/** A copy panel's heading: its title, and the button that copies what the panel shows. */
function CopyHeading({ id, title, label, onCopy }: { id: string; title: string; label: string; onCopy: () => void }) {
  return (
    <div className="panel-heading">
      <h2 id={id}>{title}</h2>
      <button type="button" className="btn btn-small btn-primary" onClick={onCopy}>
        {label}
      </button>
    </div>
  );
}

/** The embed snippet with a Copy button and a visible confirmation. */
export function SnippetPanel({ channel }: { channel: MediaChannel }) {
  const snippet = embedSnippet(window.location.origin, channel.id, channel.screenerId, channel.hiddenFields, channel.isolation);
  const framed = channel.isolation === 'frame';
  const { field, copy, result } = useCopy<HTMLTextAreaElement>(snippet);
  return (
    <section className="panel" id="snippet" aria-labelledby="snippet-title">
      <CopyHeading id="snippet-title" title="Embed Snippet" label="Copy" onCopy={copy} />
      <p className="muted">Paste this where the survey should appear on {channel.domain}.</p>
      <textarea ref={field} className="input snippet" aria-label="Embed snippet" readOnly rows={3} value={snippet} onFocus={(event) => event.target.select()} />
      <CopyStatus result={result} />
      {framed ? (
        <p className="muted">
          The widget runs in a frame of this server (isolation: frame). If the page sends a Content-Security-Policy, it must allow the widget's script and its
          frame from this server, and nothing else: <code>{partnerCspText(window.location.origin, 'frame')}</code>. Only pages of {channel.domain} can show the
          frame.
        </p>
      ) : (
        <p className="muted">
          If the page sends a Content-Security-Policy, it must allow the widget's script and calls from this server, and nothing else:{' '}
          <code>{partnerCspText(window.location.origin)}</code>. Under Trusted Types, a <code>trusted-types</code> directive also names the widget's one policy:{' '}
          <code>{partnerTrustedTypesText}</code>.
        </p>
      )}
      <p className="muted">
        The <code>style</code> on the snippet&apos;s element reserves the widget&apos;s space before it loads, so the text below does not jump. If the
        page&apos;s policy refuses style attributes, put <code>{`[data-trial-widget] { ${reservedStyle.replace(/;/g, '; ')} }`}</code> in its stylesheet
        instead.
      </p>
      <HostEventsBlock policy={channel.eventsPolicy} />
    </section>
  );
}

/** The widget's DOM events the channel's policy announces, for the partner's tag manager. */
function HostEventsBlock({ policy }: { policy: EventsPolicy }) {
  const announced = HOST_EVENTS.filter((e) => (POLICY_EVENTS[policy] as readonly string[]).includes(e.name.slice('trial-widget:'.length)));
  return (
    <div className="host-events">
      <h3>Events for your tag manager</h3>
      <p className="muted">
        The widget dispatches these DOM events on its element; they bubble, so a listener on <code>document</code> hears them. Each event&apos;s{' '}
        <code>detail</code> names the media channel and screener (<code>mediaChannelId</code>, <code>screenerId</code>) and never anything about the
        participant. This channel announces: {EVENTS_POLICY_LABELS[policy]}.
      </p>
      <dl>
        {announced.map((e) => (
          <div key={e.name}>
            <dt>
              <code>{e.name}</code>
            </dt>
            <dd>{e.when}</dd>
          </div>
        ))}
      </dl>
      <pre className="snippet">
        {"document.addEventListener('trial-widget:complete', (e) => dataLayer.push({ event: 'trial_complete', channel: e.detail.mediaChannelId }));"}
      </pre>
    </div>
  );
}

/** The channel's hosted participant page: its link with a Copy button, and a QR code of it. */
export function ParticipantLinkPanel({ channel }: { channel: MediaChannel }) {
  const link = participantPageUrl(window.location.origin, channel.id);
  const { field, copy, result } = useCopy<HTMLInputElement>(link);
  return (
    <section className="panel" id="participant-link" aria-labelledby="participant-link-title">
      <CopyHeading id="participant-link-title" title="Participant Link" label="Copy link" onCopy={copy} />
      <p className="muted">For posts and messages with no website to embed into: the survey on a page of its own. Each open counts in {L.share}.</p>
      <input ref={field} className="input snippet" aria-label="Participant link" readOnly value={link} onFocus={(event) => event.target.select()} />
      <p>
        <a href={link} target="_blank" rel="noopener noreferrer">
          Open the participant page
        </a>
      </p>
      <img className="totp-qr" src={qrCodeSource(link)} width={160} height={160} alt={`QR code of ${link}`} />
      <CopyStatus result={result} />
    </section>
  );
}

export const QR_PNG_FAILED = 'This browser could not draw the PNG: download the SVG instead.';

/** The participant page with campaign parameters, its QR code, and the code as PNG and SVG files. */
export function LinkBuilderPanel({ channel }: { channel: MediaChannel }) {
  const [utm, setUtm] = useState<Utm>({});
  const [problem, setProblem] = useState<string | null>(null);
  const link = campaignLink(window.location.origin, channel.id, utm);
  const { field, copy, result } = useCopy<HTMLInputElement>(link);
  const tooLong = UTM_PARAMETERS.find((name) => (utm[name]?.trim().length ?? 0) > UTM_MAX_LENGTH);
  const file = `media-channel-${channel.id}-qr`;
  return (
    <section className="panel" id="link-builder" aria-labelledby="link-builder-title">
      <h2 id="link-builder-title">Campaign Link</h2>
      <p className="muted">The participant page with campaign parameters: runs through it are counted by source and campaign in the funnel.</p>
      <div className="form-grid">
        {UTM_PARAMETERS.map((name) => (
          <TextField
            key={name}
            label={name}
            name={`link-${name}`}
            maxLength={UTM_MAX_LENGTH}
            value={utm[name] ?? ''}
            error={tooLong === name ? `At most ${UTM_MAX_LENGTH} characters.` : undefined}
            onChange={(value) => setUtm((previous) => ({ ...previous, [name]: value }))}
          />
        ))}
      </div>
      <input ref={field} className="input snippet" aria-label="Campaign link" readOnly value={link} onFocus={(event) => event.target.select()} />
      <div className="button-row">
        <button type="button" className="btn btn-small btn-primary" onClick={copy}>
          Copy campaign link
        </button>
        <button
          type="button"
          className="btn btn-small btn-secondary"
          onClick={() => download(new Blob([qrSvg(link)], { type: 'image/svg+xml' }), `${file}.svg`)}
        >
          Download QR code (SVG)
        </button>
        <button
          type="button"
          className="btn btn-small btn-secondary"
          onClick={async () => {
            const png = await qrPng(link);
            setProblem(png ? null : QR_PNG_FAILED);
            if (png) download(png, `${file}.png`);
          }}
        >
          Download QR code (PNG)
        </button>
      </div>
      <img className="totp-qr" src={qrCodeSource(link)} width={160} height={160} alt={`QR code of the campaign link ${link}`} />
      <ErrorText message={problem} />
      <CopyStatus result={result} />
    </section>
  );
}

/** The last distinct problems seen on partner pages (origin, cause, how often, when), so staff can tell a partner what to fix. */
export function EmbedProblemsPanel({ channel }: { channel: MediaChannel }) {
  const api = useApi(mediaChannelsApi);
  const problems = useAsync(() => api.embedProblems(channel.id), [api, channel.id]);
  const rows = problems.data ?? [];
  return (
    <section className="panel" id="embed-problems" aria-labelledby="embed-problems-title">
      <h2 id="embed-problems-title">Embed Problems</h2>
      {problems.error ? (
        <ErrorText message="Could not load the embed problems." />
      ) : !problems.data ? (
        <p className="muted">Loading…</p>
      ) : rows.length === 0 ? (
        <p className="muted">No problem seen on a partner page.</p>
      ) : (
        <table className="data-table" aria-label="Embed problems">
          <thead>
            <tr>
              <th scope="col">Page origin</th>
              <th scope="col">Cause</th>
              <th scope="col">Count</th>
              <th scope="col">First seen</th>
              <th scope="col">Last seen</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((p) => (
              <tr key={p.id}>
                <td>{p.origin}</td>
                <td>{EMBED_PROBLEM_LABELS[p.cause] ?? p.cause}</td>
                <td>{p.count}</td>
                <td>{formatDateTime(p.firstSeen)}</td>
                <td>{formatDateTime(p.lastSeen)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** What the channel serves participants now (the participant start's own answer), then the surveys it names. */
function SurveyLinksPanel({ channel }: { channel: MediaChannel }) {
  const api = useApi(mediaChannelsApi);
  const screeners = useApi(screenersApi);
  const links = useAsync(() => api.surveys(channel.id), [api, channel.id]);
  const served = useAsync(() => api.served(channel.id), [api, channel.id]);
  const offered = useAsync(() => screeners.surveys(String(channel.screenerId)), [screeners, channel.screenerId]);
  const [identity, setIdentity] = useState('');
  const [error, setError] = useState<string | null>(null);
  const act = async (action: () => Promise<unknown>) => {
    setError(null);
    try {
      await action();
      links.reload();
      served.reload();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'Could not save data');
    }
  };
  const own = links.data?.items ?? [];
  const linked = new Set(own.map((l) => l.oFormIdentity));
  const options = (offered.data?.items ?? []).filter((s) => !linked.has(s.oFormIdentity));
  const serving = served.data ?? null;
  return (
    <section className="panel" id="surveys" aria-labelledby="channel-surveys-title">
      <h2 id="channel-surveys-title">Surveys</h2>
      <ErrorText message={error} />
      {links.data && serving && (
        <>
          <p className="muted">
            {own.length === 0
              ? 'Serves every active survey of its screener. Add surveys below to serve only those.'
              : 'Serves only the surveys added below that are active.'}
          </p>
          {serving.length === 0 ? (
            <p className="muted">
              {own.length === 0
                ? 'This channel serves no surveys yet: its screener has no active survey.'
                : 'This channel serves no surveys: none of the surveys below is active.'}
            </p>
          ) : (
            <>
              <ol className="plain-list" aria-label="Served to participants">
                {serving.map((s) => (
                  <li key={s.id}>
                    {surveyLabel(s)} {s.starts && <span className="badge badge-active">Participants start here</span>}
                  </li>
                ))}
              </ol>
              {!serving.some((s) => s.starts) && (
                <p className="muted">No survey starts now: a survey needs an approved, active version, and the channel and its screener must be active.</p>
              )}
            </>
          )}
        </>
      )}
      {own.length > 0 && (
        <SurveyLinks
          label="Channel surveys"
          links={own}
          button={(l) => ({ verb: l.isActive ? 'Deactivate' : 'Activate', className: 'btn-secondary' })}
          onClick={(l) => void act(() => api.setSurveyActive(l.id, !l.isActive))}
        />
      )}
      {options.length > 0 && (
        <SurveyAdder
          label="Survey to add"
          name="channel-survey"
          value={identity}
          onChange={setIdentity}
          search={searchWithin(options)}
          refreshKey={options.map((s) => s.oFormIdentity).join()}
          hint="Surveys of its screener."
          onAdd={() => {
            const chosen = identity;
            setIdentity('');
            void act(() => api.addSurvey(channel.id, chosen));
          }}
        />
      )}
    </section>
  );
}

function ChannelDetails({ channel }: { channel: MediaChannel }) {
  useTopBar({
    objectTitle: channel.title,
    // SPEC: media channel crumbs are sponsor > screener.
    breadcrumbs: [
      { label: channel.sponsorName, to: pathTo('SponsorsView', { id: channel.sponsorId }) },
      { label: channel.screenerName, to: pathTo('ScreenerView', { screenerId: channel.screenerId }) },
      { label: channel.title },
    ],
    buttons: [
      { label: 'Back', to: pathTo('ScreenerView', { screenerId: channel.screenerId }) },
      { label: 'Edit', to: pathTo('MediaChannelEdit', { id: channel.id }), variant: 'primary' },
    ],
  });
  return (
    <>
      <section className="panel">
        <ViewFields
          fields={[
            { label: L.title, value: channel.title },
            { label: L.domain, value: channel.domain },
            { label: L.type, value: channel.channelType },
            { label: L.isActive, value: <StatusBadge active={channel.isActive} /> },
            { label: 'Recruitment', value: recruitmentText(channel.recruitmentPause) },
            { label: L.retakeWindowDays, value: channel.retakeWindowDays === 0 ? '0 (retakes allowed)' : channel.retakeWindowDays },
            { label: L.eventsPolicy, value: EVENTS_POLICY_LABELS[channel.eventsPolicy] },
            {
              label: L.isolation,
              value: (
                <>
                  {CHANNEL_ISOLATION_LABELS[channel.isolation]}
                  {channel.isolation === 'frame' && <span className="muted"> — {FRAME_ISOLATION_EXPLAINED}</span>}
                </>
              ),
            },
            { label: L.locale, value: `${channel.locale} (distances in ${distanceUnitOf(localeRegion(channel.locale)) === 'km' ? 'kilometres' : 'miles'})` },
            {
              label: 'Hidden fields',
              value: channel.hiddenFields.length ? channel.hiddenFields.map((f) => `data-field-${f.name} (at most ${f.maxLength})`).join(', ') : 'None',
            },
            { label: L.screenerName, value: <Link to={pathTo('ScreenerView', { screenerId: channel.screenerId })}>{channel.screenerName}</Link> },
            { label: L.sponsorName, value: <Link to={pathTo('SponsorsView', { id: channel.sponsorId })}>{channel.sponsorName}</Link> },
            { label: L.views, value: channel.views },
            { label: L.share, value: channel.share },
            { label: L.submissionsStarted, value: channel.submissionsStarted },
            { label: L.possibleRetakes, value: channel.possibleRetakes },
            { label: L.submissionsCompleted, value: channel.submissionsCompleted },
            { label: L.submissionsQualified, value: channel.submissionsQualified },
            { label: 'Created', value: formatDateTime(channel.created) },
            { label: 'Modified', value: formatDateTime(channel.modified) },
          ]}
        />
      </section>
      <FunnelPanel filters={{ mediaChannelId: channel.id }} of={channel.title} groupBy="source" />
      <SpendsPanel channelId={channel.id} />
      <SnippetPanel channel={channel} />
      <ParticipantLinkPanel channel={channel} />
      <LinkBuilderPanel channel={channel} />
      <EmbedProblemsPanel channel={channel} />
      <SurveyLinksPanel channel={channel} />
      <ChannelPreviewPanel channel={channel} />
    </>
  );
}

export default function MediaChannelView() {
  return (
    <RecordView state={useMediaChannel()} resource="media channel" history="media-channels" labels={L}>
      {(channel) => <ChannelDetails channel={channel} />}
    </RecordView>
  );
}
