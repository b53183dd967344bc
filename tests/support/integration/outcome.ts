/**
 * What the partner integration (partnerClient.ts) is given and what it answers: apart from it, so
 * the test that runs it imports these types without compiling the integration, whose generated
 * types exist only while that test runs.
 */
export interface Partner {
  readonly baseUrl: string;
  readonly username: string;
  readonly password: string;
  /** Makes this run's identifications its own. */
  readonly mark: string;
  /** How many engagements of phase II to create (one of phase III comes with them). */
  readonly engagements: number;
}

export interface PartnerOutcome {
  readonly sponsor: { readonly id: string; readonly name: string; readonly isActive: boolean; readonly totalEngagements: number };
  readonly created: readonly { readonly id: string; readonly fullIdentification: string; readonly radius: number; readonly phase: string | null }[];
  readonly firstPage: { readonly total: number; readonly names: readonly string[]; readonly phases: readonly (string | null)[] };
  readonly secondPage: { readonly page: number; readonly ids: readonly string[]; readonly sponsorIds: readonly number[] };
  readonly csv: string;
}
