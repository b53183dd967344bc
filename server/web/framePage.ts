/**
 * The page inside a framed widget's iframe (GET /embed/frame, a channel's `isolation: frame`):
 * the snippet's own widget.js on the product's origin (told the partner page's address, which the
 * run names instead of the frame's), so the partner's page holds no question
 * and no answer, and a small relay that tells the partner's page (the origin the query named,
 * nothing else) two things: the widget's height, so the iframe fits its content, and the host
 * events the widget dispatched under the channel's events policy, which widget.js on the partner
 * page dispatches again there. Nothing else crosses the frame.
 */
import { createHash } from 'node:crypto';
import { HOST_EVENTS } from '@core/participant/hostEvents';
import type { FrameRequest } from '../channels';

/**
 * Runs in the frame. `event` is a name from HOST_EVENTS (the relay listens to those alone) and
 * `detail` what the widget gave it (the channel's ids, and under `detailed` a page or an outcome);
 * `height` the widget's element in CSS pixels. Posted only to the partner origin the page names.
 */
const RELAY = `(()=>{const s=document.currentScript,to=s.dataset.parent,w=document.querySelector('[data-trial-widget]'),post=(m)=>parent.postMessage(m,to);
for(const n of ${JSON.stringify(HOST_EVENTS.map((e) => e.name))})document.addEventListener(n,(e)=>post({event:n,detail:e.detail}));
new ResizeObserver(()=>post({height:Math.ceil(w.getBoundingClientRect().height)})).observe(w)})()`;

const RELAY_HASH = `'sha256-${createHash('sha256').update(RELAY).digest('base64')}'`;

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The frame's policy: the widget's script and calls from this origin, the relay by its hash, and
 * only the channel's pages (and the product's own) may frame it.
 */
export const frameCsp = (frameAncestors: string) =>
  [
    "default-src 'none'",
    `script-src 'self' ${RELAY_HASH}`,
    "connect-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');

/** The frame's document: transparent, no margin, the widget's element measured by the relay. */
export function framePage(request: FrameRequest): string {
  const language = request.language ? ` data-language="${request.language}"` : '';
  const fields = request.fields.map(([name, value]) => ` data-field-${name}="${escapeAttribute(value)}"`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Study questionnaire</title>
<style>html,body{margin:0;background:transparent}</style>
</head>
<body>
<div data-trial-widget></div>
<script async src="/widget.js" data-media-channel-id="${request.mediaChannelId}" data-screener-id="${request.screenerId}"${language}${fields} data-page-url="${escapeAttribute(request.page)}"></script>
<script data-parent="${escapeAttribute(request.parentOrigin)}">${RELAY}</script>
</body>
</html>
`;
}
