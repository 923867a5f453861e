import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { closedPort } from './ports.js';
import { headerOf, pathOf, type Reply, replyOf, type Responder as StubResponder, send } from './stub-server.js';

/**
 * A stand-in for an OpenAI-compatible model server (OpenAI, vLLM, Ollama, llama.cpp) on 127.0.0.1: it speaks the
 * chat-completions protocol (`POST {base}/chat/completions`), records every request, and answers as a test tells it:
 * a valid structured answer built from the request, malformed content of every kind, HTTP errors with OpenAI-style
 * bodies, Retry-After, or no answer at all.
 */

/** A chat message as the client sends it. */
export interface ChatMessage {
  readonly role: string;
  readonly content: string;
}

/** The request body of `POST /chat/completions`, as far as these tests look at it. */
export interface ChatCompletionRequestBody {
  readonly model?: string;
  readonly messages?: ChatMessage[];
  readonly max_tokens?: number;
  readonly temperature?: number;
  readonly response_format?: { type: string; json_schema?: { name: string; strict?: boolean; schema: Record<string, unknown> } };
  readonly [key: string]: unknown;
}

/** What the generator puts in the user message (JSON). */
export interface UserPayload {
  readonly instruction: string;
  readonly target: { kind: 'article' | 'collection' | 'section'; id: string; title: string; markdown: string } | null;
  readonly placeIn: { collectionId: string | null; sectionId: string | null };
  readonly related: Array<{ id: string; title: string; url: string | null; markdown: string }>;
}

/** One request the server got, recorded once its body has been read completely. */
export interface ChatRequest {
  readonly method: string;
  /** Request target as sent (path and query). */
  readonly path: string;
  /** As Node parses them: lower-case names. */
  readonly headers: IncomingHttpHeaders;
  /** The body as received (UTF-8). */
  readonly rawBody: string;
  /** The body parsed as JSON; null when it is not JSON. */
  readonly body: ChatCompletionRequestBody | null;
  /** The last user message parsed as JSON (the generator's instruction/target/related); null when absent or not JSON. */
  readonly user: UserPayload | null;
  readonly receivedAt: Date;
  /** 1 for the first request this server got, 2 for the second, … */
  readonly nth: number;
  /** A header as a single string (the first value of a repeated one). */
  header(name: string): string | undefined;
}

/** How the server answers a request (see `Reply`). */
export type Responder = StubResponder<ChatRequest>;

/** The model's structured answer (RESPONSE_SCHEMA). */
export interface ModelAnswer {
  title: string;
  changes: Array<{
    kind: string;
    operation: string;
    title: string;
    markdown: string;
    targetArticleId: string | null;
    targetCollectionId: string | null;
    targetSectionId: string | null;
  }>;
}

export interface ChatCompletionsServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** The base URL a client is configured with (AI_BASE_URL): `http://127.0.0.1:<port>/v1`. */
  readonly baseUrl: string;
  /** Every request so far, in arrival order (any path). */
  readonly requests: readonly ChatRequest[];
  /** Requests to `POST /v1/chat/completions`. */
  completions(): ChatRequest[];
  /** Answers the next requests, one reply each, in order (before the default). */
  enqueue(...responders: Responder[]): void;
  /** How requests matching `predicate` are answered from now on (checked before the queue, most recent rule first). */
  when(predicate: (request: ChatRequest) => boolean, responder: Responder): void;
  /** How requests are answered once the queue is empty; initially `replies.valid()`. */
  respondWith(responder: Responder): void;
  /** Resolves with the first `count` completion requests once they have arrived; rejects after `timeoutMs`. */
  waitForCompletions(count: number, timeoutMs?: number): Promise<ChatRequest[]>;
  /** Forgets recorded requests, queued replies and rules; the default goes back to `replies.valid()`. */
  reset(): void;
  /** Stops listening and drops every connection (hanging ones included). */
  close(): Promise<void>;
}

const JSON_HEADERS = { 'content-type': 'application/json' };
let completionCounter = 0;

