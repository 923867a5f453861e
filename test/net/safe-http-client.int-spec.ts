import type { LookupAddress } from 'node:dns';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { AddressPolicy, guardedLookup, type OutboundFailure, OutboundRequestError, SafeHttpClient, type SafeHttpClientOptions, type SafeRequestOptions } from '#core';
import { closedPort } from '../support/ports.js';
import { type Run, runNode } from '../support/processes.js';

jest.setTimeout(30_000);

// ---------------------------------------------------------------------------------------------------------
// Local servers: one on 127.0.0.1 and one on 127.0.0.2 (Linux routes all of 127/8 to loopback), same port, so a
// request that reached the wrong address says so in its answer.

interface Seen {
  readonly server: string;
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

const seen: Seen[] = [];
const SERVERS: Server[] = [];
let port: number;

/** What the test servers answer, by path. */
async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  const server = request.socket.localAddress ?? '?';
  seen.push({ server, method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
  const url = new URL(request.url ?? '/', 'http://test.invalid');
  const parts = url.pathname.split('/').filter(Boolean);
  const size = Number(url.searchParams.get('size') ?? '0');

  switch (parts[0]) {
    case 'ok':
      response.writeHead(200, { 'content-type': 'text/plain', 'x-served-by': server });
      response.end('hello');
      return;
    case 'who':
      // The address the client actually connected to.
      response.writeHead(200, url.searchParams.has('close') ? { connection: 'close' } : {});
      response.end(server);
      return;
    case 'echo':
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ method: request.method, url: request.url, body, headers: request.headers }));
      return;
    case 'redirect': {
      // /redirect/<status>?to=<location>
      response.writeHead(Number(parts[1]), { location: url.searchParams.get('to') ?? '/ok' });
      response.end('moved');
      return;
    }
    case 'chain': {
      // /chain/<n>: n redirects, then 200.
      const n = Number(parts[1]);
      if (n <= 0) {
        response.writeHead(200);
        response.end('end of chain');
        return;
      }
      response.writeHead(302, { location: `/chain/${n - 1}` });
      response.end();
      return;
    }
    case 'loop':
      response.writeHead(302, { location: '/loop' });
      response.end();
      return;
    case 'no-location':
      response.writeHead(302);
      response.end('nowhere');
      return;
    case 'slow-headers':
      // Never answers; the test closes the connection in afterAll.
      return;
    case 'slow-body':
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('the beginning');
      return;
    case 'declared':
      // Content-Length announced and sent in full.
      response.writeHead(200, { 'content-length': String(size) });
      response.end(Buffer.alloc(size, 'a'));
      return;
    case 'chunked': {
      // No Content-Length: the size is only known while streaming.
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      let sent = 0;
      let i = 0;
      const writeMore = (): void => {
        while (sent < size) {
          const piece = Buffer.alloc(Math.min(1000, size - sent), 97 + (i++ % 26));
          sent += piece.length;
          if (!response.write(piece)) {
            response.once('drain', writeMore);
            return;
          }
        }
        response.end();
      };
      response.on('error', () => undefined);
      writeMore();
      return;
    }
    default:
      response.writeHead(404);
      response.end('not found');
  }
}

async function listen(host: string, wantedPort: number): Promise<Server> {
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.destroy(error as Error);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(wantedPort, host, () => resolve());
  });
  SERVERS.push(server);
  return server;
}

// ---------------------------------------------------------------------------------------------------------
// Clients

const CLIENTS: SafeHttpClient[] = [];

function client(network: { allowPrivateNetworks?: boolean; allowedNetworks?: string[] } = {}, options: SafeHttpClientOptions = {}): SafeHttpClient {
  const created = new SafeHttpClient({ allowPrivateNetworks: network.allowPrivateNetworks ?? false, allowedNetworks: network.allowedNetworks ?? [] }, options);
  CLIENTS.push(created);
  return created;
}

/** A client that may reach the 127.0.0.1 server only. */
const loopbackOne = (options: SafeHttpClientOptions = {}): SafeHttpClient => client({ allowedNetworks: ['127.0.0.1/32'] }, options);

