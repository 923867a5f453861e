import { describe, expect, it } from '@jest/globals';
import { InsufficientScopeError, ValidationError } from '#core/domain';
import { generateSecret, humanDuration, normaliseEvents, PREVIOUS_SECRET_GRACE_MS, quotableError, WebhookEndpoint } from './webhook-endpoint.js';

const T0 = new Date('2026-11-22T10:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const DAY = 24 * 3600 * 1000;
const POLICY = { minFailures: 10, afterMs: 5 * DAY };

function endpoint(): WebhookEndpoint {
  return WebhookEndpoint.create({ url: 'https://example.com/hook', events: ['article.published'], scopes: null }, T0);
}

function failing(times: number, lastSuccessAt: Date | null, enabledAt = T0): WebhookEndpoint {
  return WebhookEndpoint.restore({ ...endpoint().snapshot(), failureCount: times, lastSuccessAt, enabledAt });
}

describe('webhook endpoint', () => {
  it('is created enabled, with a Standard Webhooks secret and a whep_ ID', () => {
    const e = endpoint().snapshot();
    expect(e.id).toMatch(/^whep_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(e.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(e.secret.slice(6), 'base64')).toHaveLength(32);
    expect(e).toMatchObject({ enabled: true, failureCount: 0, disabledAt: null, disabledReason: null, disabledMessage: null, lastSuccessAt: null, lastFailureAt: null, description: null });
    expect(generateSecret()).not.toBe(generateSecret());
  });

  it('validates and normalises event lists', () => {
    expect(normaliseEvents(['article.created', 'article.created', 'webhook.test'])).toEqual(['article.created', 'webhook.test']);
    expect(normaliseEvents(['*'])).toEqual(['*']);
    expect(() => normaliseEvents([])).toThrow(ValidationError);
    expect(() => normaliseEvents(['*', 'article.created'])).toThrow(/cannot be combined/);
    expect(() => normaliseEvents(['article.deleted', 'nope'])).toThrow(/article\.deleted, nope/);
  });

  it('subscribes to its events, or to all with *', () => {
    expect(endpoint().subscribes('article.published')).toBe(true);
    expect(endpoint().subscribes('article.created')).toBe(false);
    const all = WebhookEndpoint.create({ url: 'https://example.com', events: ['*'], scopes: null }, T0);
    expect(all.subscribes('section.deleted')).toBe(true);
  });

  it('receives only what the key that chose its events may read; a named event it may not read is refused', () => {
    const narrow = WebhookEndpoint.create({ url: 'https://example.com', events: ['*'], scopes: ['webhooks:manage', 'content:read'] }, T0);
    expect(narrow.subscribes('section.created')).toBe(true);
    expect(narrow.subscribes('webhook.test')).toBe(true);
    // Drafts, readers' emails and task details are not for a content:read key.
    for (const type of ['article.created', 'article.published', 'feedback.created', 'task.completed'] as const) expect(narrow.subscribes(type)).toBe(false);
    expect(() => WebhookEndpoint.create({ url: 'https://example.com', events: ['article.created'], scopes: ['webhooks:manage'] }, T0)).toThrow(InsufficientScopeError);
    expect(() => WebhookEndpoint.create({ url: 'https://example.com', events: ['feedback.created'], scopes: ['webhooks:manage', 'content:write'] }, T0)).toThrow(/analytics:read/);
    const writer = WebhookEndpoint.create({ url: 'https://example.com', events: ['article.created', 'task.failed'], scopes: ['webhooks:manage', 'content:write'] }, T0);
    expect(writer.subscribes('article.created')).toBe(true);
    // Changing the events re-checks them against the updating key, whose scopes then decide.
    expect(() => writer.update({ events: ['article.created'] }, ['webhooks:manage'], T0)).toThrow(InsufficientScopeError);
    writer.update({ events: ['*'] }, ['webhooks:manage', 'analytics:read'], T0);
    expect(writer.subscribes('article.created')).toBe(false);
    expect(writer.subscribes('feedback.created')).toBe(true);
  });

  it('signs with the old secret beside the new one for 24 hours after a rotation', () => {
    const e = endpoint();
    const old = e.snapshot().secret;
    const fresh = e.rotateSecret(at(1000));
    expect(fresh).not.toBe(old);
    expect(e.signingSecrets(at(2000))).toEqual([fresh, old]);
    expect(e.signingSecrets(at(1000 + PREVIOUS_SECRET_GRACE_MS - 1))).toEqual([fresh, old]);
    expect(e.signingSecrets(at(1000 + PREVIOUS_SECRET_GRACE_MS))).toEqual([fresh]);
  });

  it('disables and re-enables: re-enabling resets failureCount, disabledAt and the reason, and restarts the period', () => {
    const e = failing(12, null);
    e.disable(at(DAY), { reason: 'manual', message: 'Disabled by hand.' });
    expect(e.snapshot()).toMatchObject({ enabled: false, disabledAt: at(DAY), disabledReason: 'manual', disabledMessage: 'Disabled by hand.' });
    // Already disabled: the first time and reason stay.
    e.disable(at(2 * DAY), { reason: 'gone', message: 'Gone.' });
    expect(e.snapshot()).toMatchObject({ disabledAt: at(DAY), disabledReason: 'manual', disabledMessage: 'Disabled by hand.' });
    e.enable(at(3 * DAY));
    expect(e.snapshot()).toMatchObject({ enabled: true, failureCount: 0, disabledAt: null, disabledReason: null, disabledMessage: null, enabledAt: at(3 * DAY) });
  });

  describe('auto-disable', () => {
    it('needs both the failure count and the period without success', () => {
      expect(failing(9, null).shouldAutoDisable(POLICY, at(10 * DAY), 500)).toBe(false);
      expect(failing(10, null).shouldAutoDisable(POLICY, at(5 * DAY - 1), 500)).toBe(false);
      expect(failing(10, null).shouldAutoDisable(POLICY, at(5 * DAY), 500)).toBe(true);
      expect(failing(10, at(4 * DAY)).shouldAutoDisable(POLICY, at(8 * DAY), null)).toBe(false);
      expect(failing(10, at(4 * DAY)).shouldAutoDisable(POLICY, at(9 * DAY), null)).toBe(true);
    });

    it('counts the period from the last re-enable when that is later than the last success', () => {
      expect(failing(10, at(DAY), at(6 * DAY)).shouldAutoDisable(POLICY, at(10 * DAY), 500)).toBe(false);
      expect(failing(10, at(DAY), at(6 * DAY)).shouldAutoDisable(POLICY, at(11 * DAY), 500)).toBe(true);
    });

    it('410 Gone disables at once', () => {
      expect(failing(1, at(0)).shouldAutoDisable(POLICY, at(1), 410)).toBe(true);
    });

    it('says why: gone, or sustained failures with their count, the period without success and the last error', () => {
      expect(failing(1, at(0)).autoDisableCause(POLICY, at(1), { responseStatus: 410, error: 'HTTP 410' })).toEqual({
        reason: 'gone',
        message: 'Disabled at once: the receiver answered HTTP 410 Gone.',
      });
      expect(failing(9, null).autoDisableCause(POLICY, at(10 * DAY), { responseStatus: 500, error: 'HTTP 500' })).toBeNull();
      expect(failing(12, null).autoDisableCause(POLICY, at(5 * DAY + 3600 * 1000), { responseStatus: 500, error: 'HTTP 500' })).toEqual({
        reason: 'sustained_failures',
        message: 'Disabled after 12 failed attempts in a row and no success for 5 days; last error: HTTP 500.',
      });
      // Counted from the last success when that is later than the last enable.
      const cause = failing(10, at(4 * DAY)).autoDisableCause(POLICY, at(9 * DAY), { responseStatus: null, error: 'no complete response from hooks.example.com in time' });
      expect(cause?.message).toBe('Disabled after 10 failed attempts in a row and no success for 5 days; last error: no complete response from hooks.example.com in time.');
    });

    it('never quotes the path or query of a URL in the last error, and keeps it short', () => {
      const secretUrl = 'https://hooks.example.com/services/T000/B000/XXXXSECRET?token=abc';
      const message = failing(10, null).autoDisableCause(POLICY, at(6 * DAY), { responseStatus: null, error: `could not reach ${secretUrl}\n(ECONNRESET)` })!.message;
      expect(message).toContain('last error: could not reach https://hooks.example.com (ECONNRESET).');
      expect(message).not.toMatch(/services|SECRET|token/);
      expect(quotableError({ responseStatus: null, error: 'x'.repeat(1000) })).toHaveLength(160);
      expect(quotableError({ responseStatus: 503, error: null })).toBe('HTTP 503');
      expect(quotableError({ responseStatus: null, error: null })).toBe('no response');
    });
  });

  it('tells durations in whole units a person reads at a glance', () => {
    expect([0, 999, 1000, 59_000, 60_000, 119_000, 7_199_000, 7_200_000, 2 * DAY - 1, 2 * DAY, 12 * DAY].map(humanDuration)).toEqual([
      'less than a second',
      'less than a second',
      '1 second',
      '59 seconds',
      '1 minute',
      '1 minute',
      '119 minutes',
      '2 hours',
      '47 hours',
      '2 days',
      '12 days',
    ]);
  });
});
