import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { AppConfig } from '#core';
import { GenerationError, type GenerationRequest, OpenAiContentGenerator, RESPONSE_SCHEMA } from '#tasks';
import { type ChatCompletionsServer, type ChatRequest, refusedBaseUrl, replies, type Responder, startChatCompletionsServer } from '../support/chat-completions-server.js';
import { TEST_APP_SECRET } from '../support/env.js';

/**
 * The OpenAI-compatible chat-completions adapter (CONTRACT §7) against a local model server speaking the protocol:
 * what it sends, how it retries (429 with Retry-After, 5xx, timeouts, refused connections), what it does not retry
 * (4xx), and how every kind of malformed answer becomes a final GenerationError with a clear message.
 */

jest.setTimeout(30_000);

let chat: ChatCompletionsServer;
let dataDir: string;
let warnings: string[];

const ARTICLE_TARGET = { kind: 'article' as const, id: 'art_01TARGET000000000000000000', title: 'Reset your password', markdown: 'Open **Settings** and click Reset.' };

function generator(env: Record<string, string> = {}): OpenAiContentGenerator {
  const config = AppConfig.fromEnv({
    DATA_DIR: dataDir,
    APP_SECRET: TEST_APP_SECRET,
    AI_PROVIDER: 'openai',
    AI_BASE_URL: chat.baseUrl,
    AI_MODEL: 'test-model',
    AI_REQUEST_TIMEOUT_MS: '300',
    AI_MAX_RETRIES: '2',
    AI_MAX_TOKENS: '777',
    ...env,
  });
  return new OpenAiContentGenerator(config.ai);
}

function request(overrides: Partial<GenerationRequest> = {}): GenerationRequest {
  return {
    instruction: 'Write an article about exporting invoices',
    target: null,
    collectionId: null,
    sectionId: null,
    related: [{ id: 'art_01RELATED00000000000000000', title: 'Billing', url: 'http://help.test/articles/billing', markdown: 'Invoices are sent monthly.' }],
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** The GenerationError `promise` rejects with (fails the test when it resolves or rejects with something else). */
async function failure(promise: Promise<unknown>): Promise<GenerationError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a GenerationError, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(GenerationError);
  return outcome.error as GenerationError;
}

function gap(a: ChatRequest, b: ChatRequest): number {
  return b.receivedAt.getTime() - a.receivedAt.getTime();
}

beforeAll(async () => {
  chat = await startChatCompletionsServer();
  dataDir = mkdtempSync(join(tmpdir(), 'hc-openai-'));
});

afterAll(async () => {
  await chat.close();
  rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(() => {
  chat.reset();
  warnings = [];
  jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => void warnings.push(String(message)));
});

afterEach(() => {
  jest.restoreAllMocks();
});

describe('the request', () => {
  it('POSTs {AI_BASE_URL}/chat/completions: model, max_tokens, a strict json_schema response format, system + user messages', async () => {
    const related = [
      { id: 'art_01RELATED00000000000000001', title: 'Billing', url: 'http://help.test/articles/billing', markdown: 'b'.repeat(5_000) },
      { id: 'art_01RELATED00000000000000002', title: 'Plans', url: null, markdown: 'Plans are monthly.' },
    ];
    await generator().generate(request({ related, collectionId: 'col_1', sectionId: 'sect_1' }));

    const [sent] = await chat.waitForCompletions(1);
    expect(chat.requests).toHaveLength(1);
    expect(sent!.method).toBe('POST');
    expect(sent!.path).toBe('/v1/chat/completions');
    expect(sent!.header('content-type')).toMatch(/^application\/json/);
    expect(sent!.header('accept')).toBe('application/json');
    const body = sent!.body!;
    expect(body.model).toBe('test-model');
    expect(body.max_tokens).toBe(777);
    expect(body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'help_center_changes', strict: true, schema: RESPONSE_SCHEMA } });
    // Strict structured output needs every property required and no extra properties, at each level.
    const schema = body.response_format!.json_schema!.schema as typeof RESPONSE_SCHEMA;
    expect(schema.additionalProperties).toBe(false);
    expect([...schema.required].sort()).toEqual(Object.keys(schema.properties).sort());
    expect(schema.properties.changes.items.additionalProperties).toBe(false);
    expect([...schema.properties.changes.items.required].sort()).toEqual(Object.keys(schema.properties.changes.items.properties).sort());

    expect(body.messages!.map((m) => m.role)).toEqual(['system', 'user']);
    expect(body.messages![0]!.content).toMatch(/help center/);
    expect(JSON.parse(body.messages![1]!.content)).toEqual({
      instruction: 'Write an article about exporting invoices',
      target: null,
      placeIn: { collectionId: 'col_1', sectionId: 'sect_1' },
      related: [
        { ...related[0], markdown: 'b'.repeat(4_000) },
        { ...related[1], markdown: 'Plans are monthly.' },
      ],
    });
  });

  it('sends the update target with its current Markdown', async () => {
    await generator().generate(request({ instruction: 'Make it friendlier', target: ARTICLE_TARGET, related: [] }));
    const [sent] = await chat.waitForCompletions(1);
    expect(sent!.user).toEqual({ instruction: 'Make it friendlier', target: ARTICLE_TARGET, placeIn: { collectionId: null, sectionId: null }, related: [] });
  });

  it('sends Authorization: Bearer AI_API_KEY only when the key is set', async () => {
    await generator({ AI_API_KEY: 'sk-test-123' }).generate(request());
    await generator().generate(request());
    const [withKey, withoutKey] = await chat.waitForCompletions(2);
    expect(withKey!.header('authorization')).toBe('Bearer sk-test-123');
    expect(withoutKey!.headers).not.toHaveProperty('authorization');
  });

  it('is named openai:<model> (recorded on tasks)', () => {
    expect(generator({ AI_MODEL: 'llama3.1:8b' }).name).toBe('openai:llama3.1:8b');
  });
});

