import { bearer, type TestApp } from './app.js';

/** The ID of the help center's default section (every fresh database has one, "General"), read with `key`. */
export async function defaultSectionId(t: TestApp, key: string): Promise<string> {
  const res = await t.http.get('/v1/sections').set(bearer(key)).expect(200);
  return (res.body.results as Array<{ id: string; isDefault: boolean }>).find((s) => s.isDefault)!.id;
}
