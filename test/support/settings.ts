import type { Response } from 'supertest';
import { CreateAdminUseCase, IssueSetupTokenUseCase, SESSION_COOKIE, SignInUseCase } from '#admin';
import type { AuditActor } from '#core';
import type { TestApp } from './app.js';

/** A password the rules accept (12+ characters, not a common one). */
export const GOOD_PASSWORD = 'quiet lantern orbit 7 rivers';

/** The actor of admins created by a test (as the CLI would). */
export const TEST_CLI_ACTOR: AuditActor = { kind: 'cli', id: null, label: 'cli (test)', ip: null };

/** One Set-Cookie header, split into its name, value and attributes (names lower-cased). */
export interface SetCookie {
  readonly name: string;
  readonly value: string;
  readonly attributes: ReadonlyMap<string, string>;
  readonly raw: string;
}

export function setCookiesOf(res: Response): SetCookie[] {
  const header = res.headers['set-cookie'] as unknown as string[] | string | undefined;
  const list = header === undefined ? [] : Array.isArray(header) ? header : [header];
  return list.map((raw) => {
    const [pair, ...attrs] = raw.split(';').map((part) => part.trim());
    const eq = pair!.indexOf('=');
    const attributes = new Map<string, string>();
    for (const attr of attrs) {
      const i = attr.indexOf('=');
      attributes.set((i === -1 ? attr : attr.slice(0, i)).toLowerCase(), i === -1 ? '' : attr.slice(i + 1));
    }
    return { name: pair!.slice(0, eq), value: pair!.slice(eq + 1), attributes, raw };
  });
}

/** The `_csrf` value of the first form on a page. */
export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]*)"/.exec(html);
  if (!match) throw new Error(`No _csrf field on the page:\n${html.slice(0, 500)}`);
  return match[1]!;
}

export type FormFields = Record<string, string | readonly string[]>;

export function encodeForm(fields: FormFields): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const item of typeof value === 'string' ? [value] : value) params.append(name, item);
  return params.toString();
}

/**
 * A browser's cookie jar over supertest: keeps the cookies the settings set (dropping deleted ones) and sends them
 * back; `submit` reads a page's CSRF token and posts a form with it, as a browser would.
 */
export class SettingsClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly t: TestApp) {}

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  keep(res: Response): Response {
    for (const cookie of setCookiesOf(res)) {
      if (cookie.attributes.get('max-age') === '0' || cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return res;
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    const req = this.t.http.get(path).set(headers);
    if (this.cookies.size > 0) req.set('Cookie', this.cookieHeader());
    return this.keep(await req);
  }

  /** POSTs a urlencoded form as it is (add `_csrf` yourself). */
  async post(path: string, fields: FormFields, headers: Record<string, string> = {}): Promise<Response> {
    const req = this.t.http.post(path).type('form').set(headers);
    if (this.cookies.size > 0) req.set('Cookie', this.cookieHeader());
    return this.keep(await req.send(encodeForm(fields)));
  }

  /** Opens `page`, then posts its form (to `action`, default the page itself) with the page's CSRF token. */
  async submit(page: string, fields: FormFields, action = page.split('?')[0]!): Promise<Response> {
    const res = await this.get(page);
    if (res.status !== 200) throw new Error(`GET ${page} answered ${res.status}, not a form: ${res.text.slice(0, 300)}`);
    return this.post(action, { _csrf: csrfOf(res.text), ...fields });
  }

  get session(): string | undefined {
    return this.cookies.get(SESSION_COOKIE);
  }
}

/** A setup link's token, as the first start prints it (null once one is pending or an admin exists). */
export async function issueSetupToken(t: TestApp): Promise<string> {
  const issued = await t.app.get(IssueSetupTokenUseCase).execute();
  if (!issued) throw new Error('No setup token issued (an admin exists, or an unused token is pending)');
  return issued.token;
}

export async function createAdmin(t: TestApp, email: string, name = email.split('@')[0]!, password = GOOD_PASSWORD): Promise<string> {
  const created = await t.app.get(CreateAdminUseCase).execute({ email, name, password }, TEST_CLI_ACTOR);
  return created.admin.id;
}

/**
 * A client signed in through the use case, from a made-up address (so the per-address sign-in budget of the test's
 * own address is kept for the sign-in form tests).
 */
export async function signedInClient(t: TestApp, email: string, password = GOOD_PASSWORD, ip = '192.0.2.10'): Promise<SettingsClient> {
  const signedIn = await t.app.get(SignInUseCase).execute({ email, password, ip, userAgent: 'test' });
  const client = new SettingsClient(t);
  client.cookies.set(SESSION_COOKIE, signedIn.cookieValue);
  return client;
}