describe('a valid answer', () => {
  it('becomes the proposed changes: a create placed where the task says', async () => {
    const result = await generator().generate(request({ collectionId: 'col_1', sectionId: 'sect_1' }));
    expect(result).toEqual({
      changes: [
        {
          kind: 'article',
          operation: 'create',
          title: 'All about exporting invoices',
          markdown: 'This article explains exporting invoices.\n\n## Steps\n\n1. Open the app\n2. Follow the prompts',
          targetArticleId: null,
          targetCollectionId: 'col_1',
          targetSectionId: 'sect_1',
        },
      ],
    });
  });

  it('an update of the target', async () => {
    const result = await generator().generate(request({ instruction: 'Make it friendlier', target: ARTICLE_TARGET }));
    expect(result.changes).toEqual([
      {
        kind: 'article',
        operation: 'update',
        title: 'Reset your password (revised)',
        markdown: 'Open **Settings** and click Reset.\n\nRevised by the test model.',
        targetArticleId: ARTICLE_TARGET.id,
        targetCollectionId: null,
        targetSectionId: null,
      },
    ]);
  });

  it('accepts JSON wrapped in a ```json code fence, a bare ``` fence, or surrounded by whitespace', async () => {
    const answer = (title: string) => ({ changes: [{ kind: 'article', operation: 'create', title, markdown: 'M', targetArticleId: null, targetCollectionId: null, targetSectionId: null }] });
    chat.enqueue(
      replies.fenced({ changeTitle: 'Fenced' }),
      replies.content(`\`\`\`\n${JSON.stringify(answer('Bare fence'))}\n\`\`\``),
      replies.content(`\n  ${JSON.stringify(answer('Padded'))}\n\n`),
    );
    expect((await generator().generate(request())).changes[0]!.title).toBe('Fenced');
    expect((await generator().generate(request())).changes[0]!.title).toBe('Bare fence');
    expect((await generator().generate(request())).changes[0]!.title).toBe('Padded');
    expect(chat.completions()).toHaveLength(3);
  });
});

