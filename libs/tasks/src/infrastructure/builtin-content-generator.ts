import { Injectable } from '@nestjs/common';
import type { ProposedChange } from '../domain/task.js';
import {
  ContentGenerator,
  GenerationError,
  type GenerationRequest,
  type GenerationResult,
  type GenerationTarget,
  type RelatedArticle,
} from '../application/content-generator.port.js';

const NOTE =
  '> Drafted by the built-in generator, which uses no language model: it follows fixed instruction patterns and quotes published articles. Review it before publishing.';

const UNDERSTOOD =
  'It understands, for an article: "rename X to Y", "replace X with Y", "add a section about X", "remove the section X", "append: text", "prepend: text"; ' +
  'for a collection or section: "rename to X" (and "set the subtitle to X" for a collection); without a target: "write an article about X", ' +
  '"create a collection called X", "create a section called X". Set AI_PROVIDER=openai for free-form instructions.';

/** `"quoted"`, `'quoted'`, `“quoted”` or bare text up to the end of the clause. */
const TEXT = `(?:"([^"]+)"|'([^']+)'|“([^”]+)”|(.+?))`;

function pick(match: RegExpMatchArray, from: number): string {
  return (match[from] ?? match[from + 1] ?? match[from + 2] ?? match[from + 3] ?? '').trim();
}

function clausesOf(instruction: string): string[] {
  return instruction
    .split(/\n|;|\.\s+(?=[A-Z])|,?\s+and then\s+/)
    // A closing full stop ends the clause, except in text to append or prepend, where it belongs to the text.
    .map((c) => (/^(append|prepend)\b/i.test(c.trim()) ? c.trim() : c.trim().replace(/\.$/, '')))
    .filter((c) => c.length > 0);
}

