import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { bearer, startTestApp, type TestApp } from '../support/app.js';

/** The branding columns as stored (to prove a refused request wrote nothing). */
async function storedBranding(t: TestApp): Promise<Record<string, unknown>> {
  const client = new pg.Client({ connectionString: t.databaseUrl! });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT name, logo_url, accent_color, footer_links, updated_at FROM helpdesks');
    return rows[0] as Record<string, unknown>;
  } finally {
    await client.end();
  }
}

const links = (n: number) => Array.from({ length: n }, (_, i) => ({ label: `Link ${i + 1}`, url: `https://example.com/${i + 1}` }));

describe('helpdesk branding over HTTP (PATCH and GET /v1/helpdesk)', () => {
  let t: TestApp;
  let writer: string;
  let reader: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_REQUESTS_PER_MINUTE: '100000' } });
    writer = await t.key(['content:write']);
    reader = await t.key(['content:read']);
  });
  afterAll(() => t.close());

  it('a fresh helpdesk has no logo, the default accent and no footer links', async () => {
    const res = await t.http.get('/v1/helpdesk').set(bearer(reader)).expect(200);
    expect(res.body).toMatchObject({ logoUrl: null, accentColor: null, footerLinks: [] });
  });

  it('PATCH sets the logo, the accent colour (lowercased) and up to 10 footer links; GET shows them; other fields stay', async () => {
    const footerLinks = [...links(9), { label: '  Contact us ', url: 'mailto:support@example.com' }];
    const res = await t.http
      .patch('/v1/helpdesk')
      .set(bearer(writer))
      .send({ logoUrl: 'https://cdn.example.com/logo.svg', accentColor: '#0B5FFF', footerLinks })
      .expect(200);
    expect(res.body).toMatchObject({
      name: 'Help Center',
      languages: ['en'],
      logoUrl: 'https://cdn.example.com/logo.svg',
      accentColor: '#0b5fff',
      footerLinks: [...links(9), { label: 'Contact us', url: 'mailto:support@example.com' }],
    });
    expect((await t.http.get('/v1/helpdesk').set(bearer(reader)).expect(200)).body).toEqual(res.body);

    const renamed = await t.http.patch('/v1/helpdesk').set(bearer(writer)).send({ name: 'Acme Help' }).expect(200);
    expect(renamed.body).toMatchObject({ name: 'Acme Help', logoUrl: 'https://cdn.example.com/logo.svg', accentColor: '#0b5fff' });
    expect(renamed.body.footerLinks).toHaveLength(10);
  });

  it.each([
    ['a colour name', { accentColor: 'red' }, 'accentColor'],
    ['a short colour', { accentColor: '#fff' }, 'accentColor'],
    ['a colour that is not hex', { accentColor: '#12345z' }, 'accentColor'],
    ['a javascript: logo', { logoUrl: 'javascript:alert(1)' }, 'logoUrl'],
    ['a data: logo', { logoUrl: 'data:image/svg+xml,<svg onload=alert(1)>' }, 'logoUrl'],
    ['a relative logo', { logoUrl: '/logo.png' }, 'logoUrl'],
    ['a logo URL over 2048 characters', { logoUrl: `https://example.com/${'a'.repeat(2048)}` }, 'logoUrl'],
    ['11 footer links', { footerLinks: links(11) }, 'footerLinks'],
    ['a javascript: footer link', { footerLinks: [{ label: 'Click', url: 'javascript:alert(1)' }] }, 'footerLinks.0.url'],
    ['a footer link without a label', { footerLinks: [{ label: '', url: 'https://example.com' }] }, 'footerLinks.0.label'],
    ['a blank footer label', { footerLinks: [{ label: '   ', url: 'https://example.com' }] }, 'footerLinks.0.label'],
    ['a footer label over 60 characters', { footerLinks: [{ label: 'x'.repeat(61), url: 'https://example.com' }] }, 'footerLinks.0.label'],
    ['a footer link with an unknown field', { footerLinks: [{ label: 'x', url: 'https://example.com', target: '_blank' }] }, 'footerLinks.0.target'],
    ['a footer link that is not an object', { footerLinks: ['https://example.com'] }, 'footerLinks.0'],
    ['null footer links', { footerLinks: null }, 'footerLinks'],
    ['a number as logo', { logoUrl: 42 }, 'logoUrl'],
  ])('400 for %s, and nothing changes', async (_, body, field) => {
    const before = await storedBranding(t);
    const res = await t.http
      .patch('/v1/helpdesk')
      .set(bearer(writer))
      .send({ name: 'Should not be saved', ...body })
      .expect(400);
    expect(res.body.code).toBe('invalid_request');
    expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await storedBranding(t)).toEqual(before);
  });

  it('null clears the logo and the accent colour, [] the footer links', async () => {
    const res = await t.http.patch('/v1/helpdesk').set(bearer(writer)).send({ logoUrl: null, accentColor: null, footerLinks: [] }).expect(200);
    expect(res.body).toMatchObject({ logoUrl: null, accentColor: null, footerLinks: [] });
    expect(await storedBranding(t)).toMatchObject({ logo_url: null, accent_color: null, footer_links: [] });
  });

  it('the OpenAPI document describes the branding fields with an example', async () => {
    const doc = (await t.http.get('/v1/openapi.json').expect(200)).body;
    const request = doc.components.schemas.UpdateHelpdeskRequest;
    expect(Object.keys(request.properties)).toEqual(expect.arrayContaining(['logoUrl', 'accentColor', 'footerLinks']));
    expect(Object.keys(doc.components.schemas.HelpdeskResponse.properties)).toEqual(expect.arrayContaining(['logoUrl', 'accentColor', 'footerLinks']));
    const example = JSON.stringify(doc.paths['/v1/helpdesk'].patch.requestBody);
    expect(example).toContain('#0b5fff');
  });
});
