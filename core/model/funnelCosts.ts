/**
 * The funnel's cost figures (server/funnel/costs.ts): what the channels in a row cost over the
 * range, and that divided by the participants who started, qualified, were referred and were
 * randomized. Money is a map from ISO 4217 currency to a decimal text in it ("1234.56"), one
 * entry per currency spent: currencies are never converted into one another.
 */
import type { FunnelCounts, FunnelGrouping } from './funnel';

/** The groupings a spend can be told under: its channel, its campaign, the engagements its channel's starts went to, or all. */
export const COST_GROUPINGS: readonly FunnelGrouping[] = ['none', 'mediaChannel', 'campaign', 'engagement'];

/** Each cost figure and the stage it divides by; a referral is a contact left that is not a duplicate. */
export const COST_FIGURES = {
  costPerStarted: 'started',
  costPerQualified: 'qualified',
  costPerReferred: 'contactLeft',
  costPerRandomized: 'randomized',
} as const satisfies Record<string, keyof FunnelCounts>;
export type CostFigure = keyof typeof COST_FIGURES;

export const COST_FIGURE_LABELS: Record<'spend' | CostFigure, string> = {
  spend: 'Spend',
  costPerStarted: 'Cost per started',
  costPerQualified: 'Cost per qualified',
  costPerReferred: 'Cost per referred',
  costPerRandomized: 'Cost per randomized',
};

/** Currency -> amount as a decimal text; null where nobody reached the stage. */
export type Money = Record<string, string | null>;

/** Null throughout where the row's grouping or the filters cannot carry spend (a site, a survey, a day…). */
export type FunnelCostFigures = { spend: Money | null } & Record<CostFigure, Money | null>;

export const NO_COSTS: FunnelCostFigures = { spend: null, costPerStarted: null, costPerQualified: null, costPerReferred: null, costPerRandomized: null };

/** Money as staff read it: "1600.00 USD; 30000 JPY", a dash where there is none to show. */
export function moneyText(money: Money | null | undefined): string {
  const parts = Object.entries(money ?? {}).flatMap(([currency, amount]) => (amount === null ? [] : [`${amount} ${currency}`]));
  return parts.length ? parts.join('; ') : '—';
}
