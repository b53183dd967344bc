/**
 * The widget bench's SurveyJS side-by-side runs the same survey as the widget
 * (bench/surveyjsModel.ts): the demo survey's page documents, as the participant API serves them,
 * turned into a SurveyJS model that SurveyJS itself then runs with the same pages, questions,
 * choices and page jump.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Model } from 'survey-core';
import { DEMO_SURVEY_IDENTITY, seedDemoRun } from '../../server/demo';
import { surveyJsModel, surveyPageDocuments } from '../../bench/surveyjsModel';
import type { PageDocument } from '@core/participant/responses';
import { createHarness, json, type Harness } from './harness';

let h: Harness;
let documents: PageDocument[];

beforeAll(async () => {
  h = await createHarness();
  await seedDemoRun(h.db);
  documents = await surveyPageDocuments(h.db, DEMO_SURVEY_IDENTITY);
});
afterAll(async () => {
  await h.close();
});

describe('the demo survey as SurveyJS runs it', () => {
  it('starts from the page documents the participant API serves the widget', async () => {
    const oFormId = documents[0]!.data.attributes.oFormVersionId;
    const served = await json<PageDocument>(await h.app.request(`/api/o-forms/o-form-containers?oFormId=${oFormId}&type=firstContainerPerForm`));
    expect(documents.map((d) => d.data.attributes.identity)).toEqual(['demo-about-you', 'demo-heart', 'demo-where']);
    expect(documents[0]).toEqual(served);
  });

  it('has the same pages, questions, choices and required flags, in both languages', () => {
    const model = surveyJsModel(documents);
    expect(model.pages.map((p) => [p.name, p.title])).toEqual([
      ['demo-about-you', { default: 'About you', es: 'Sobre usted' }],
      ['demo-heart', { default: 'Your heart health', es: 'La salud de su corazón' }],
      ['demo-where', { default: 'Where you live', es: 'Dónde vive' }],
    ]);
    expect(model.pages[0]!.elements).toEqual([
      {
        type: 'radiogroup',
        name: 'demo-age',
        title: { default: 'How old are you?', es: '¿Qué edad tiene?' },
        isRequired: true,
        choices: [
          { value: 'under-18', text: { default: 'Under 18', es: 'Menos de 18' } },
          { value: '18-64', text: { default: '18 to 64', es: 'De 18 a 64' } },
          { value: '65-plus', text: { default: '65 or older', es: '65 o más' } },
        ],
      },
      {
        type: 'radiogroup',
        name: 'demo-diagnosed',
        title: {
          default: 'Has a doctor ever told you that you have high blood pressure?',
          es: '¿Algún médico le ha dicho que tiene la presión arterial alta?',
        },
        isRequired: true,
        choices: [
          { value: 'yes', text: { default: 'Yes', es: 'Sí' } },
          { value: 'no', text: { default: 'No', es: 'No' } },
        ],
      },
    ]);
    expect(model.pages[1]!.elements.map((q) => [q.name, q.type, q.inputType, q.isRequired ?? false])).toEqual([
      ['demo-treatment', 'checkbox', undefined, false],
      ['demo-visits', 'text', 'number', false],
    ]);
    expect(model.pages[2]!.elements).toEqual([
      {
        type: 'text',
        name: 'demo-zip',
        title: { default: 'Your ZIP code', es: 'Su código postal' },
        description: 'We use it to find the study sites nearest to you.',
        isRequired: true,
      },
    ]);
  });

  it('runs in SurveyJS, skipping the treatment page for those never diagnosed as the widget does', () => {
    const survey = new Model(surveyJsModel(documents));
    const visible = () => survey.visiblePages.map((p) => p.name);
    expect(visible()).toEqual(['demo-about-you', 'demo-heart', 'demo-where']);
    survey.setValue('demo-diagnosed', 'no');
    expect(visible()).toEqual(['demo-about-you', 'demo-where']);
    survey.setValue('demo-diagnosed', 'yes');
    expect(visible()).toEqual(['demo-about-you', 'demo-heart', 'demo-where']);
    expect(survey.getQuestionByName('demo-age').isRequired).toBe(true);
    survey.locale = 'es';
    expect(survey.pages[0]!.processedTitle).toBe('Sobre usted');
  });
});
