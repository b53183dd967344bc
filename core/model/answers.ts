/**
 * The building blocks of the API's answers, as valibot output schemas: a resource's attributes
 * are written once with these (beside the resource's input schema), and its type in core, the
 * route's attribute list (`fields`) and the OpenAPI description are all derived from them.
 */
import * as v from 'valibot';

/** An instant, as the API writes it (ISO 8601 in UTC). */
export const instant = () => v.pipe(v.string(), v.isoTimestamp());
/** A calendar day (yyyy-mm-dd), or null. */
export const optionalDay = () => v.nullable(v.pipe(v.string(), v.isoDate()));
/** A count: a whole number from 0. */
export const count = () => v.pipe(v.number(), v.integer(), v.minValue(0));
/** A whole number. */
export const whole = () => v.pipe(v.number(), v.integer());
/** A stored record's id, as a number in attributes (the resource's own id, and related ids, are strings). */
export const recordId = () => v.pipe(v.number(), v.integer(), v.minValue(1));
/** A stored record's id written as a string, where an older answer already gave it so (survey versions' attributes). */
export const idText = () => v.pipe(v.string(), v.description("A stored record's id, as a string."));
export const nullableText = () => v.nullable(v.string());

type Entries = v.ObjectEntries;

/** A resource's answer: its JSON:API type and the schema of its attributes. */
export interface ResourceAnswer<T extends string = string, E extends Entries = Entries> {
  readonly type: T;
  readonly attributes: v.ObjectSchema<E, undefined>;
  /** The attribute names, in order: what `fields` may select. */
  readonly names: readonly (keyof E & string)[];
  /**
   * What the OpenAPI document names its attributes' schema, where one type is answered in two
   * shapes (a record system's status report of a referral beside the referral itself); by
   * default the type's name.
   */
  readonly shape?: string;
}

export function resourceAnswer<T extends string, E extends Entries>(type: T, attributes: v.ObjectSchema<E, undefined>, shape?: string): ResourceAnswer<T, E> {
  return { type, attributes, names: Object.keys(attributes.entries) as (keyof E & string)[], ...(shape ? { shape } : {}) };
}

/** A resource as core's readers flatten it: its id beside its attributes. */
export type Answered<R extends ResourceAnswer> = { id: string } & v.InferOutput<R['attributes']>;

/** `Answered` as a schema, for readers that parse what they are given: the id beside the attributes. */
export const answered = <E extends Entries>(answer: ResourceAnswer<string, E>) => v.object({ id: v.string(), ...answer.attributes.entries });