/** The chat-completion envelope around one assistant message. */
export function completion(
  content: string | null,
  options: { finishReason?: string; refusal?: string | null; model?: string; extraMessage?: Record<string, unknown> } = {},
): Record<string, unknown> {
  completionCounter += 1;
  return {
    id: `chatcmpl-test-${completionCounter}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: options.model ?? 'test-model',
    choices: [
      {
        index: 0,
        finish_reason: options.finishReason ?? 'stop',
        message: { role: 'assistant', content, ...(options.refusal !== undefined ? { refusal: options.refusal } : {}), ...options.extraMessage },
      },
    ],
    usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 },
  };
}

/** A valid answer to `request`: an update of its target (title + " (revised)", a paragraph added), else a new article. */
export function answerFor(request: ChatRequest, overrides: { title?: string; changeTitle?: string; markdown?: string } = {}): ModelAnswer {
  const user = request.user;
  const target = user?.target ?? null;
  if (target) {
    return {
      title: overrides.title ?? `Revise ${target.title}`,
      changes: [
        {
          kind: target.kind,
          operation: 'update',
          title: overrides.changeTitle ?? `${target.title} (revised)`,
          markdown: overrides.markdown ?? (target.kind === 'section' ? '' : `${target.markdown.trim()}\n\nRevised by the test model.`.trim()),
          targetArticleId: target.kind === 'article' ? target.id : null,
          targetCollectionId: target.kind === 'collection' ? target.id : null,
          targetSectionId: target.kind === 'section' ? target.id : null,
        },
      ],
    };
  }
  const topic = (user?.instruction ?? 'something').replace(/^(?:please\s+)?(?:write|draft|create|add|make)\s+(?:an?\s+)?(?:article\s+)?(?:about\s+)?/i, '').replace(/[.!?]+$/, '');
  return {
    title: overrides.title ?? `Model: ${topic}`.slice(0, 80),
    changes: [
      {
        kind: 'article',
        operation: 'create',
        title: overrides.changeTitle ?? `All about ${topic}`.slice(0, 255),
        markdown: overrides.markdown ?? `This article explains ${topic}.\n\n## Steps\n\n1. Open the app\n2. Follow the prompts`,
        targetArticleId: null,
        targetCollectionId: user?.placeIn.collectionId ?? null,
        targetSectionId: user?.placeIn.sectionId ?? null,
      },
    ],
  };
}