function paragraphs(markdown: string): string[] {
  return markdown
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0 && !/^(#|:::|[-*+] |\d+\. |>|\||```)/.test(p));
}

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? [];
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function link(article: RelatedArticle): string {
  return article.url ? `[${article.title}](${article.url})` : `“${article.title}”`;
}

/** Passages of related articles that mention a topic's words, each with its source. */
function passagesAbout(topic: string, related: readonly RelatedArticle[], limit: number): string[] {
  const wanted = new Set(words(topic));
  const found: string[] = [];
  for (const article of related) {
    const passage = paragraphs(article.markdown).find((p) => words(p).some((w) => wanted.has(w))) ?? (wanted.size === 0 ? paragraphs(article.markdown)[0] : undefined);
    if (passage) found.push(`${passage}\n\n(From ${link(article)}.)`);
    if (found.length >= limit) break;
  }
  return found;
}

/** The first ordered list of a related article, for "how to" articles. */
function firstSteps(related: readonly RelatedArticle[]): { steps: string; source: RelatedArticle } | null {
  for (const article of related) {
    const list = article.markdown.split(/\n{2,}/).find((block) => /^\d+\. /.test(block.trim()));
    if (list) return { steps: list.trim(), source: article };
  }
  return null;
}

function removeSection(markdown: string, heading: string): string | null {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => /^#{1,4} /.test(l) && l.replace(/^#+ /, '').trim().toLowerCase() === heading.toLowerCase());
  if (start === -1) return null;
  const level = /^#+/.exec(lines[start]!)![0].length;
  let end = start + 1;
  while (end < lines.length && !(new RegExp(`^#{1,${level}} `).test(lines[end]!))) end++;
  return [...lines.slice(0, start), ...lines.slice(end)].join('\n').replace(/\n{3,}/g, '\n\n').trim();
}

/**
 * The default, offline generator: no model, deterministic. Drafts new articles from the published articles that
 * match the instruction (outline, quoted passages with their sources, steps, links) and applies instruction patterns
 * to existing content. It says so in what it writes, and fails with the list of what it understands otherwise.
 */
@Injectable()
export class BuiltinContentGenerator extends ContentGenerator {
  readonly name = 'builtin';

  async generate(request: GenerationRequest): Promise<GenerationResult> {
    const change = request.target ? this.update(request, request.target) : this.create(request);
    return { changes: [change] };
  }

  private create(request: GenerationRequest): ProposedChange {
    const instruction = request.instruction.trim();
    const none = { targetArticleId: null, targetCollectionId: request.collectionId, targetSectionId: request.sectionId };
    const container = new RegExp(`^(?:create|add|make)\\s+(?:a\\s+|an\\s+|the\\s+)?(?:new\\s+)?(collection|section)\\s+(?:called|named|titled|for|about)?\\s*${TEXT}$`, 'i').exec(instruction);
    if (container) {
      const kind = container[1]!.toLowerCase() as 'collection' | 'section';
      const title = capitalise(pick(container, 2));
      return { kind, operation: 'create', title, markdown: '', targetArticleId: null, targetCollectionId: null, targetSectionId: kind === 'collection' ? request.sectionId : null };
    }
    const topicMatch = /^(?:please\s+)?(?:write|draft|create|add|make|document)\s+(?:a\s+|an\s+|the\s+)?(?:new\s+)?(?:help\s+)?(?:article|guide|page|doc|faq|how-to)?\s*(?:about|on|for|covering|explaining|describing|that explains)?\s*(.+)$/i.exec(instruction);
    const topic = (topicMatch?.[1] ?? instruction).replace(/[.!?]+$/, '').trim();
    const howTo = /^how to\b/i.test(topic) || /\b(steps?|how to)\b/i.test(instruction);
    const title = capitalise(topic.length > 120 ? `${topic.slice(0, 119)}…` : topic);
    const passages = passagesAbout(topic, request.related, 3);
    const parts = [`This article explains ${topic.replace(/^how to/i, 'how to')}.`];
    if (passages.length > 0) parts.push('## Overview', ...passages);
    const steps = howTo ? firstSteps(request.related) : null;
    if (steps) parts.push('## Steps', steps.steps, `(Steps from ${link(steps.source)}.)`);
    if (passages.length === 0 && !steps) parts.push('## Details', `No published article covers ${topic} yet: describe it here.`);
    if (request.related.length > 0) parts.push('## Related articles', request.related.map((a) => `- ${link(a)}`).join('\n'));
    parts.push(NOTE);
    return { kind: 'article', operation: 'create', title, markdown: parts.join('\n\n'), ...none };
  }

  private update(request: GenerationRequest, target: GenerationTarget): ProposedChange {
    let title = target.title;
    let markdown = target.markdown;
    const understood: string[] = [];
    for (const clause of clausesOf(request.instruction)) {
      let m: RegExpMatchArray | null;
      if ((m = new RegExp(`^(?:rename|change|replace)\\s+${TEXT}\\s+(?:to|with|by)\\s+${TEXT}$`, 'i').exec(clause)) && target.kind === 'article') {
        const from = pick(m, 1);
        const to = pick(m, 5);
        if (!title.includes(from) && !markdown.includes(from)) throw new GenerationError(`"${from}" does not occur in the article, so it cannot be replaced.`);
        title = title.replaceAll(from, to);
        markdown = markdown.replaceAll(from, to);
      } else if ((m = new RegExp(`^(?:rename|retitle)\\s+(?:it|the (?:collection|section|article))?\\s*(?:to|as)\\s+${TEXT}$`, 'i').exec(clause))) {
        title = pick(m, 1);
      } else if ((m = new RegExp(`^(?:set|change)\\s+the\\s+subtitle\\s+to\\s+${TEXT}$`, 'i').exec(clause)) && target.kind === 'collection') {
        markdown = pick(m, 1);
      } else if ((m = new RegExp(`^add\\s+(?:a\\s+)?(?:new\\s+)?section\\s+(?:about|on|called|titled|named|for)\\s+${TEXT}$`, 'i').exec(clause)) && target.kind === 'article') {
        const heading = capitalise(pick(m, 1));
        const passages = passagesAbout(heading, request.related, 2);
        const body = passages.length > 0 ? passages.join('\n\n') : `Describe ${heading.toLowerCase()} here.`;
        markdown = `${markdown.trim()}\n\n## ${heading}\n\n${body}`.trim();
      } else if ((m = new RegExp(`^(?:remove|delete)\\s+(?:the\\s+)?section\\s+${TEXT}$`, 'i').exec(clause)) && target.kind === 'article') {
        const heading = pick(m, 1);
        const without = removeSection(markdown, heading);
        if (without === null) throw new GenerationError(`The article has no section "${heading}".`);
        markdown = without;
      } else if ((m = /^append:?\s+([\s\S]+)$/i.exec(clause)) && target.kind === 'article') {
        markdown = `${markdown.trim()}\n\n${m[1]!.trim()}`.trim();
      } else if ((m = /^prepend:?\s+([\s\S]+)$/i.exec(clause)) && target.kind === 'article') {
        markdown = `${m[1]!.trim()}\n\n${markdown.trim()}`.trim();
      } else {
        throw new GenerationError(`The built-in generator does not understand "${clause}". ${UNDERSTOOD}`);
      }
      understood.push(clause);
    }
    if (understood.length === 0) throw new GenerationError(`The instruction is empty. ${UNDERSTOOD}`);
    return {
      kind: target.kind,
      operation: 'update',
      title,
      markdown,
      targetArticleId: target.kind === 'article' ? target.id : null,
      targetCollectionId: target.kind === 'collection' ? target.id : null,
      targetSectionId: target.kind === 'section' ? target.id : null,
    };
  }
}
