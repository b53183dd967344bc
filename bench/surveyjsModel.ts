/**
 * A survey as SurveyJS runs it, for the widget bench's side-by-side (bench/surveyjs.ts): the same
 * page documents the participant API answers (the widget renders these) turned into a SurveyJS
 * JSON model — same pages in the same order, same questions, same choices, same required flags
 * and the same per-language titles; an option's jump to a later page hides the pages it skips
 * (SurveyJS's `visibleIf`), and a jump to the end or to another survey completes this one.
 * Who an option disqualifies is not in the page documents (it stays on the server), so not here.
 */
import type { PageDocument, PageField } from '@core/participant/responses';
import type { FieldType } from '@core/model/survey';
import { loadSurvey, pageDocument, approvedVersion } from '../server/participant/runSurvey';
import type { Db } from '../server/db/open';

/** A localizable SurveyJS string: plain, or `{default, es, …}`. */
type Text = string | Record<string, string>;

export interface SurveyJsChoice {
  value: string;
  text: Text;
}

export interface SurveyJsQuestion {
  type: 'radiogroup' | 'checkbox' | 'dropdown' | 'text' | 'html';
  name: string;
  title?: Text;
  description?: Text;
  isRequired?: boolean;
  inputType?: 'number' | 'email' | 'tel' | 'date';
  choices?: SurveyJsChoice[];
  html?: Text;
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
}

export interface SurveyJsPage {
  name: string;
  title: Text;
  elements: SurveyJsQuestion[];
  visibleIf?: string;
}

export interface SurveyJsModel {
  showQuestionNumbers: 'off';
  pages: SurveyJsPage[];
  triggers?: { type: 'complete'; expression: string }[];
}

/** The pages of a survey's approved version, as the containers route answers each of them. */
export async function surveyPageDocuments(db: Db, identity: string): Promise<PageDocument[]> {
  const form = await approvedVersion(db, identity);
  if (!form) throw new Error(`No approved version of survey ${identity}`);
  const survey = await loadSurvey(db, form);
  return survey.pages.map((page) => pageDocument(survey, page));
}

/** `text` with its translations, in SurveyJS's shape: a plain string when none is filled in. */
function localized(text: string, translations: Record<string, string | null | undefined>): Text {
  const filled = Object.entries(translations).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].trim() !== '');
  return filled.length === 0 ? text : { default: text, ...Object.fromEntries(filled) };
}

const field = (f: PageField): SurveyJsQuestion => {
  const c = f.attributes.configuration;
  const byLanguage = (key: 'title' | 'helperText') => Object.fromEntries(Object.entries(c.translations).map(([lang, t]) => [lang, t[key]]));
  const common = {
    name: f.attributes.identity,
    title: localized(f.attributes.title, byLanguage('title')),
    ...(c.helperText ? { description: localized(c.helperText, byLanguage('helperText')) } : {}),
    ...(c.required ? { isRequired: true } : {}),
  };
  const choices = c.options.map((o) => ({ value: o.value, text: localized(o.label, o.translations) }));
  const limits = { min: c.minValue, max: c.maxValue, minLength: c.minLength, maxLength: c.maxLength };
  const defined = Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined));
  const as: Record<FieldType, () => SurveyJsQuestion> = {
    placeholder: () => ({ type: 'html', name: common.name, html: common.title }),
    single: () => ({ ...common, type: 'radiogroup', choices }),
    yes_no: () => ({ ...common, type: 'radiogroup', choices }),
    multiple: () => ({ ...common, type: 'checkbox', choices }),
    dropdown: () => ({ ...common, type: 'dropdown', choices }),
    text: () => ({ ...common, type: 'text', ...defined }),
    number: () => ({ ...common, type: 'text', inputType: 'number', ...defined }),
    email: () => ({ ...common, type: 'text', inputType: 'email' }),
    phone: () => ({ ...common, type: 'text', inputType: 'tel' }),
    zip: () => ({ ...common, type: 'text' }),
    date: () => ({ ...common, type: 'text', inputType: 'date' }),
    dob: () => ({ ...common, type: 'text', inputType: 'date' }),
  };
  return as[f.attributes.oFormFieldTypeId]();
};

/** A SurveyJS expression's string literal. */
const literal = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The survey of these page documents (in the survey's page order) as a SurveyJS JSON model. */
export function surveyJsModel(documents: PageDocument[]): SurveyJsModel {
  const pages = documents.map((d) => {
    const fields = d.included
      .filter((x): x is PageField => 'oFormFieldTypeId' in x.attributes)
      .sort((a, b) => a.attributes.displayOrder - b.attributes.displayOrder);
    return {
      identity: d.data.attributes.identity,
      title: localized(d.data.attributes.title, Object.fromEntries(Object.entries(d.data.attributes.translations).map(([l, t]) => [l, t.title]))),
      fields,
    };
  });
  /** A skipped page shows only while none of the answers that jump past it is given. */
  const shownWhen = new Map<string, string[]>();
  const triggers: { type: 'complete'; expression: string }[] = [];
  for (const [index, page] of pages.entries()) {
    for (const f of page.fields) {
      for (const o of f.attributes.configuration.options) {
        const many = f.attributes.oFormFieldTypeId === 'multiple';
        const answer = (is: boolean) => `{${f.attributes.identity}} ${many ? (is ? 'contains' : 'notcontains') : is ? '=' : '!='} ${literal(o.value)}`;
        const to = o.transition;
        if (to === null) continue;
        if (to.to !== 'page') {
          triggers.push({ type: 'complete', expression: answer(true) });
          continue;
        }
        const target = pages.findIndex((p) => p.identity === to.identity);
        for (const skipped of pages.slice(index + 1, target > index ? target : index + 1)) {
          shownWhen.set(skipped.identity, [...(shownWhen.get(skipped.identity) ?? []), answer(false)]);
        }
      }
    }
  }
  return {
    showQuestionNumbers: 'off',
    pages: pages.map((p) => {
      const shown = shownWhen.get(p.identity);
      return { name: p.identity, title: p.title, elements: p.fields.map(field), ...(shown ? { visibleIf: shown.join(' and ') } : {}) };
    }),
    ...(triggers.length > 0 ? { triggers } : {}),
  };
}
