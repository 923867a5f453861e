import { describe, expect, it } from '@jest/globals';
import type { AdminView } from '#admin';
import type { AuditEntry } from '#core';
import { ApiKey } from '#gateway';
import type { WebhookDeliveryDetailView, WebhookEndpointView } from '#webhooks';
import { SettingsUrls } from '../settings-urls.js';
import type { SettingsContext } from './context.js';
import { noticeText } from './context.js';
import { renderSettings } from './pages.js';
import { autoDisabled } from './webhooks-views.js';

const HOSTILE = '"><script>alert(1)</script><img src=x onerror=alert(2)>';
const NOW = new Date('2026-05-04T12:00:00.000Z');
const admin: AdminView = { id: 'adm_1', email: 'ada@example.com', name: HOSTILE, createdAt: NOW, updatedAt: NOW };
const ctx: SettingsContext = { urls: new SettingsUrls('https://help.example.com'), admin, csrfToken: 'TOKEN', section: 'keys' };

function key(overrides: Partial<ApiKey['props']> = {}): ApiKey {
  return new ApiKey({
    id: 'key_1',
    name: HOSTILE,
    keyHash: 'h',
    lastFour: 'abcd',
    scopes: ['content:read'],
    createdAt: NOW,
    lastUsedAt: null,
    revokedAt: null,
    expiresAt: null,
    createdBy: HOSTILE,
    ...overrides,
  });
}

const endpoint: WebhookEndpointView = {
  id: 'whep_1',
  url: `https://example.com/hook?x=${HOSTILE}`,
  events: ['*'],
  enabled: false,
  description: HOSTILE,
  failureCount: 12,
  lastSuccessAt: null,
  lastFailureAt: '2026-05-04T11:59:59.000Z',
  disabledAt: '2026-05-04T12:00:00.000Z',
  disabledReason: null,
  disabledMessage: null,
  createdAt: '2026-05-01T00:00:00.000Z',
  updatedAt: '2026-05-04T12:00:00.000Z',
};

function expectEscaped(html: string): void {
  expect(html).not.toContain('<script>');
  expect(html).not.toContain('<img src=x');
  expect(html).toContain('&lt;script>');
}

/** Every <form method="post"> carries the CSRF field. */
function expectTokenInEveryForm(html: string): void {
  const forms = html.match(/<form method="post"[^>]*>[\s\S]*?<\/form>/g) ?? [];
  expect(forms.length).toBeGreaterThan(0);
  for (const form of forms) expect(form).toContain('<input type="hidden" name="_csrf" value="TOKEN"/>');
}