describe('retries', () => {
  it('429 with Retry-After: 1 → waits about a second, retries once, then succeeds', async () => {
    chat.enqueue(replies.rateLimited(1));
    const started = Date.now();
    const result = await generator().generate(request());
    expect(result.changes).toHaveLength(1);
    const sent = chat.completions();
    expect(sent).toHaveLength(2);
    expect(gap(sent[0]!, sent[1]!)).toBeGreaterThanOrEqual(950);
    expect(gap(sent[0]!, sent[1]!)).toBeLessThan(2_500);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(sent[1]!.rawBody).toBe(sent[0]!.rawBody);
    expect(warnings).toEqual([expect.stringMatching(/HTTP 429: Rate limit reached.*retrying in 1000 ms/)]);
  });

  it('Retry-After is honoured for a 503 too', async () => {
    chat.enqueue(replies.serverError(503, { 'retry-after': '1' }));
    await generator().generate(request());
    const sent = chat.completions();
    expect(sent).toHaveLength(2);
    expect(gap(sent[0]!, sent[1]!)).toBeGreaterThanOrEqual(950);
    expect(warnings).toEqual([expect.stringMatching(/HTTP 503.*retrying in 1000 ms/)]);
  });

  it('500 three times → a retryable GenerationError after 3 attempts (1 + AI_MAX_RETRIES), backing off 1 s then 2 s', async () => {
    chat.respondWith(replies.serverError(500));
    const error = await failure(generator().generate(request()));
    expect(error.retryable).toBe(true);
    expect(error.message).toBe('The model server answered HTTP 500: The server had an error while processing your request., after 3 attempt(s)');
    const sent = chat.completions();
    expect(sent).toHaveLength(3);
    expect(gap(sent[0]!, sent[1]!)).toBeGreaterThanOrEqual(950);
    expect(gap(sent[1]!, sent[2]!)).toBeGreaterThanOrEqual(1_950);
    expect(warnings).toEqual([expect.stringContaining('retrying in 1000 ms'), expect.stringContaining('retrying in 2000 ms')]);
  });

  it('AI_MAX_RETRIES=0 → one attempt only', async () => {
    chat.respondWith(replies.rateLimited(1));
    const error = await failure(generator({ AI_MAX_RETRIES: '0' }).generate(request()));
    expect(error).toMatchObject({ retryable: true, message: expect.stringMatching(/^The model server answered HTTP 429: Rate limit reached.*, after 1 attempt\(s\)$/) });
    expect(chat.completions()).toHaveLength(1);
  });

  it('400 → not retried; the error carries the server’s message', async () => {
    chat.respondWith(replies.badRequest("Invalid schema for response_format 'help_center_changes': unknown keyword."));
    const error = await failure(generator().generate(request()));
    expect(error.retryable).toBe(false);
    expect(error.message).toBe("The model server answered HTTP 400: Invalid schema for response_format 'help_center_changes': unknown keyword.");
    expect(chat.completions()).toHaveLength(1);
    expect(warnings).toEqual([]);
  });

  it('401/404 with a plain-string or missing error body → not retried, the status named', async () => {
    chat.enqueue({ status: 401, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: 'Invalid API key' }) }, { status: 404, body: 'Not Found' });
    expect(await failure(generator().generate(request()))).toMatchObject({ retryable: false, message: 'The model server answered HTTP 401: Invalid API key' });
    expect(await failure(generator().generate(request()))).toMatchObject({ retryable: false, message: 'The model server answered HTTP 404' });
    expect(chat.completions()).toHaveLength(2);
  });

  it('a server that never answers → a retryable timeout error after AI_REQUEST_TIMEOUT_MS per attempt', async () => {
    chat.respondWith(replies.hang());
    const started = Date.now();
    const error = await failure(generator({ AI_MAX_RETRIES: '1' }).generate(request()));
    const elapsed = Date.now() - started;
    expect(error.retryable).toBe(true);
    expect(error.message).toBe('The model server did not answer within 300 ms, after 2 attempt(s)');
    expect(chat.completions()).toHaveLength(2);
    // Two 300 ms attempts with a 1 s back-off between them.
    expect(elapsed).toBeGreaterThanOrEqual(1_550);
    expect(elapsed).toBeLessThan(5_000);
  });

  it('a refused connection → a retryable "could not be reached" error after every attempt', async () => {
    const error = await failure(generator({ AI_BASE_URL: await refusedBaseUrl(), AI_MAX_RETRIES: '1' }).generate(request()));
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/^The model server could not be reached \(.+\), after 2 attempt\(s\)$/);
    expect(warnings).toEqual([expect.stringContaining('could not be reached')]);
  });
});

