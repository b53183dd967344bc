/**
 * What a JSON:API create, update or replacement route takes and answers, as its describe()
 * declares it: one resource of the type the route answers, its attributes checked by
 * `attributes`, answered as it then stands (201 Created for a create; a replaced set as its whole
 * list, wholeList.ts). Stated once, so a route's body and answer cannot name two types.
 */
import type { GenericSchema } from 'valibot';
import type { ResourceAnswer } from '@core/model/answers';

/** A create: a resource of `answer`'s type, answered 201. */
export const resourceCreation = <A extends ResourceAnswer, S extends GenericSchema>(summary: string, answer: A, attributes: S) => ({
  summary,
  body: { resource: answer.type, attributes },
  answer: { resource: answer, status: 201 as const },
});

/** An update: a resource of `answer`'s type, answered 200. */
export const resourceUpdate = <A extends ResourceAnswer, S extends GenericSchema>(summary: string, answer: A, attributes: S) => ({
  summary,
  body: { resource: answer.type, attributes },
  answer: { resource: answer },
});

/** A replacement of a whole set: a resource of `answer`'s type holding the set, answered as the list it then is. */
export const setReplacement = <A extends ResourceAnswer, S extends GenericSchema>(summary: string, answer: A, attributes: S) => ({
  summary,
  body: { resource: answer.type, attributes },
  answer: { list: answer },
});
