import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { headerOf, pathOf, type Reply, replyOf, type Responder as StubResponder, send } from './stub-server.js';

/** One request the receiver got, recorded once its body has been read completely. */
export interface ReceivedRequest {
  /** Request target as sent (path and query). */
  readonly path: string;
  readonly method: string;
  /** As Node parses them: lower-case names. */
  readonly headers: IncomingHttpHeaders;
  /** The body exactly as received, as UTF-8 text (what a signature is computed over). */
  readonly body: string;
  readonly rawBody: Buffer;
  readonly receivedAt: Date;
  /** 1 for the first request to this path, 2 for the second, … */
  readonly nth: number;
  /** The body parsed as JSON. */
  json<T = Record<string, unknown>>(): T;
  /** A header as a single string (the first value of a repeated one). */
  header(name: string): string | undefined;
}

/** How the receiver answers a request (see `Reply`). */
export type Responder = StubResponder<ReceivedRequest>;

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** The absolute URL of `path` on this receiver (`/` when omitted). */
  url(path?: string): string;
  /** Every request so far, in arrival order. */
  readonly requests: readonly ReceivedRequest[];
  /** Requests whose path (query ignored) is `path`. */
  requestsTo(path: string): ReceivedRequest[];
  /**
   * The first request (already received or still to come) matching `predicate`; rejects after `timeoutMs`
   * with a message listing what did arrive.
   */
  waitFor(predicate: (request: ReceivedRequest) => boolean, timeoutMs?: number): Promise<ReceivedRequest>;
  /** Resolves once `count` requests match `predicate` (the first `count` of them). */
  waitForCount(predicate: (request: ReceivedRequest) => boolean, count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  /** How `path` (query ignored) answers from now on; unconfigured paths answer 200 `{"ok":true}`. */
  respond(path: string, responder: Responder): void;
  close(): Promise<void>;
}

const DEFAULT_REPLY: Reply = { status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' };

/**
 * A webhook receiver on 127.0.0.1 (start the app with WEBHOOK_ALLOW_HTTP=true and WEBHOOK_ALLOWED_NETWORKS=127.0.0.1/32).
 * Records every request (headers and raw body) and answers each path as told: any status, headers such as
 * Retry-After or Location, a slow or never-coming answer.
 */
export async function startReceiver(): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  const responders = new Map<string, Responder>();
  const perPath = new Map<string, number>();
  const waiters = new Set<() => void>();
  const hanging = new Set<ServerResponse>();

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const target = req.url ?? '/';
      const path = pathOf(target);
      const nth = (perPath.get(path) ?? 0) + 1;
      perPath.set(path, nth);
      const rawBody = Buffer.concat(chunks);
      const body = rawBody.toString('utf8');
      const request: ReceivedRequest = {
        path: target,
        method: req.method ?? 'GET',
        headers: req.headers,
        body,
        rawBody,
        receivedAt: new Date(),
        nth,
        json: <T>() => JSON.parse(body) as T,
        header: (name: string) => headerOf(req.headers, name),
      };
      requests.push(request);
      for (const wake of [...waiters]) wake();
      void reply(request, res);
    });
    req.on('error', () => undefined);
    res.on('error', () => undefined);
  };

  const reply = async (request: ReceivedRequest, res: ServerResponse): Promise<void> => {
    const responder = responders.get(pathOf(request.path)) ?? DEFAULT_REPLY;
    const answer = await replyOf(responder, request, (error) => ({ status: 500, body: `receiver handler failed: ${error.message}` }));
    if (answer.hang) {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if (res.destroyed) return;
    send(res, answer);
  };

  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const waitForCount = (predicate: (request: ReceivedRequest) => boolean, count: number, timeoutMs = 15_000): Promise<ReceivedRequest[]> =>
    new Promise((resolve, reject) => {
      const check = (): boolean => {
        const matching = requests.filter(predicate);
        if (matching.length < count) return false;
        cleanup();
        resolve(matching.slice(0, count));
        return true;
      };
      const timer = setTimeout(() => {
        cleanup();
        const seen = requests.map((r) => `${r.method} ${r.path} (webhook-id ${r.header('webhook-id') ?? '-'})`).join('\n  ') || '(none)';
        reject(new Error(`Receiver: fewer than ${count} matching request(s) after ${timeoutMs} ms; received:\n  ${seen}`));
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        waiters.delete(wake);
      };
      const wake = (): void => void check();
      if (!check()) waiters.add(wake);
    });

  return {
    origin,
    url: (path = '/') => `${origin}${path.startsWith('/') ? path : `/${path}`}`,
    get requests() {
      return requests;
    },
    requestsTo: (path) => requests.filter((r) => pathOf(r.path) === path),
    waitFor: async (predicate, timeoutMs = 15_000) => (await waitForCount(predicate, 1, timeoutMs))[0]!,
    waitForCount,
    respond(path, responder) {
      responders.set(path, responder);
    },
    async close() {
      for (const res of hanging) res.destroy();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** The Standard Webhooks headers of a received request, for `Webhook.verify`. */
export function signed(request: ReceivedRequest): Record<string, string> {
  return {
    'webhook-id': request.header('webhook-id') ?? '',
    'webhook-timestamp': request.header('webhook-timestamp') ?? '',
    'webhook-signature': request.header('webhook-signature') ?? '',
  };
}
