import { Injectable, Logger } from '@nestjs/common';
import { AiConfig, findUnstorableText } from '#core';
import { OUTPUT_KINDS, OUTPUT_OPERATIONS, type ProposedChange } from '../domain/task.js';
import { ContentGenerator, GenerationError, type GenerationRequest, type GenerationResult } from '../application/content-generator.port.js';

const SYSTEM_PROMPT = [
  'You edit the help center of a software product. You receive a JSON object with an instruction, optionally the',
  'target to update (an article, collection or section, with its current Markdown) and related published articles.',
  'Answer with proposed changes only, as JSON matching the schema. Article bodies are Markdown (CommonMark + GFM tables;',
  'callouts as ":::callout{variant=\\"info\\"}" blocks). To update the target, return operation "update" with its ID and the',
  'complete new title and Markdown. To create content, return operation "create" with null IDs except a collection or',
  'section to place it in. For a collection, "markdown" is its subtitle; for a section it is "". Never invent facts:',
  'use the related articles and the instruction; link to related articles by their URL where useful.',
].join(' ');

const CHANGE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'operation', 'title', 'markdown', 'targetArticleId', 'targetCollectionId', 'targetSectionId'],
  properties: {
    kind: { type: 'string', enum: [...OUTPUT_KINDS] },
    operation: { type: 'string', enum: [...OUTPUT_OPERATIONS] },
    title: { type: 'string' },
    markdown: { type: 'string' },
    targetArticleId: { type: ['string', 'null'] },
    targetCollectionId: { type: ['string', 'null'] },
    targetSectionId: { type: ['string', 'null'] },
  },
} as const;

export const RESPONSE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['changes'],
  properties: {
    changes: { type: 'array', minItems: 1, maxItems: 10, items: CHANGE_SCHEMA },
  },
} as const;

/** Related articles are cut to this many characters each, so a prompt stays within a small context window. */
const RELATED_CHARS = 4_000;

interface ChatCompletion {
  choices?: Array<{ finish_reason?: string; message?: { content?: string | null; refusal?: string | null } }>;
}

/**
 * An OpenAI-compatible chat-completions client (OpenAI, vLLM, Ollama, llama.cpp server): structured output with a JSON
 * schema, a timeout per request, retries with backoff on 429, 5xx and network errors (Retry-After honoured up to 30 s),
 * a token limit. Whatever the model answers is validated; malformed output fails the task with a clear error.
 */
@Injectable()
export class OpenAiContentGenerator extends ContentGenerator {
  private readonly logger = new Logger(OpenAiContentGenerator.name);
  readonly name: string;

  constructor(private readonly ai: AiConfig) {
    super();
    this.name = `openai:${ai.model}`;
  }

  async generate(request: GenerationRequest): Promise<GenerationResult> {
    const body = JSON.stringify({
      model: this.ai.model,
      temperature: 0.2,
      max_tokens: this.ai.maxTokens,
      response_format: { type: 'json_schema', json_schema: { name: 'help_center_changes', strict: true, schema: RESPONSE_SCHEMA } },
      messages: [
        { role: 'system', content: SYSTEM_PROMPT },
        {
          role: 'user',
          content: JSON.stringify({
            instruction: request.instruction,
            target: request.target,
            placeIn: { collectionId: request.collectionId, sectionId: request.sectionId },
            related: request.related.map((a) => ({ ...a, markdown: a.markdown.slice(0, RELATED_CHARS) })),
          }),
        },
      ],
    });
    const completion = await this.call(body, request.signal);
    const choice = completion.choices?.[0];
    if (choice?.message?.refusal) throw new GenerationError(`The model refused: ${choice.message.refusal}`);
    if (choice?.finish_reason === 'length') throw new GenerationError('The model output was cut off at AI_MAX_TOKENS; raise it or shorten the task');
    const content = choice?.message?.content;
    if (typeof content !== 'string' || content.trim() === '') throw new GenerationError('The model returned no content');
    let parsed: unknown;
    try {
      parsed = JSON.parse(content.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
    } catch {
      throw new GenerationError('The model returned malformed output: not JSON');
    }
    return validate(parsed, request);
  }

  private async call(body: string, signal: AbortSignal): Promise<ChatCompletion> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.ai.apiKey) headers.authorization = `Bearer ${this.ai.apiKey}`;
    for (let attempt = 0; ; attempt++) {
      let retryAfterMs: number | null = null;
      let problem: string;
      try {
        const response = await fetch(`${this.ai.baseUrl}/chat/completions`, {
          method: 'POST',
          headers,
          body,
          signal: AbortSignal.any([signal, AbortSignal.timeout(this.ai.requestTimeoutMs)]),
        });
        const text = await response.text();
        if (response.ok) {
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            throw new GenerationError('The model server answered with something that is not JSON');
          }
          if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new GenerationError('The model returned malformed output: the answer is not a chat completion object');
          return parsed as ChatCompletion;
        }
        problem = `the model server answered HTTP ${response.status}${errorMessage(text)}`;
        if (response.status !== 429 && response.status < 500) throw new GenerationError(`${capitalise(problem)}`);
        const header = Number(response.headers.get('retry-after'));
        if (Number.isFinite(header) && header > 0) retryAfterMs = Math.min(header * 1000, 30_000);
      } catch (error) {
        if (error instanceof GenerationError) throw error;
        if (signal.aborted) throw stopped(signal);
        problem = (error as Error).name === 'TimeoutError' ? `the model server did not answer within ${this.ai.requestTimeoutMs} ms` : `the model server could not be reached (${(error as Error).message})`;
      }
      if (attempt >= this.ai.maxRetries) throw new GenerationError(`${capitalise(problem)}, after ${attempt + 1} attempt(s)`, true);
      const delay = retryAfterMs ?? Math.min(1000 * 2 ** attempt, 30_000);
      this.logger.warn(`Model request failed (${problem}); retrying in ${delay} ms`);
      await sleep(delay, signal);
    }
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function errorMessage(text: string): string {
  try {
    const message = (JSON.parse(text) as { error?: { message?: string } | string }).error;
    const value = typeof message === 'string' ? message : message?.message;
    return value ? `: ${value.slice(0, 300)}` : '';
  } catch {
    return '';
  }
}

