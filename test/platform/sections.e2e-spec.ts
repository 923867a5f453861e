import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bearer, startTestApp, type TestApp } from '../support/app.js';

describe('sections (smoke)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp({ redis: true });
    key = await t.key();
  });
  afterAll(() => t.close());

  it('lists the default section', async () => {
    const res = await t.http.get('/v1/sections').set(bearer(key)).expect(200);
    expect(res.body.results).toHaveLength(1);
    expect(res.body.results[0]).toMatchObject({ name: 'General', isDefault: true, position: 0, translations: [] });
  });
});
