/** A funnel row as the API answers it: its counts (./funnel.ts) and its cost figures (./funnelCosts.ts). */
import type { FunnelRowAttributes } from './funnel';
import type { FunnelCostFigures } from './funnelCosts';

export interface FunnelRow extends FunnelRowAttributes, Partial<FunnelCostFigures> {
  id: string;
}
