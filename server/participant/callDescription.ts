/**
 * A participant call's description. The widget names the channel it runs on in every call it
 * makes (`?mediaChannelId=`), so the channel's allowed origins apply to it (./cors.ts): every
 * participant call takes that parameter besides its own, described and checked as one.
 */
import type { MiddlewareHandler } from 'hono';
import type { GenericSchema } from 'valibot';
import { PARTICIPANT_ANSWERS, type ParticipantAnswerName } from '@core/participant/responses';
import { describe, type DescribedEnv, type RouteDoc } from '../openapi/describe';
import { CHANNEL_QUERY } from './cors';

const describeParticipantCall = <const D extends RouteDoc>(doc: D) => describe({ ...doc, query: { ...CHANNEL_QUERY, ...doc.query } });

/**
 * A call of the participant contract, as its route declares it: the answer by the contract's
 * name for it (PARTICIPANT_ANSWERS, what the widget's transport checks each answer against), and
 * a body, where it takes one, of `attributes` under `data` that name no resource type.
 */
export interface ParticipantCall extends Omit<RouteDoc, 'answer' | 'body' | 'list' | 'read'> {
  readonly answer: ParticipantAnswerName;
  readonly status?: 201 | 202;
  readonly attributes?: GenericSchema;
  /** A plain JSON body instead of attributes (the contact step's document). */
  readonly body?: { readonly json: GenericSchema };
}

/** The body a participant call declares, as RouteDoc states it. */
type CallBody<C extends ParticipantCall> = C extends { readonly attributes: infer S extends GenericSchema }
  ? { readonly body: { readonly resource: null; readonly attributes: S } }
  : C extends { readonly body: infer B }
    ? { readonly body: B }
    : object;

/** What a participant call's description adds to its handlers' context (see DescribedEnv). */
export type ParticipantCallEnv<C extends ParticipantCall> = DescribedEnv<CallBody<C>>;

export function participantCall<const C extends ParticipantCall>(call: C): MiddlewareHandler<ParticipantCallEnv<C>>;
export function participantCall({ answer, status, attributes, ...doc }: ParticipantCall): MiddlewareHandler {
  return describeParticipantCall({
    ...doc,
    ...(attributes === undefined ? {} : { body: { resource: null, attributes } }),
    answer: { document: PARTICIPANT_ANSWERS[answer], ...(status === undefined ? {} : { status }) },
  });
}
