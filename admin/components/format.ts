const DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const DATE_TIME = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

const parse = (value: string | null | undefined): Date | null => {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
};

export const formatDate = (value: string | null | undefined): string => {
  const date = parse(value);
  return date ? DATE.format(date) : '';
};

export const formatDateTime = (value: string | null | undefined): string => {
  const date = parse(value);
  return date ? DATE_TIME.format(date) : '';
};
