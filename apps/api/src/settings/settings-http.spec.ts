import { describe, expect, it } from '@jest/globals';
import type { Request, Response } from 'express';
import { cookiesOf, looksLikeToken, randomToken, sameToken, secureCookies, setCookie } from './http/cookies.js';
import { isSameOriginPost } from './http/same-origin.js';
import { SETTINGS_CSP, setSettingsHeaders } from './http/settings-response.js';
import { expiryOf } from './http/form.js';
import { formErrorsOf, sentence } from './settings-pages.js';
import { SettingsUrls } from './settings-urls.js';
import { ValidationError } from '#core';

function request(headers: Record<string, string>): Request {
  return { headers } as unknown as Request;
}

/** A response that records its headers (as Express's `setHeader` and `append` would). */
function recordingResponse(): Response & { headers: Map<string, string[]> } {
  const headers = new Map<string, string[]>();
  return {
    headers,
    headersSent: false,
    setHeader(name: string, value: string) {
      headers.set(name.toLowerCase(), [value]);
    },
    append(name: string, value: string) {
      headers.set(name.toLowerCase(), [...(headers.get(name.toLowerCase()) ?? []), value]);
    },
  } as unknown as Response & { headers: Map<string, string[]> };
}

describe('SettingsUrls.afterSignIn', () => {
  const urls = new SettingsUrls('https://help.example.com');
  const prefixed = new SettingsUrls('https://example.com/help/');

  it.each(['/settings/audit', '/settings/audit?cursor=abc', '/settings/webhooks/whep_1/deliveries/whdl_2', '/settings'])('goes back to %s', (next) => {
    expect(urls.afterSignIn(next)).toBe(next);
  });

  it.each([
    undefined,
    '',
    'https://evil.example/settings/keys',
    '//evil.example/settings',
    '/settings//evil.example',
    '/settings/../admin',
    '/settings/./keys',
    '/settings/%2e%2e/x',
    '/settings/%2fevil',
    '/settings\\evil',
    '/settingsX',
    '/articles/x',
    '/settings/keys\n',
    '/settings/sign-in',
    '/settings/sign-in?next=/settings/keys',
    '/settings/setup?token=abc',
    '/settings/sign-out',
    `/settings/${'x'.repeat(2100)}`,
  ])('refuses %p and goes to the keys page', (next) => {
    expect(urls.afterSignIn(next)).toBe('/settings/keys');
  });

  it('keeps PUBLIC_URL’s path', () => {
    expect(prefixed.root).toBe('/help/settings');
    expect(prefixed.afterSignIn('/help/settings/audit')).toBe('/help/settings/audit');
    expect(prefixed.afterSignIn('/settings/audit')).toBe('/help/settings/keys');
    expect(prefixed.signIn({ next: '/help/settings/audit', notice: 'session_ended' })).toBe('/help/settings/sign-in?next=%2Fhelp%2Fsettings%2Faudit&notice=session_ended');
    expect(prefixed.siteAsset('site.x.css')).toBe('/help/assets/site.x.css');
  });
});

describe('expiryOf', () => {
  it('is the end of the chosen day, UTC', () => {
    expect(expiryOf('2027-01-31')).toEqual(new Date('2027-02-01T00:00:00.000Z'));
    expect(expiryOf('2028-02-29')).toEqual(new Date('2028-03-01T00:00:00.000Z'));
  });

  it('is none when empty, and invalid for anything but a real date', () => {
    expect(expiryOf('')).toBeNull();
    expect(expiryOf('  ')).toBeNull();
    for (const text of ['2027-02-30', '2027-13-01', '31/01/2027', '2027-1-1', 'tomorrow', '2027-01-31T00:00']) expect(expiryOf(text)).toBe('invalid');
  });
});

