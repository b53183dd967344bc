import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { json, listDocument, makeUser, renderAdmin, resourceDocument, type Handler } from './helpers';

const about = {
  id: 'trial-recruit',
  productName: 'trial-recruit',
  version: '0.1.0',
  description: 'Clinical-trial participant recruitment',
  buildTime: '2026-03-04T05:06:07.000Z',
  databaseKind: 'PGlite',
  databaseVersion: 'PostgreSQL 18.6 (PGlite 0.5.16)',
};
const licences = [
  { id: 'hono', name: 'hono', version: '4.13.19', licence: 'MIT', homepage: 'https://hono.dev' },
  { id: 'pg', name: 'pg', version: '8.23.1', licence: 'MIT', homepage: null },
];
const handler: Handler = (_request, url) => {
  const path = url.pathname.replace(/^\/api\//, '');
  if (path === 'about') return json(resourceDocument('about', about));
  if (path === 'about/licences') return json(listDocument('licences', licences));
  if (path === 'sponsors') return json(listDocument('sponsors', []));
  return undefined;
};

describe('About', () => {
  it('shows the version, build, database, the API reference and the licences, and is reached from the footer', async () => {
    const { location } = renderAdmin({ path: '/sponsors', user: makeUser('User'), handler });
    fireEvent.click(await screen.findByRole('link', { name: 'About' }));
    expect(location()).toBe('/about');
    await screen.findByRole('heading', { name: 'trial-recruit' }, { timeout: 5000 });
    const fact = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling!.textContent;
    expect(fact('Version')).toBe('0.1.0');
    expect(fact('Built')).toMatch(/2026/);
    expect(fact('Database')).toBe('PGlite · PostgreSQL 18.6 (PGlite 0.5.16)');
    expect(screen.getByRole('link', { name: 'API reference' }).getAttribute('href')).toBe('/api/docs');
    expect(screen.getByRole('link', { name: 'OpenAPI document' }).getAttribute('href')).toBe('/api/openapi.json');
    const table = await screen.findByRole('table', { name: 'Licences of the packages the product runs with' });
    expect(
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.textContent),
    ).toEqual(['hono4.13.19MIT', 'pg8.23.1MIT']);
    expect(within(table).getByRole('link', { name: 'hono' }).getAttribute('href')).toBe('https://hono.dev');
    expect(screen.getByRole('navigation', { name: 'Breadcrumb' }).textContent).toContain('About');
  }, 20_000);
});
