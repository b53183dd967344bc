/** A funnel row as the API answers it: its counts (./funnel.ts) and its cost figures (./funnelCosts.ts). */
import * as v from 'valibot';
import { count, resourceAnswer, type Answered } from './answers';
import { FUNNEL_DEFINITIONS, FUNNEL_FIGURES, FUNNEL_ROW_TYPE, type FunnelFigure } from './funnel';
import { COST_FIGURES, type CostFigure } from './funnelCosts';

type Counted = Exclude<FunnelFigure, 'viewed'>;
const counted = (figure: Counted) => v.pipe(count(), v.description(FUNNEL_DEFINITIONS[figure]));
const counts = Object.fromEntries(FUNNEL_FIGURES.filter((f): f is Counted => f !== 'viewed').map((f) => [f, counted(f)])) as Record<
  Counted,
  ReturnType<typeof counted>
>;

/** Money by ISO 4217 currency, each amount a decimal text; null where the row's grouping or filters cannot carry spend. */
const money = (what: string) => v.pipe(v.nullable(v.record(v.string(), v.nullable(v.string()))), v.description(what));
const costs = Object.fromEntries(
  (Object.keys(COST_FIGURES) as CostFigure[]).map((figure) => [
    figure,
    money(
      `The spend divided by ${COST_FIGURES[figure]}, by currency (an amount is null where nobody reached the stage); null where the row cannot carry spend.`,
    ),
  ]),
) as Record<CostFigure, ReturnType<typeof money>>;

export const FUNNEL_ROW = resourceAnswer(
  FUNNEL_ROW_TYPE,
  v.object({
    group: v.pipe(v.nullable(v.string()), v.description("The group's key (an id, a code, a date), or null for no grouping or rows without one.")),
    label: v.string(),
    viewed: v.pipe(v.nullable(count()), v.description(`${FUNNEL_DEFINITIONS.viewed} Null where the grouping cannot count views.`)),
    ...counts,
    spend: money('What the channels in the row cost over the range, by currency (a decimal text); null where the row cannot carry spend.'),
    ...costs,
  }),
);

export type FunnelRow = Answered<typeof FUNNEL_ROW>;