describe('cookies', () => {
  it('reads the Cookie header, the first of a repeated name winning', () => {
    const cookies = cookiesOf(request({ cookie: 'a=1; hc_session=abc; hc_session=older; quoted="x y"; broken' }));
    expect(cookies.get('hc_session')).toBe('abc');
    expect(cookies.get('a')).toBe('1');
    expect(cookies.get('quoted')).toBe('x y');
    expect(cookies.has('broken')).toBe(false);
    expect(cookiesOf(request({})).size).toBe(0);
  });

  it('are Secure except on plain http on the machine itself', () => {
    expect(secureCookies('http://localhost:3000')).toBe(false);
    expect(secureCookies('http://127.0.0.1:3000')).toBe(false);
    expect(secureCookies('http://[::1]:3000')).toBe(false);
    expect(secureCookies('https://localhost')).toBe(true);
    expect(secureCookies('http://help.example.com')).toBe(true);
    expect(secureCookies('https://help.example.com/help')).toBe(true);
  });

  it('are HttpOnly, with their path, SameSite and Secure; deleting one expires it', () => {
    const response = recordingResponse();
    setCookie(response, 'hc_session', 'v', { path: '/settings', secure: true, sameSite: 'Lax' });
    setCookie(response, 'hc_csrf', '', { path: '/settings', secure: false, sameSite: 'Strict', maxAgeSeconds: 0 });
    expect(response.headers.get('set-cookie')).toEqual([
      'hc_session=v; Path=/settings; HttpOnly; SameSite=Lax; Secure',
      'hc_csrf=; Path=/settings; HttpOnly; SameSite=Strict; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT',
    ]);
  });

  it('compares tokens exactly, and never a missing one', () => {
    const token = randomToken();
    expect(looksLikeToken(token)).toBe(true);
    expect(sameToken(token, token)).toBe(true);
    expect(sameToken(token, `${token}x`)).toBe(false);
    expect(sameToken(token, randomToken())).toBe(false);
    expect(sameToken('', '')).toBe(false);
    expect(sameToken(undefined, token)).toBe(false);
    expect(sameToken(token, undefined)).toBe(false);
  });
});

describe('isSameOriginPost', () => {
  const origin = 'https://help.example.com';

  it('lets through the site’s own forms, and clients that say nothing', () => {
    expect(isSameOriginPost(request({ origin, 'sec-fetch-site': 'same-origin' }), origin)).toBe(true);
    expect(isSameOriginPost(request({}), origin)).toBe(true);
    expect(isSameOriginPost(request({ 'sec-fetch-site': 'none' }), origin)).toBe(true);
  });

  it('refuses another origin, a null origin and a cross-site request', () => {
    expect(isSameOriginPost(request({ origin: 'https://evil.example' }), origin)).toBe(false);
    expect(isSameOriginPost(request({ origin: 'http://help.example.com' }), origin)).toBe(false);
    expect(isSameOriginPost(request({ origin: 'null' }), origin)).toBe(false);
    expect(isSameOriginPost(request({ 'sec-fetch-site': 'cross-site' }), origin)).toBe(false);
  });
});

describe('the settings headers', () => {
  it('are no-store, the strict CSP, no framing, nosniff and a same-origin referrer', () => {
    const response = recordingResponse();
    setSettingsHeaders(response);
    expect(Object.fromEntries([...response.headers].map(([name, [value]]) => [name, value]))).toEqual({
      'content-security-policy': SETTINGS_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
      'x-frame-options': 'DENY',
      'cache-control': 'no-store',
    });
    expect(SETTINGS_CSP).toBe("default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; form-action 'self'; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'");
  });
});

describe('form errors', () => {
  it('put each validation detail on its control, as a sentence', () => {
    const error = new ValidationError('Invalid', [
      { field: 'name', message: 'name must be 1 to 200 characters' },
      { field: 'other', message: 'Something else.' },
    ]);
    expect(formErrorsOf(error, { name: 'key-name' }, 'key-scopes')).toEqual([
      { id: 'key-name', message: 'Name must be 1 to 200 characters.' },
      { id: 'key-scopes', message: 'Something else.' },
    ]);
    expect(sentence('  ok?  ')).toBe('Ok?');
  });

  it('rethrow anything that is not a validation error', () => {
    const fault = new Error('boom');
    expect(() => formErrorsOf(fault, {}, 'x')).toThrow(fault);
  });
});
