/**
 * Simple lookups (SPEC section 3): id and name. Indications also carry isActive. Each has its
 * own JSON:API type, which is also its path under /api.
 */
import * as v from 'valibot';
import { flag, requiredText } from './fields';
import { resourceAnswer, type Answered } from './answers';

export const LOOKUP_TYPES = {
  campaignTypes: 'campaign-types',
  indications: 'indications',
  targetGroups: 'target-groups',
  therapeuticAreas: 'therapeutic-areas',
  rmsProviders: 'rms-providers',
  roles: 'roles',
  questionCategories: 'question-categories',
  tags: 'tags',
} as const;

export type LookupType = (typeof LOOKUP_TYPES)[keyof typeof LOOKUP_TYPES];

/** A lookup entry as the API answers it, under its list's type: a name. */
export const lookupAnswer = <T extends string>(type: T) => resourceAnswer(type, v.object({ name: v.string() }));
/** An entry of a list whose entries can be retired (indications): a name, and whether it is offered. */
export const activeLookupAnswer = <T extends string>(type: T) => resourceAnswer(type, v.object({ name: v.string(), isActive: v.boolean() }));

export type Lookup = Answered<ReturnType<typeof lookupAnswer>>;
export type Indication = Answered<ReturnType<typeof activeLookupAnswer>>;

export const LOOKUP_SORTS = ['name', 'id'] as const;

/** POST /api/indications (SPEC: name, is_active; `is_active` is accepted as isActive's alias). */
export const IndicationInput = v.pipe(
  v.strictObject({
    name: requiredText(255),
    isActive: v.optional(flag()),
    is_active: v.optional(flag()),
  }),
  v.transform(({ name, isActive, is_active }) => ({ name, isActive: isActive ?? is_active ?? true })),
);
export type IndicationInput = v.InferInput<typeof IndicationInput>;

/** POST /api/tags. */
export const TagInput = v.strictObject({ name: requiredText(255) });
export type TagInput = v.InferInput<typeof TagInput>;

export const LOOKUP_NAME_TAKEN = 'This name is already in the list.';
