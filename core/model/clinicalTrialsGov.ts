import * as v from 'valibot';

export const CTGOV_IMPORT_TYPE = 'clinicaltrials-gov-imports';

/** One site of a ClinicalTrials.gov study as a preview or import lists it. */
export const CtgovSite = v.object({
  siteId: v.string(),
  name: v.string(),
  city: v.nullable(v.string()),
  state: v.nullable(v.string()),
  zipCode: v.nullable(v.string()),
  country: v.nullable(v.string()),
  status: v.nullable(v.string()),
  isActive: v.boolean(),
  changes: v.optional(v.array(v.string())),
});
export type CtgovSite = v.InferOutput<typeof CtgovSite>;

/** What a preview (or an import, once done) answers in `meta`. */
export const CtgovPlan = v.object({
  nctId: v.string(),
  title: v.nullable(v.string()),
  new: v.array(CtgovSite),
  changed: v.array(CtgovSite),
  closed: v.array(CtgovSite),
  unchanged: v.number(),
});
export type CtgovPlan = v.InferOutput<typeof CtgovPlan>;
/** A preview's or an import's answer: a JSON:API document with the plan as its meta. */
export const CtgovPlanDocument = v.object({ meta: CtgovPlan });

/** Where the study comes from: its NCT number (fetched by the server) or the record itself. */
export type CtgovSource = { nctId: string } | { study: unknown };
