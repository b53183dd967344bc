import { describe, expect, it } from 'vitest';
import { ApiError, createApiClient, UnexpectedAnswerError } from '@core/api/client';
import { engagementFilesApi } from '@core/api/engagementFiles';
import { funnelApi } from '@core/api/funnel';
import { surveysApi } from '@core/api/surveys';
import { rmsProvidersApi } from '@core/api/rmsProviders';
import { FUNNEL_DEFINITIONS } from '@core/model/funnel';

/** A client whose server answers every call with `body`. */
const answering = (body: unknown, status = 201) =>
  createApiClient({
    baseUrl: 'http://api.test/api',
    fetch: async () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/vnd.api+json' } }),
  });

const file = {
  engagementId: 3,
  created: '2026-01-31T12:00:00.000Z',
  filename: 'protocol.pdf',
  mime: 'application/pdf',
  size: 12,
  downloadUrl: '/api/engagements-o-files/9/download',
};

describe('answers read through core/model schemas', () => {
  it('answers the resource as its schema reads it, without the JSON:API type', async () => {
    const api = engagementFilesApi(answering({ data: { type: 'engagements-o-files', id: '9', attributes: file } }));
    expect(await api.upload('3', new Blob(['x']), 'protocol.pdf')).toEqual({ id: '9', ...file });
  });

  it('throws an error naming the call and the member when an answer is not the declared shape', async () => {
    const api = engagementFilesApi(answering({ data: { type: 'engagements-o-files', id: '9', attributes: { ...file, size: '12' } } }));
    const error = await api.upload('3', new Blob(['x']), 'protocol.pdf').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedAnswerError);
    // An ApiError: screens show its message as they show the server's.
    expect(error).toBeInstanceOf(ApiError);
    expect((error as Error).message).toMatch(/^The server's answer to the upload is not what this screen expects \(size: .+\)\.$/);
  });

  it('reads a test delivery with no receiver status, and refuses one without its outcome', async () => {
    const test = { succeeded: false, status: null, responseMessage: 'Could not reach the record system', durationMs: 5000 };
    const ok = rmsProvidersApi(answering({ data: { type: 'rms-provider-tests', id: 'r1', attributes: test } }));
    expect(await ok.test('1')).toEqual({ id: 'r1', ...test });
    const bad = rmsProvidersApi(answering({ data: { type: 'rms-provider-tests', id: 'r1', attributes: { ...test, succeeded: undefined } } }));
    await expect(bad.test('1')).rejects.toThrow(/succeeded/);
  });

  it("reads a version's detail as pages and questions in order, and refuses a page whose questions were not included", async () => {
    const form = {
      identity: 's1',
      version: 1,
      title: 'Survey',
      isActive: true,
      isApproved: false,
      approvedAt: null,
      engagementId: '2',
      engagementName: 'E',
      sponsorId: '1',
      sponsorName: 'S',
      containerCount: 1,
      transitions: [],
      created: '2026-01-01T00:00:00.000Z',
      modified: '2026-01-01T00:00:00.000Z',
    };
    const page = {
      identity: 'p1',
      oFormVersionId: '5',
      oFormIdentity: 's1',
      title: 'Page',
      displayOrder: 1,
      isActive: true,
      oFormContainerTypeId: 'root_container',
      parentId: null,
      translations: {},
    };
    const field = (id: string, displayOrder: number) => ({
      type: 'o-form-fields',
      id,
      attributes: {
        identity: `q${id}`,
        containerId: '7',
        oFormContainerIdentity: 'p1',
        title: `Q${id}`,
        oFormFieldTypeId: 'text',
        oFormFieldCategoryId: null,
        isActive: true,
        displayOrder,
        configuration: {},
        tags: [],
      },
    });
    const document = (fields: { type: string; id: string }[]) => ({
      data: {
        type: 'o-forms',
        id: '5',
        attributes: form,
        relationships: {
          oFormContainers: { data: [{ type: 'o-form-containers', id: '7' }] },
          languages: { data: [{ type: 'languages', id: '1' }] },
          engagement: { data: { type: 'engagements', id: '2' } },
        },
      },
      included: [
        {
          type: 'o-form-containers',
          id: '7',
          attributes: page,
          relationships: {
            oFormFields: {
              data: [
                { type: 'o-form-fields', id: '11' },
                { type: 'o-form-fields', id: '10' },
              ],
            },
          },
        },
        ...fields,
        { type: 'languages', id: '1', attributes: { name: 'English', description: 'English', isoCode: 'en' } },
      ],
    });
    const detail = await surveysApi(answering(document([field('10', 1), field('11', 2)]), 200)).detail('5');
    expect(detail.form).toEqual({ id: '5', ...form });
    expect(detail.languages).toEqual([{ id: '1', name: 'English', description: 'English', isoCode: 'en' }]);
    expect(detail.pages.map((p) => [p.identity, p.fields.map((f) => f.identity)])).toEqual([['p1', ['q10', 'q11']]]);
    expect(detail.pages[0]!.fields[0]!.configuration.options).toEqual([]);
    await expect(surveysApi(answering(document([field('10', 1)]), 200)).detail('5')).rejects.toThrow(/oFormContainers\.0\.oFormFields\.0/);
  });

  it("keeps this client's sentence for a funnel stage the server does not define", async () => {
    const client = answering({ data: [], meta: { total: 0, definitions: { viewed: 'Seen.' } } }, 200);
    const { definitions } = await funnelApi(client).rows();
    expect(definitions).toEqual({ ...FUNNEL_DEFINITIONS, viewed: 'Seen.' });
    const bad = answering({ data: [], meta: { total: 0, definitions: { viewed: 3 } } }, 200);
    await expect(funnelApi(bad).rows()).rejects.toBeInstanceOf(UnexpectedAnswerError);
  });
});
