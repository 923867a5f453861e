import { Injectable } from '@nestjs/common';
import { formatPatch, type StructuredPatch, structuredPatch } from 'diff';
import { type Principal, ValidationError } from '#core';
import type { ArticleRevision } from '../domain/article.js';
import { ArticleRevisionAccess } from './article-revision-access.js';

const MAX_DIFF_BYTES = 1024 * 1024;
const MAX_DIFF_LINES = 20_000;
/**
 * Edit distance (in lines) past which the Myers search gives up: its cost grows with lines × distance, so two
 * long, wholly different revisions took minutes of CPU (on a content:read endpoint). Past it, see `replacement`.
 */
const MAX_EDIT_LENGTH = 2_000;

export interface RevisionDiff {
  readonly articleId: string;
  readonly from: { revisionId: string; version: number };
  readonly to: { revisionId: string; version: number };
  readonly changed: boolean;
  readonly diff: string;
  readonly addedLines: number;
  readonly removedLines: number;
  readonly truncated: boolean;
}

/** Unified Markdown line diff from `against` (older) to `revisionId`, cut at 1 MiB or 20 000 lines. */
@Injectable()
export class DiffArticleRevisionsUseCase {
  constructor(private readonly access: ArticleRevisionAccess) {}

  async execute(articleId: string, revisionRef: string, against: string | undefined, principal: Principal): Promise<RevisionDiff> {
    if (!against) throw ValidationError.field('against', 'against is required: a version number or a revision ID');
    const liveOnly = await this.access.liveOnly(articleId, principal);
    const to = await this.access.revision(articleId, revisionRef, liveOnly);
    const from = await this.access.revision(articleId, against, liveOnly);
    const before = markdownOf(from);
    const after = markdownOf(to);
    const names = [`v${from.version}`, `v${to.version}`, from.id, to.id] as const;
    const patch =
      structuredPatch(names[0], names[1], before, after, names[2], names[3], { maxEditLength: MAX_EDIT_LENGTH }) ?? replacement(names, before, after);
    let added = 0;
    let removed = 0;
    for (const line of patch.hunks.flatMap((hunk) => hunk.lines)) {
      if (line.startsWith('+')) added += 1;
      else if (line.startsWith('-')) removed += 1;
    }
    const { text, truncated } = truncate(formatPatch(patch));
    return {
      articleId,
      from: { revisionId: from.id, version: from.version },
      to: { revisionId: to.id, version: to.version },
      changed: before !== after,
      diff: text,
      addedLines: added,
      removedLines: removed,
      truncated,
    };
  }
}

/** The text compared: the title as a heading over the body, so a title change shows in the diff too. */
function markdownOf(revision: ArticleRevision): string {
  const body = revision.content.markdown.endsWith('\n') ? revision.content.markdown : `${revision.content.markdown}\n`;
  return `# ${revision.title}\n\n${body}`;
}

/**
 * The diff of texts too different to search: their common first and last lines kept out, one hunk that removes
 * the rest of `before` and adds the rest of `after`. Correct, if not the shortest.
 */
function replacement(names: readonly [string, string, string, string], before: string, after: string): StructuredPatch {
  const oldLines = before.split('\n').slice(0, -1);
  const newLines = after.split('\n').slice(0, -1);
  let head = 0;
  while (head < oldLines.length && head < newLines.length && oldLines[head] === newLines[head]) head += 1;
  let tail = 0;
  while (tail < oldLines.length - head && tail < newLines.length - head && oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail]) tail += 1;
  const removed = oldLines.slice(head, oldLines.length - tail);
  const added = newLines.slice(head, newLines.length - tail);
  return {
    oldFileName: names[0],
    newFileName: names[1],
    oldHeader: names[2],
    newHeader: names[3],
    hunks: [
      {
        // 1-based like jsdiff's own hunks (formatPatch writes an empty side as starting one line earlier).
        oldStart: head + 1,
        oldLines: removed.length,
        newStart: head + 1,
        newLines: added.length,
        lines: [...removed.map((line) => `-${line}`), ...added.map((line) => `+${line}`)],
      },
    ],
  };
}

function truncate(diff: string): { text: string; truncated: boolean } {
  const lines = diff.split('\n');
  let text = lines.length > MAX_DIFF_LINES ? lines.slice(0, MAX_DIFF_LINES).join('\n') : diff;
  let truncated = lines.length > MAX_DIFF_LINES;
  if (Buffer.byteLength(text) > MAX_DIFF_BYTES) {
    text = Buffer.from(text).subarray(0, MAX_DIFF_BYTES).toString('utf8').replace(/\n[^\n]*$/, '\n').replace(/\uFFFD$/, '');
    truncated = true;
  }
  return { text, truncated };
}
