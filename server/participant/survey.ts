/**
 * The survey as a participant's run reads it (one version: its row, active pages, containers
 * and questions): what runSurvey.ts loads and the rules over it (cannotEnd.ts) take.
 */
import type { FieldConfiguration, FieldType } from '@core/model/survey';
import type { oForms } from '../db/schema';
import type { ContainerRow } from '../surveys';

export type FormRow = typeof oForms.$inferSelect;

export interface SurveyField {
  id: number;
  identity: string;
  containerId: number;
  /** The page (root container) the question is on. */
  pageId: number;
  title: string;
  type: FieldType;
  displayOrder: number;
  configuration: FieldConfiguration;
}

export interface Survey {
  form: FormRow;
  /** Active pages in display order. */
  pages: readonly ContainerRow[];
  /** Every container of the version (pages and their child containers). */
  containers: readonly ContainerRow[];
  /** Active questions on active containers, in display order within their page. */
  fields: readonly SurveyField[];
}
