/** CSV for spreadsheets: the one writer and reader live in core, which the admin uses too. */
export { csvCell, csvRow } from '@core/csv';