/** Why the task's signal stopped a model call: the reason it was aborted with (time limit or cancellation). */
function stopped(signal: AbortSignal): GenerationError {
  const reason: unknown = signal.reason;
  if (reason instanceof GenerationError) return reason;
  if (reason instanceof Error && reason.name === 'TimeoutError') return new GenerationError('The task ran longer than AI_TASK_TIMEOUT_MS');
  return new GenerationError('The task was stopped: cancelled, or past AI_TASK_TIMEOUT_MS');
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(stopped(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const nullableString = (value: unknown): value is string | null => value === null || typeof value === 'string';

/** The model's answer as proposed changes, or GenerationError saying what is wrong with it. */
export function validate(value: unknown, request: Pick<GenerationRequest, 'target' | 'collectionId' | 'sectionId'>): GenerationResult {
  const bad = (why: string): never => {
    throw new GenerationError(`The model returned malformed output: ${why}`);
  };
  if (typeof value !== 'object' || value === null) bad('not an object');
  const { changes } = value as { changes?: unknown };
  if (!Array.isArray(changes) || changes.length === 0 || changes.length > 10) bad('"changes" must be an array of 1 to 10 changes');
  const result: ProposedChange[] = (changes as unknown[]).map((raw, i) => {
    const c = raw as Record<string, unknown>;
    if (typeof c !== 'object' || c === null) bad(`changes[${i}] is not an object`);
    if (!(OUTPUT_KINDS as readonly unknown[]).includes(c.kind)) bad(`changes[${i}].kind must be one of ${OUTPUT_KINDS.join(', ')}`);
    if (!(OUTPUT_OPERATIONS as readonly unknown[]).includes(c.operation)) bad(`changes[${i}].operation must be create or update`);
    if (typeof c.title !== 'string' || c.title.trim() === '' || c.title.length > 255) bad(`changes[${i}].title must be 1 to 255 characters`);
    if (typeof c.markdown !== 'string' || c.markdown.length > 200_000) bad(`changes[${i}].markdown must be a string of at most 200000 characters`);
    for (const field of ['targetArticleId', 'targetCollectionId', 'targetSectionId']) {
      if (!nullableString(c[field] ?? null)) bad(`changes[${i}].${field} must be a string or null`);
    }
    // A title, a collection's subtitle (its markdown) and IDs are stored as they are: text PostgreSQL cannot store
    // (NUL, an unpaired surrogate) would fail the write, or turn into U+FFFD, after the task had run.
    const { title, markdown, targetArticleId, targetCollectionId, targetSectionId } = c;
    const [unstorable] = findUnstorableText({ title, markdown, targetArticleId, targetCollectionId, targetSectionId }, `changes[${i}]`, 1);
    if (unstorable) bad(unstorable.message);
    const change = {
      kind: c.kind,
      operation: c.operation,
      title: (c.title as string).trim(),
      markdown: c.markdown as string,
      targetArticleId: (c.targetArticleId as string | null) ?? null,
      targetCollectionId: (c.targetCollectionId as string | null) ?? null,
      targetSectionId: (c.targetSectionId as string | null) ?? null,
    } as ProposedChange;
    if (change.operation === 'update') {
      // Updates may only touch the task's own target.
      const target = request.target;
      const id = change.kind === 'article' ? change.targetArticleId : change.kind === 'collection' ? change.targetCollectionId : change.targetSectionId;
      if (!target || target.kind !== change.kind || target.id !== id) bad(`changes[${i}] updates something other than the task's target`);
    }
    return change;
  });
  return { changes: result };
}