describe('settings views', () => {
  it('escape every text and attribute (names, URLs, descriptions, audit details)', () => {
    const pages = [
      renderSettings.keys(ctx, [key(), key({ id: 'key_2', scopes: null }), key({ id: 'key_3', revokedAt: NOW })], NOW),
      renderSettings.keyCreated(ctx, key(), 'hck_plain'),
      renderSettings.revokeKey(ctx, key()),
      renderSettings.webhooks(ctx, { results: [endpoint], has_more: false, next_cursor: null }, null),
      renderSettings.webhook(ctx, endpoint, { results: [], has_more: false, next_cursor: null }, null),
      renderSettings.webhookForm(ctx, endpoint, { url: HOSTILE, description: HOSTILE, events: [] }, false, [{ id: 'webhook-url', message: HOSTILE }]),
      renderSettings.admins(ctx, [admin]),
      renderSettings.account(ctx, [{ id: 'ses_1', ip: HOSTILE, userAgent: HOSTILE, createdAt: NOW, lastSeenAt: NOW, expiresAt: NOW, idleExpiresAt: NOW, current: false }]),
      renderSettings.audit(
        ctx,
        {
          results: [
            { id: 'aud_1', occurredAt: NOW, actor: { kind: 'admin', id: 'adm_1', label: HOSTILE, ip: HOSTILE }, action: 'webhook.updated', targetType: 'webhook_endpoint', targetId: HOSTILE, details: { [HOSTILE]: HOSTILE, nested: { a: HOSTILE } } } satisfies AuditEntry,
          ],
          has_more: false,
          next_cursor: null,
        },
        null,
      ),
    ];
    for (const html of pages) {
      expect(html.startsWith('<!DOCTYPE html><html lang="en"')).toBe(true);
      expectEscaped(html);
      expectTokenInEveryForm(html);
    }
  });

  it('mark legacy full-access keys, revoked and expired keys', () => {
    const html = renderSettings.keys(ctx, [key({ scopes: null }), key({ id: 'key_2', revokedAt: NOW }), key({ id: 'key_3', expiresAt: new Date(NOW.getTime() - 1) })], NOW);
    expect(html).toContain('Legacy: full access');
    expect(html).toContain('>Revoked<');
    expect(html).toContain('>Expired<');
    // A revoked key has no revoke link.
    expect(html).not.toContain('/settings/keys/key_2/revoke');
  });

  it('tie each error to its control and list it in a summary of links', () => {
    const html = renderSettings.newKey(ctx, { name: '', scopes: [], expiresOn: '' }, '2026-05-04', [
      { id: 'key-name', message: 'Enter a name for the key.' },
      { id: 'key-scopes', message: 'Choose at least one scope.' },
    ]);
    expect(html).toContain('<title>Error: Create a key · Developer settings</title>');
    expect(html).toContain('<a href="#key-name">Enter a name for the key.</a>');
    expect(html).toContain('<a href="#key-scopes">Choose at least one scope.</a>');
    expect(html).toMatch(/<input id="key-name"[^>]*aria-invalid="true"[^>]*aria-describedby="key-name-hint key-name-error"/);
    expect(html).toMatch(/<fieldset class="field has-error" aria-describedby="key-scopes-hint key-scopes-error"><legend>Scopes<\/legend>/);
    // Every scope is a labelled box.
    for (const scope of ['content:read', 'content:write', 'content:publish', 'analytics:read', 'conversations:read', 'webhooks:manage']) expect(html).toContain(`value="${scope}"`);
  });

  it('show a secret in a read-only field with a Copy button the script reveals', () => {
    const html = renderSettings.keyCreated(ctx, key(), 'hck_plain');
    expect(html).toMatch(/<input id="new-key" type="text" readonly value="hck_plain"/);
    expect(html).toContain('<button type="button" class="button primary" data-copy="new-key" hidden>Copy</button>');
    expect(html.split('hck_plain')).toHaveLength(2);
  });

  it('say why an endpoint was disabled automatically', () => {
    expect(autoDisabled(endpoint)).toBe(true);
    expect(autoDisabled({ ...endpoint, disabledAt: '2026-05-05T00:00:00.000Z' })).toBe(false);
    expect(autoDisabled({ ...endpoint, enabled: true, disabledAt: null })).toBe(false);
    const html = renderSettings.webhook(ctx, endpoint, { results: [], has_more: false, next_cursor: null }, null);
    expect(html).toContain('Disabled automatically');
    expect(html).toContain('After 12 failed deliveries in a row');
    // The sentence recorded when it was disabled, when there is one.
    const recorded = { ...endpoint, disabledReason: 'sustained_failures' as const, disabledMessage: 'Disabled after 12 failed attempts in a row and no success for 5 days; last error: HTTP 500.' };
    expect(renderSettings.webhook(ctx, recorded, { results: [], has_more: false, next_cursor: null }, null)).toContain('no success for 5 days; last error: HTTP 500.');
    const manual = { ...endpoint, disabledReason: 'manual' as const, disabledMessage: 'Disabled by hand by an admin.' };
    expect(autoDisabled(manual)).toBe(false);
    const manualPage = renderSettings.webhook(ctx, manual, { results: [], has_more: false, next_cursor: null }, null);
    expect(manualPage).toContain('Disabled by hand by an admin.');
    expect(manualPage).not.toContain('Disabled automatically');
    const detail: WebhookDeliveryDetailView = {
      id: 'whdl_1',
      eventType: 'webhook.test',
      status: 'failed',
      responseStatus: 410,
      attempts: 1,
      error: 'HTTP 410',
      createdAt: endpoint.lastFailureAt!,
      deliveredAt: null,
      nextRetryAt: null,
      attemptHistory: [],
    };
    expect(renderSettings.webhook(ctx, endpoint, { results: [detail], has_more: false, next_cursor: null }, null)).toContain('The receiver answered HTTP 410 Gone.');
    expect(renderSettings.delivery(ctx, endpoint, detail)).toContain('The endpoint is disabled: enable it to retry this delivery.');
  });

  it('show only the fixed notices (nothing from the URL is echoed)', () => {
    expect(noticeText('key_revoked')).toContain('revoked');
    expect(noticeText(HOSTILE)).toBeNull();
    expect(noticeText('toString')).toBeNull();
    expect(noticeText(['key_revoked'])).toBeNull();
  });
});