function ok(body: unknown, headers: Record<string, string> = {}): Reply {
  return { status: 200, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

/** Ready-made replies: the normal answer and every way a model server can go wrong. */
export const replies = {
  /** A valid structured answer built from the request (see `answerFor`), optionally edited. */
  valid(overrides: Parameters<typeof answerFor>[1] = {}, edit?: (answer: ModelAnswer) => ModelAnswer): Responder {
    return (request) => {
      const answer = answerFor(request, overrides);
      return ok(completion(JSON.stringify(edit ? edit(answer) : answer)));
    };
  },
  /** The message content exactly as given (a string is sent as is, anything else as JSON). */
  content(content: unknown, options: Parameters<typeof completion>[1] = {}): Responder {
    return ok(completion(typeof content === 'string' || content === null ? (content as string | null) : JSON.stringify(content), options));
  },
  /** A valid answer wrapped in a Markdown code fence (```json … ```), as small models like to. */
  fenced(overrides: Parameters<typeof answerFor>[1] = {}): Responder {
    return (request) => ok(completion(`\`\`\`json\n${JSON.stringify(answerFor(request, overrides), null, 2)}\n\`\`\``));
  },
  /** Content that is not JSON at all. */
  notJson(): Responder {
    return ok(completion('Sure! Here is your article: it explains how to reset a password.'));
  },
  /** JSON that does not match the schema (no `changes`). */
  schemaMismatch(): Responder {
    return ok(completion(JSON.stringify({ title: 'Only a title', proposal: 'A free-form answer' })));
  },
  /** A change of a kind the schema does not allow. */
  wrongKind(): Responder {
    return (request) => ok(completion(JSON.stringify(answerFor(request, {}), (key, value: unknown) => (key === 'kind' ? 'page' : value))));
  },
  /** An update of something other than the task's target: the same kind, another ID (an article when there is no target). */
  updateOfAnotherTarget(otherId = 'art_01NOTTHETARGET0000000000000'): Responder {
    return (request) => {
      const kind = request.user?.target?.kind ?? 'article';
      const change = {
        kind,
        operation: 'update',
        title: 'Something else',
        markdown: 'Changed.',
        targetArticleId: kind === 'article' ? otherId : null,
        targetCollectionId: kind === 'collection' ? otherId : null,
        targetSectionId: kind === 'section' ? otherId : null,
      };
      return ok(completion(JSON.stringify({ title: 'Sneaky update', changes: [change] } satisfies ModelAnswer)));
    };
  },
  /** `choices: []`. */
  emptyChoices(): Responder {
    return ok({ ...completion(null), choices: [] });
  },
  /** The answer was cut off at max_tokens: `finish_reason: "length"` with a truncated JSON prefix. */
  truncated(): Responder {
    return (request) => {
      const full = JSON.stringify(answerFor(request));
      return ok(completion(full.slice(0, Math.floor(full.length / 2)), { finishReason: 'length' }));
    };
  },
  /** The model refused (structured-output refusal). */
  refusal(text = "I'm sorry, I can't help with that."): Responder {
    return ok(completion(null, { refusal: text }));
  },
  /** An empty assistant message. */
  emptyContent(): Responder {
    return ok(completion(''));
  },
  /** HTTP 200 whose body is not JSON (a proxy's HTML page, say). */
  nonJsonBody(): Responder {
    return { status: 200, headers: { 'content-type': 'text/html' }, body: '<html><body>Welcome to nginx!</body></html>' };
  },
  /** HTTP 200 whose body is the given JSON value (e.g. `null`, `{}`). */
  rawJson(value: unknown): Responder {
    return ok(value);
  },
  /** 429 with an OpenAI-style rate-limit error and `Retry-After` (seconds) unless null. */
  rateLimited(retryAfterSeconds: number | null = 1): Responder {
    return {
      status: 429,
      headers: { ...JSON_HEADERS, ...(retryAfterSeconds === null ? {} : { 'retry-after': String(retryAfterSeconds) }) },
      body: JSON.stringify({ error: { message: 'Rate limit reached for test-model. Please try again in 1s.', type: 'requests', param: null, code: 'rate_limit_exceeded' } }),
    };
  },
  /** A 5xx with an OpenAI-style error body. */
  serverError(status = 500, headers: Record<string, string> = {}): Responder {
    return {
      status,
      headers: { ...JSON_HEADERS, ...headers },
      body: JSON.stringify({ error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } }),
    };
  },
  /** 400 with an OpenAI-style invalid_request_error body carrying `message`. */
  badRequest(message = "Invalid schema for response_format 'help_center_changes'."): Responder {
    return {
      status: 400,
      headers: JSON_HEADERS,
      body: JSON.stringify({ error: { message, type: 'invalid_request_error', param: 'response_format', code: null } }),
    };
  },
  /** Each responder in turn for successive requests (the last one from then on). */
  sequence(...responders: Responder[]): Responder {
    let next = 0;
    return (request) => {
      const responder = responders[Math.min(next++, responders.length - 1)]!;
      return typeof responder === 'function' ? responder(request) : responder;
    };
  },
  /** Never answers. */
  hang(): Responder {
    return { hang: true };
  },
};

function parseJson<T>(text: string): T | null {
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

function userPayload(body: ChatCompletionRequestBody | null): UserPayload | null {
  const messages = Array.isArray(body?.messages) ? body.messages : [];
  const user = [...messages].reverse().find((m) => m?.role === 'user');
  return typeof user?.content === 'string' ? parseJson<UserPayload>(user.content) : null;
}

/** Starts the server on 127.0.0.1 and a free port. Unknown paths answer 404 with an OpenAI-style error. */
export async function startChatCompletionsServer(): Promise<ChatCompletionsServer> {
  const requests: ChatRequest[] = [];
  const queue: Responder[] = [];
  let rules: Array<{ predicate: (request: ChatRequest) => boolean; responder: Responder }> = [];
  let fallback: Responder = replies.valid();
  const waiters = new Set<() => void>();
  const sockets = new Set<Socket>();

  const isCompletion = (r: ChatRequest): boolean => r.method === 'POST' && pathOf(r.path) === '/v1/chat/completions';

  const choose = (request: ChatRequest): Responder => {
    if (!isCompletion(request)) {
      return {
        status: 404,
        headers: JSON_HEADERS,
        body: JSON.stringify({ error: { message: `Unknown request URL: ${request.method} ${request.path}`, type: 'invalid_request_error', param: null, code: 'unknown_url' } }),
      };
    }
    const rule = rules.find((r) => r.predicate(request));
    if (rule) return rule.responder;
    return queue.shift() ?? fallback;
  };

  const reply = async (request: ChatRequest, res: ServerResponse): Promise<void> => {
    const responder = choose(request);
    const answer = await replyOf(responder, request, (error) => ({
      status: 500,
      headers: JSON_HEADERS,
      body: JSON.stringify({ error: { message: `test server handler failed: ${error.message}` } }),
    }));
    if (answer.hang || res.destroyed) return;
    send(res, answer);
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const body = parseJson<ChatCompletionRequestBody>(rawBody);
      const request: ChatRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        rawBody,
        body,
        user: userPayload(body),
        receivedAt: new Date(),
        nth: requests.length + 1,
        header: (name: string) => headerOf(req.headers, name),
      };
      requests.push(request);
      for (const wake of [...waiters]) wake();
      void reply(request, res);
    });
    req.on('error', () => undefined);
    res.on('error', () => undefined);
  };

  const server = createServer(handle);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    baseUrl: `${origin}/v1`,
    requests,
    completions: () => requests.filter(isCompletion),
    enqueue: (...responders) => void queue.push(...responders),
    when: (predicate, responder) => void (rules = [{ predicate, responder }, ...rules]),
    respondWith: (responder) => void (fallback = responder),
    waitForCompletions: (count, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const matching = requests.filter(isCompletion);
          if (matching.length < count) return;
          cleanup();
          resolve(matching.slice(0, count));
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`Chat server: fewer than ${count} completion request(s) after ${timeoutMs} ms (got ${requests.filter(isCompletion).length})`));
        }, timeoutMs);
        const cleanup = (): void => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
    reset: () => {
      requests.length = 0;
      queue.length = 0;
      rules = [];
      fallback = replies.valid();
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

/** A base URL on 127.0.0.1 where nothing listens (connection refused): a port that was free a moment ago. */
export async function refusedBaseUrl(): Promise<string> {
  return `http://127.0.0.1:${await closedPort()}/v1`;
}
