import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '#core/domain';
import { Helpdesk } from './helpdesk.js';

const T0 = new Date('2026-11-22T10:00:00.000Z');
const T1 = new Date('2026-11-22T10:05:00.000Z');

function refusal(work: () => unknown): ValidationError {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error('expected a ValidationError');
}

describe('Helpdesk branding', () => {
  it('starts with no logo, the default accent and no footer links', () => {
    const helpdesk = Helpdesk.create(['en'], T0);
    expect([helpdesk.logoUrl, helpdesk.accentColor, helpdesk.footerLinks]).toEqual([null, null, []]);
  });

  it('takes a logo URL, an accent colour (lowercased) and footer links (labels trimmed), and clears them with null and []', () => {
    const helpdesk = Helpdesk.create(['en'], T0);
    helpdesk.update(
      {
        logoUrl: 'https://cdn.example.com/logo.svg',
        accentColor: '#0B5FFF',
        footerLinks: [
          { label: ' Status ', url: 'https://status.example.com' },
          { label: 'Contact', url: 'mailto:support@example.com' },
        ],
      },
      T1,
    );
    expect(helpdesk.logoUrl).toBe('https://cdn.example.com/logo.svg');
    expect(helpdesk.accentColor).toBe('#0b5fff');
    expect(helpdesk.footerLinks).toEqual([
      { label: 'Status', url: 'https://status.example.com' },
      { label: 'Contact', url: 'mailto:support@example.com' },
    ]);
    expect(helpdesk.updatedAt).toEqual(T1);
    helpdesk.update({ name: 'Acme' }, T1);
    expect(helpdesk.accentColor).toBe('#0b5fff');
    helpdesk.update({ logoUrl: null, accentColor: null, footerLinks: [] }, T1);
    expect([helpdesk.logoUrl, helpdesk.accentColor, helpdesk.footerLinks]).toEqual([null, null, []]);
  });

  it.each([
    ['logoUrl', { logoUrl: 'javascript:alert(1)' }],
    ['logoUrl', { logoUrl: 'data:image/png;base64,AAAA' }],
    ['logoUrl', { logoUrl: '/relative/logo.png' }],
    ['logoUrl', { logoUrl: 'https://user:pass@example.com/logo.png' }],
    ['logoUrl', { logoUrl: `https://example.com/${'a'.repeat(2048)}` }],
    ['accentColor', { accentColor: 'red' }],
    ['accentColor', { accentColor: '#fff' }],
    ['accentColor', { accentColor: '#12345g' }],
    ['footerLinks', { footerLinks: Array.from({ length: 11 }, (_, i) => ({ label: `L${i}`, url: 'https://example.com' })) }],
    ['footerLinks.0.label', { footerLinks: [{ label: '  ', url: 'https://example.com' }] }],
    ['footerLinks.0.label', { footerLinks: [{ label: 'x'.repeat(61), url: 'https://example.com' }] }],
    ['footerLinks.1.url', { footerLinks: [{ label: 'ok', url: 'https://example.com' }, { label: 'bad', url: 'javascript:alert(1)' }] }],
    ['footerLinks.0.url', { footerLinks: [{ label: 'ftp', url: 'ftp://example.com/file' }] }],
  ])('refuses a bad %s and changes nothing', (field, changes) => {
    const helpdesk = Helpdesk.create(['en'], T0);
    const before = helpdesk.snapshot();
    const error = refusal(() => helpdesk.update({ name: 'Changed', ...changes }, T1));
    expect(error.details?.[0]?.field).toBe(field);
    expect(helpdesk.snapshot()).toEqual(before);
  });
});