const OPTIONS: SafeRequestOptions = { timeoutMs: 5_000, maxBytes: 1024 * 1024 };
const base = (host = '127.0.0.1'): string => `http://${host}:${port}`;

/** The OutboundRequestError a request fails with (fails the test when it succeeds or fails otherwise). */
async function failureOf(promise: Promise<unknown>): Promise<OutboundRequestError> {
  let thrown: unknown;
  try {
    await promise;
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(OutboundRequestError);
  return thrown as OutboundRequestError;
}

async function expectFailure(promise: Promise<unknown>, failure: OutboundFailure, message?: RegExp): Promise<OutboundRequestError> {
  const error = await failureOf(promise);
  expect({ failure: error.failure, message: error.message }).toEqual({ failure, message: message ? expect.stringMatching(message) : expect.any(String) });
  expect(error.name).toBe('OutboundRequestError');
  return error;
}

/** Requests the servers received since `mark`. */
const seenSince = (mark: number): Seen[] => seen.slice(mark);

/** A resolver answering fixed addresses for every name, counting its calls and the names asked. */
function fixedResolver(...addresses: string[]): NonNullable<SafeHttpClientOptions['resolve']> & { calls: string[] } {
  const calls: string[] = [];
  const resolve = (hostname: string, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void): void => {
    calls.push(hostname);
    setImmediate(() =>
      callback(
        null,
        addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      ),
    );
  };
  return Object.assign(resolve, { calls });
}

beforeAll(async () => {
  const first = await listen('127.0.0.1', 0);
  port = (first.address() as AddressInfo).port;
  await listen('127.0.0.2', port);
});

afterAll(async () => {
  await Promise.all(CLIENTS.map((c) => c.close().catch(() => undefined)));
  for (const server of SERVERS) server.closeAllConnections();
  await Promise.all(SERVERS.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

// ---------------------------------------------------------------------------------------------------------

describe('SafeHttpClient: addresses', () => {
  it('fetches from an address in allowedNetworks', async () => {
    const response = await loopbackOne().request(`${base()}/ok`, OPTIONS);
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe('hello');
    expect(response.truncated).toBe(false);
    expect(response.url).toBe(`${base()}/ok`);
    expect(response.headers['x-served-by']).toBe('127.0.0.1');
    expect(response.headers['content-type']).toBe('text/plain');
  });

  it('sends the method, headers and body it is given', async () => {
    const response = await loopbackOne().request(`${base()}/echo`, {
      ...OPTIONS,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': 'sig' },
      body: '{"a":1}',
    });
    const echoed = JSON.parse(response.body.toString()) as { method: string; body: string; headers: Record<string, string> };
    expect(echoed.method).toBe('POST');
    expect(echoed.body).toBe('{"a":1}');
    expect(echoed.headers['x-signature']).toBe('sig');
    expect(echoed.headers['content-type']).toBe('application/json');
  });

  it('allows loopback with allowPrivateNetworks', async () => {
    const response = await client({ allowPrivateNetworks: true }).request(`${base()}/ok`, OPTIONS);
    expect(response.body.toString()).toBe('hello');
  });

  it.each(['127.0.0.1', '127.1', '0x7f.0.0.1', '2130706433', '017700000001', '[::1]', '[::ffff:127.0.0.1]', '0.0.0.0', '169.254.169.254', '10.0.0.1'])(
    'refuses the literal %s under the default policy, before connecting',
    async (host) => {
      const mark = seen.length;
      await expectFailure(client().request(`http://${host}:${port}/ok`, OPTIONS), 'refused_address', /^refused: /);
      expect(seenSince(mark)).toEqual([]);
    },
  );

  it('names the kind of address it refused', async () => {
    await expectFailure(client().request(`${base()}/ok`, OPTIONS), 'refused_address', /127\.0\.0\.1 is a loopback address/);
    await expectFailure(client({ allowPrivateNetworks: true }).request(`http://169.254.169.254:${port}/latest/meta-data/`, { ...OPTIONS, timeoutMs: 2_000 }), 'refused_address', /cloud metadata/);
  });

  it('refuses localhost under the default policy through the lookup, before any request is sent', async () => {
    const mark = seen.length;
    await expectFailure(client().request(`http://localhost:${port}/ok`, OPTIONS), 'refused_address', /localhost: .*loopback/);
    expect(seenSince(mark)).toEqual([]);
  });

  it('refuses only the addresses outside allowedNetworks: 127.0.0.2 is not 127.0.0.1/32', async () => {
    const mark = seen.length;
    await expectFailure(loopbackOne().request(`${base('127.0.0.2')}/ok`, OPTIONS), 'refused_address', /127\.0\.0\.2 is a loopback address/);
    expect(seenSince(mark)).toEqual([]);
    // ... while a policy that allows it reaches the second server.
    const response = await client({ allowedNetworks: ['127.0.0.2/32'] }).request(`${base('127.0.0.2')}/ok`, OPTIONS);
    expect(response.headers['x-served-by']).toBe('127.0.0.2');
  });

  it.each([
    ['a URL with credentials', () => `http://user:secret@127.0.0.1:${port}/ok`, /credentials/],
    ['a URL with a user name only', () => `http://user@127.0.0.1:${port}/ok`, /credentials/],
    ['a file: URL', () => 'file:///etc/passwd', /file: URLs are not fetched/],
    ['an ftp: URL', () => `ftp://127.0.0.1:${port}/x`, /ftp:/],
    ['a relative URL', () => '/ok', /not an absolute URL/],
  ])('refuses %s without connecting', async (_case, url, message) => {
    const mark = seen.length;
    await expectFailure(loopbackOne().request(url(), OPTIONS), 'unsupported_scheme', message);
    expect(seenSince(mark)).toEqual([]);
  });

  it('reports a refused connection as a network failure', async () => {
    const free = await closedPort();
    await expectFailure(loopbackOne().request(`http://127.0.0.1:${free}/ok`, OPTIONS), 'network', /could not reach 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
  });
});

describe('SafeHttpClient: redirects', () => {
  it.each([301, 302, 303, 307, 308])('follows a %i', async (status) => {
    const response = await loopbackOne().request(`${base()}/redirect/${status}?to=/ok`, { ...OPTIONS, maxRedirects: 1 });
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe('hello');
    expect(response.url).toBe(`${base()}/ok`);
  });

  it('follows an absolute Location as well as a relative one', async () => {
    const to = encodeURIComponent(`${base()}/ok?from=absolute`);
    const response = await loopbackOne().request(`${base()}/redirect/302?to=${to}`, { ...OPTIONS, maxRedirects: 1 });
    expect(response.url).toBe(`${base()}/ok?from=absolute`);
    expect(response.body.toString()).toBe('hello');
  });

  it('follows a chain of exactly maxRedirects', async () => {
    const mark = seen.length;
    const response = await loopbackOne().request(`${base()}/chain/3`, { ...OPTIONS, maxRedirects: 3 });
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe('end of chain');
    expect(response.url).toBe(`${base()}/chain/0`);
    expect(seenSince(mark).map((s) => s.url)).toEqual(['/chain/3', '/chain/2', '/chain/1', '/chain/0']);
  });

  it('fails with too_many_redirects on a longer chain, without requesting past the limit', async () => {
    const mark = seen.length;
    await expectFailure(loopbackOne().request(`${base()}/chain/4`, { ...OPTIONS, maxRedirects: 3 }), 'too_many_redirects', /more than 3 redirects/);
    expect(seenSince(mark).map((s) => s.url)).toEqual(['/chain/4', '/chain/3', '/chain/2', '/chain/1']);
  });

  it('fails with too_many_redirects on a redirect loop', async () => {
    const mark = seen.length;
    await expectFailure(loopbackOne().request(`${base()}/loop`, { ...OPTIONS, maxRedirects: 5 }), 'too_many_redirects', /more than 5 redirects/);
    expect(seenSince(mark)).toHaveLength(6);
  });

  it('returns a 3xx as it is when redirects are not followed', async () => {
    for (const options of [OPTIONS, { ...OPTIONS, maxRedirects: 0 }]) {
      const response = await loopbackOne().request(`${base()}/redirect/302?to=/ok`, options);
      expect(response.status).toBe(302);
      expect(response.headers['location']).toBe('/ok');
      expect(response.body.toString()).toBe('moved');
    }
  });

  it('returns a 3xx without Location as it is', async () => {
    const response = await loopbackOne().request(`${base()}/no-location`, { ...OPTIONS, maxRedirects: 3 });
    expect(response.status).toBe(302);
    expect(response.body.toString()).toBe('nowhere');
  });

  it('turns a POST into a GET without body on a 303', async () => {
    const response = await loopbackOne().request(`${base()}/redirect/303?to=/echo`, { ...OPTIONS, method: 'POST', body: 'payload', maxRedirects: 1 });
    const echoed = JSON.parse(response.body.toString()) as { method: string; body: string };
    expect(echoed).toMatchObject({ method: 'GET', body: '' });
  });

  it('keeps the POST and its body on a 307 and a 308', async () => {
    for (const status of [307, 308]) {
      const response = await loopbackOne().request(`${base()}/redirect/${status}?to=/echo`, { ...OPTIONS, method: 'POST', body: 'payload', maxRedirects: 1 });
      const echoed = JSON.parse(response.body.toString()) as { method: string; body: string };
      expect(echoed).toMatchObject({ method: 'POST', body: 'payload' });
    }
  });

  it.each([
    ['127.0.0.2', () => `http://127.0.0.2:${port}/ok`, /127\.0\.0\.2 is a loopback address/],
    ['[::1]', () => `http://[::1]:${port}/ok`, /::1 is a loopback address/],
    ['the metadata service', () => `http://169.254.169.254/latest/meta-data/`, /cloud metadata/],
  ])('refuses a redirect to %s although the first hop was allowed', async (_case, target, message) => {
    const mark = seen.length;
    await expectFailure(loopbackOne().request(`${base()}/redirect/302?to=${encodeURIComponent(target())}`, { ...OPTIONS, maxRedirects: 3 }), 'refused_address', message);
    // Only the first hop was requested; nothing reached 127.0.0.2.
    expect(seenSince(mark).map((s) => s.server)).toEqual(['127.0.0.1']);
  });

  it.each([
    ['file:///etc/passwd', /file: URLs are not fetched/],
    ['gopher://127.0.0.1:70/_x', /gopher:/],
    ['data:text/plain,hello', /data:/],
  ])('refuses a redirect to %s as an unsupported scheme', async (target, message) => {
    await expectFailure(loopbackOne().request(`${base()}/redirect/302?to=${encodeURIComponent(target)}`, { ...OPTIONS, maxRedirects: 3 }), 'unsupported_scheme', message);
  });

  it('refuses a redirect to a URL with credentials', async () => {
    const target = encodeURIComponent(`http://admin:admin@127.0.0.1:${port}/ok`);
    await expectFailure(loopbackOne().request(`${base()}/redirect/302?to=${target}`, { ...OPTIONS, maxRedirects: 3 }), 'unsupported_scheme', /credentials/);
  });
});

describe('SafeHttpClient: deadlines and sizes', () => {
  it('times out when the server never sends headers', async () => {
    const started = Date.now();
    await expectFailure(loopbackOne().request(`${base()}/slow-headers`, { ...OPTIONS, timeoutMs: 300 }), 'timeout', /no complete response from 127\.0\.0\.1:\d+ in time/);
    // Generous: only proves the deadline, not the 30 s test timeout, ended it.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('times out when the body stalls after the headers', async () => {
    await expectFailure(loopbackOne().request(`${base()}/slow-body`, { ...OPTIONS, timeoutMs: 300 }), 'timeout');
  });

  it('applies one deadline to the whole redirect chain', async () => {
    await expectFailure(loopbackOne().request(`${base()}/redirect/302?to=/slow-headers`, { ...OPTIONS, timeoutMs: 300, maxRedirects: 2 }), 'timeout');
  });

  it('reads a body of exactly maxBytes', async () => {
    const declared = await loopbackOne().request(`${base()}/declared?size=1000`, { ...OPTIONS, maxBytes: 1000 });
    expect(declared.body).toHaveLength(1000);
    expect(declared.truncated).toBe(false);
    const chunked = await loopbackOne().request(`${base()}/chunked?size=1000`, { ...OPTIONS, maxBytes: 1000 });
    expect(chunked.body).toHaveLength(1000);
    expect(chunked.truncated).toBe(false);
  });

  describe('a declared Content-Length above maxBytes', () => {
    // Run in a child process on the built client (`npm test` builds dist/ first): the request must fail with
    // too_large, and the process must survive it. In Jest an unhandled 'error' event would fail whichever test runs.
    let run: Run;

    beforeAll(async () => {
      const script = `
        const { SafeHttpClient } = await import(process.env.CLIENT_MODULE);
        const client = new SafeHttpClient({ allowPrivateNetworks: false, allowedNetworks: ['127.0.0.1/32'] });
        try {
          const response = await client.request(process.env.TARGET_URL, { timeoutMs: 5000, maxBytes: 1000 });
          console.log(JSON.stringify({ status: response.status, size: response.body.length }));
        } catch (error) {
          console.log(JSON.stringify({ failure: error.failure, message: error.message }));
        }
        await new Promise((resolve) => setTimeout(resolve, 300));
        await client.close();
        console.log('still running');
      `;
      run = await runNode('--input-type=module', ['-e', script], {
        CLIENT_MODULE: pathToFileURL(resolve('dist/libs/core/src/net/safe-http-client.js')).href,
        TARGET_URL: `${base()}/declared?size=1001`,
      });
    });

    it('fails with too_large', () => {
      const first = run.stdout.split('\n')[0];
      expect(JSON.parse(first)).toEqual({ failure: 'too_large', message: 'larger than 1000 bytes' });
    });

    // Regression: destroying an undici body without an 'error' listener crashed the process.
    it('leaves the process running (no unhandled error event)', () => {
      expect(run.stderr).not.toMatch(/Unhandled 'error' event/);
      expect(run.stdout).toContain('still running');
      expect(run.code).toBe(0);
    });
  });

  it('fails with too_large on a chunked body that grows past maxBytes', async () => {
    await expectFailure(loopbackOne().request(`${base()}/chunked?size=5000000`, { ...OPTIONS, maxBytes: 10_000 }), 'too_large', /larger than 10000 bytes/);
    await expectFailure(loopbackOne().request(`${base()}/chunked?size=1001`, { ...OPTIONS, maxBytes: 1000 }), 'too_large');
  });

  it('keeps the first maxBytes of a chunked body with oversize truncate', async () => {
    const response = await loopbackOne().request(`${base()}/chunked?size=5000`, { ...OPTIONS, maxBytes: 1500, oversize: 'truncate' });
    expect(response.truncated).toBe(true);
    expect(response.body).toEqual(Buffer.concat([Buffer.alloc(1000, 'a'), Buffer.alloc(500, 'b')]));
  });

  it('keeps the first maxBytes of a body with a large Content-Length with oversize truncate', async () => {
    const response = await loopbackOne().request(`${base()}/declared?size=100000`, { ...OPTIONS, maxBytes: 10, oversize: 'truncate' });
    expect(response.status).toBe(200);
    expect(response.truncated).toBe(true);
    expect(response.body.toString()).toBe('a'.repeat(10));
  });

  it('does not mark a body that fits as truncated', async () => {
    const response = await loopbackOne().request(`${base()}/ok`, { ...OPTIONS, maxBytes: 5, oversize: 'truncate' });
    expect(response).toMatchObject({ truncated: false, body: Buffer.from('hello') });
  });

  it('can fetch again after a failure (the client stays usable)', async () => {
    const shared = loopbackOne();
    await expectFailure(shared.request(`${base()}/chunked?size=50000`, { ...OPTIONS, maxBytes: 100 }), 'too_large');
    await expectFailure(shared.request(`${base()}/slow-headers`, { ...OPTIONS, timeoutMs: 200 }), 'timeout');
    expect((await shared.request(`${base()}/ok`, OPTIONS)).body.toString()).toBe('hello');
  });
});

describe('SafeHttpClient: host names resolve once, through the injected resolver, to checked addresses', () => {
  it('resolves a name through the injected resolver and connects to the address it returns', async () => {
    const resolve = fixedResolver('127.0.0.1');
    const response = await loopbackOne({ resolve }).request(`http://images.internal.test:${port}/who`, OPTIONS);
    expect(response.body.toString()).toBe('127.0.0.1');
    expect(resolve.calls).toEqual(['images.internal.test']);
  });

  it('sends the name, not the address, as the Host header', async () => {
    const resolve = fixedResolver('127.0.0.1');
    const response = await loopbackOne({ resolve }).request(`http://images.internal.test:${port}/echo`, OPTIONS);
    expect((JSON.parse(response.body.toString()) as { headers: Record<string, string> }).headers['host']).toBe(`images.internal.test:${port}`);
  });

  it('connects only to the allowed addresses among those returned', async () => {
    // 127.0.0.2 comes first and its server would answer "127.0.0.2"; the policy only allows 127.0.0.1.
    const resolve = fixedResolver('127.0.0.2', '127.0.0.1');
    for (let i = 0; i < 3; i++) {
      const response = await loopbackOne({ resolve }).request(`http://mixed.test:${port}/who?close`, OPTIONS);
      expect(response.body.toString()).toBe('127.0.0.1');
    }
    const mixed = fixedResolver('10.0.0.1', '::1', '127.0.0.1', '169.254.169.254');
    expect((await loopbackOne({ resolve: mixed }).request(`http://mixed.test:${port}/who`, OPTIONS)).body.toString()).toBe('127.0.0.1');
  });

  it('refuses a name that resolves only to a private address', async () => {
    const resolve = fixedResolver('10.0.0.1');
    const mark = seen.length;
    await expectFailure(client({}, { resolve }).request(`http://intranet.test:${port}/ok`, OPTIONS), 'refused_address', /intranet\.test: 10\.0\.0\.1 is a private network address/);
    expect(resolve.calls).toEqual(['intranet.test']);
    expect(seenSince(mark)).toEqual([]);
  });

  it('refuses a name that resolves to loopback unless the policy allows it', async () => {
    const resolve = fixedResolver('127.0.0.1');
    await expectFailure(client({}, { resolve }).request(`http://sneaky.test:${port}/ok`, OPTIONS), 'refused_address', /sneaky\.test: 127\.0\.0\.1 is a loopback address/);
    await expectFailure(client({ allowedNetworks: ['127.0.0.2/32'] }, { resolve }).request(`http://sneaky.test:${port}/ok`, OPTIONS), 'refused_address', /loopback/);
  });

  it('refuses a name that resolves to the metadata service even with allowPrivateNetworks', async () => {
    const resolve = fixedResolver('169.254.169.254');
    await expectFailure(client({ allowPrivateNetworks: true }, { resolve }).request('http://metadata.test/latest/meta-data/', OPTIONS), 'refused_address', /cloud metadata/);
  });

  it('refuses a name that resolves to nothing', async () => {
    const resolve = fixedResolver();
    await expectFailure(loopbackOne({ resolve }).request(`http://empty.test:${port}/ok`, OPTIONS), 'refused_address', /empty\.test has no address/);
  });

  it('reports a resolver error as a network failure', async () => {
    const resolve = (_hostname: string, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void): void => {
      callback(Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' }), []);
    };
    await expectFailure(loopbackOne({ resolve }).request(`http://nowhere.test:${port}/ok`, OPTIONS), 'network', /could not reach nowhere\.test:\d+ \(ENOTFOUND\)/);
  });

  it('resolves once per new connection: an answer that changes afterwards (DNS rebinding) is never used', async () => {
    const calls: string[] = [];
    const answers = ['127.0.0.1', '10.0.0.1'];
    const rebinding = (hostname: string, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void): void => {
      calls.push(hostname);
      const address = answers[Math.min(calls.length - 1, answers.length - 1)];
      setImmediate(() => callback(null, [{ address, family: 4 }]));
    };
    const rebound = loopbackOne({ resolve: rebinding });
    // First connection: one lookup, answered 127.0.0.1, and that is where the request went.
    const first = await rebound.request(`http://rebind.test:${port}/who?close`, OPTIONS);
    expect(first.body.toString()).toBe('127.0.0.1');
    expect(calls).toHaveLength(1);
    // The server closed that connection, so the next request connects anew: one more lookup, now answered 10.0.0.1.
    await expectFailure(rebound.request(`http://rebind.test:${port}/who?close`, OPTIONS), 'refused_address', /10\.0\.0\.1/);
    expect(calls).toEqual(['rebind.test', 'rebind.test']);
  });

  it('resolves exactly once per new connection', async () => {
    const closing = fixedResolver('127.0.0.1');
    const withClose = loopbackOne({ resolve: closing });
    for (let i = 1; i <= 3; i++) {
      await withClose.request(`http://once.test:${port}/who?close`, OPTIONS);
      expect(closing.calls).toHaveLength(i);
    }
    // A kept-alive connection is reused without another lookup.
    const keeping = fixedResolver('127.0.0.1');
    const withKeepAlive = loopbackOne({ resolve: keeping, connectionsPerOrigin: 1 });
    for (let i = 0; i < 3; i++) await withKeepAlive.request(`http://once.test:${port}/who`, OPTIONS);
    expect(keeping.calls).toEqual(['once.test']);
  });
});

describe('guardedLookup', () => {
  const policy = new AddressPolicy({ allowPrivateNetworks: false, allowedNetworks: ['127.0.0.1/32', '::1/128'] });
  type Result = { error: (Error & { code?: string }) | null; address: string | LookupAddress[]; family?: number };

  function lookup(addresses: string[], options: { all?: boolean; family?: number | string }): Promise<Result> {
    const resolve = fixedResolver(...addresses);
    const guarded = guardedLookup(policy, resolve);
    return new Promise((done) => {
      (guarded as unknown as (h: string, o: object, cb: (e: Error | null, a: string | LookupAddress[], f?: number) => void) => void)('host.test', options, (error, address, family) =>
        done({ error, address, family }),
      );
    });
  }

  it('hands all allowed addresses, and only those, when asked for all', async () => {
    const result = await lookup(['10.0.0.1', '127.0.0.1', '127.0.0.2', '::1'], { all: true });
    expect(result.error).toBeNull();
    expect(result.address).toEqual([
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ]);
  });

  it('hands the first allowed address of the requested family', async () => {
    expect(await lookup(['10.0.0.1', '::1', '127.0.0.1'], {})).toMatchObject({ error: null, address: '::1', family: 6 });
    expect(await lookup(['10.0.0.1', '::1', '127.0.0.1'], { family: 4 })).toMatchObject({ error: null, address: '127.0.0.1', family: 4 });
    expect(await lookup(['10.0.0.1', '::1', '127.0.0.1'], { family: 'IPv4' })).toMatchObject({ error: null, address: '127.0.0.1', family: 4 });
    expect(await lookup(['127.0.0.1', '::1'], { family: 'IPv6' })).toMatchObject({ error: null, address: '::1', family: 6 });
  });

  it('fails with a refusal naming the first address when none is allowed', async () => {
    const result = await lookup(['10.0.0.1', '192.168.0.1'], { all: true });
    expect(result.error?.code).toBe('EHC_REFUSED_ADDRESS');
    expect(result.error?.message).toBe('host.test: 10.0.0.1 is a private network address');
    const wrongFamily = await lookup(['127.0.0.1'], { family: 6 });
    expect(wrongFamily.error?.message).toBe('host.test: host.test has no address');
  });
});
