import { describe, expect, it } from '@jest/globals';
import { urlOrigin, webhookAudit } from './webhook-audit.js';

describe('webhook audit entries', () => {
  it('keep only the origin of a URL, never its credentials, path or query', () => {
    expect(urlOrigin('https://user:pw@hooks.example.com:8443/services/T0/B0/secretpart?token=abc#x')).toBe('https://hooks.example.com:8443');
    expect(urlOrigin('not a url')).toBe('(invalid URL)');
  });

  it('name the endpoint as the target', () => {
    expect(webhookAudit('webhook.deleted', 'whep_1', { urlOrigin: 'https://a.example' })).toEqual({
      action: 'webhook.deleted',
      targetType: 'webhook_endpoint',
      targetId: 'whep_1',
      details: { urlOrigin: 'https://a.example' },
    });
  });
});