describe('malformed answers → a final GenerationError (not retried, not retryable) with a clear message', () => {
  const cases: Array<[string, Responder, RegExp, GenerationRequest['target']?]> = [
    ['content that is not JSON', replies.notJson(), /^The model returned malformed output: not JSON$/],
    ['JSON not matching the schema', replies.schemaMismatch(), /^The model returned malformed output: "changes" must be an array of 1 to 10 changes$/],
    ['a change of an unknown kind', replies.wrongKind(), /^The model returned malformed output: changes\[0\]\.kind must be one of article, collection, section$/],
    ['an update of another target', replies.updateOfAnotherTarget(), /^The model returned malformed output: changes\[0\] updates something other than the task's target$/, ARTICLE_TARGET],
    ['an update when the task creates', replies.updateOfAnotherTarget(), /updates something other than the task's target/],
    ['a JSON string instead of an object', replies.content(JSON.stringify('just text')), /^The model returned malformed output: not an object$/],
    ['empty choices', replies.emptyChoices(), /^The model returned no content$/],
    ['an empty message', replies.emptyContent(), /^The model returned no content$/],
    ['a null message content', replies.content(null), /^The model returned no content$/],
    ['a completion without choices', replies.rawJson({ id: 'x', object: 'chat.completion' }), /^The model returned no content$/],
    ['finish_reason "length" (cut off)', replies.truncated(), /^The model output was cut off at AI_MAX_TOKENS/],
    ['a refusal', replies.refusal('I cannot write about that.'), /^The model refused: I cannot write about that\.$/],
    ['a 200 whose body is not JSON', replies.nonJsonBody(), /^The model server answered with something that is not JSON$/],
  ];

  it.each(cases)('%s', async (_name, responder, message, target = null) => {
    chat.respondWith(responder);
    const error = await failure(generator().generate(request({ target })));
    expect(error.message).toMatch(message);
    expect(error.retryable).toBe(false);
    expect(chat.completions()).toHaveLength(1);
    expect(warnings).toEqual([]);
  });

  // Regression: a 200 whose JSON body is `null` used to throw a TypeError instead of a GenerationError.
  it('a 200 whose JSON body is null → a GenerationError', async () => {
    chat.respondWith(replies.rawJson(null));
    const error = await failure(generator().generate(request()));
    expect(error.retryable).toBe(false);
  });
});

describe('cancellation and the task deadline (the request signal)', () => {
  it('an abort while the server hangs stops at once, with a final error naming AI_TASK_TIMEOUT_MS / cancellation', async () => {
    chat.respondWith(replies.hang());
    const controller = new AbortController();
    const pending = generator({ AI_REQUEST_TIMEOUT_MS: '10000' }).generate(request({ signal: controller.signal }));
    await chat.waitForCompletions(1);
    const started = Date.now();
    controller.abort();
    const error = await failure(pending);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(error).toMatchObject({ retryable: false, message: 'The task was stopped: cancelled, or past AI_TASK_TIMEOUT_MS' });
    expect(chat.completions()).toHaveLength(1);
  });

  it('an abort during the back-off between retries stops without another request', async () => {
    chat.respondWith(replies.rateLimited(20));
    const controller = new AbortController();
    const pending = generator().generate(request({ signal: controller.signal }));
    await chat.waitForCompletions(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    controller.abort();
    const error = await failure(pending);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(error).toMatchObject({ retryable: false, message: 'The task was stopped: cancelled, or past AI_TASK_TIMEOUT_MS' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(chat.completions()).toHaveLength(1);
  });

  it('a signal that is already aborted sends nothing', async () => {
    const error = await failure(generator().generate(request({ signal: AbortSignal.abort() })));
    expect(error).toMatchObject({ retryable: false, message: expect.stringMatching(/AI_TASK_TIMEOUT_MS/) });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(chat.completions()).toHaveLength(0);
  });

  it('a task deadline (AbortSignal.timeout) shorter than the request timeout ends a hanging call as out of time', async () => {
    chat.respondWith(replies.hang());
    const error = await failure(generator({ AI_REQUEST_TIMEOUT_MS: '10000' }).generate(request({ signal: AbortSignal.timeout(400) })));
    expect(error).toMatchObject({ retryable: false, message: 'The task was stopped: cancelled, or past AI_TASK_TIMEOUT_MS' });
  });
});
