/**
 * A participant call's description. The widget names the channel it runs on in every call it
 * makes (`?mediaChannelId=`), so the channel's allowed origins apply to it (./cors.ts): every
 * participant call takes that parameter besides its own, described and checked as one.
 */
import { describe, type RouteDoc } from '../openapi/describe';
import { CHANNEL_QUERY } from './cors';

export const describeParticipantCall = <const D extends RouteDoc>(doc: D) => describe({ ...doc, query: { ...CHANNEL_QUERY, ...doc.query } });
