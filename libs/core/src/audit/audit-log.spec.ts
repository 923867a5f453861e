import { describe, expect, it } from '@jest/globals';
import { assertNoSecretDetails } from './audit-log.js';

describe('assertNoSecretDetails', () => {
  it('accepts ordinary details', () => {
    expect(() => assertNoSecretDetails({ name: 'Zapier', scopes: ['content:read'], url: 'https://example.com/hook', changes: { events: ['article.created'] } })).not.toThrow();
  });

  it('accepts IDs of keys and sessions', () => {
    expect(() => assertNoSecretDetails({ keyId: 'key_x', sessionId: 'ses_x', lastFour: 'abcd' })).not.toThrow();
  });

  it.each([{ secret: 'whsec_x' }, { key: 'hck_x' }, { password: 'x' }, { changes: { signing_secret: 'x' } }, { list: [{ token: 'x' }] }, { key_hash: 'x' }, { apiKey: 'x' }])(
    'refuses a field named like a secret: %j',
    (details) => {
      expect(() => assertNoSecretDetails(details)).toThrow(/looks like a secret/);
    },
  );
});
