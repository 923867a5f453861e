import { describe, expect, it } from '@jest/globals';
import { ERROR_CODES } from '#core';
import { contentSchema, parseMarkdown, toMarkdown } from '#content';
import { apiDescription, CONTENT_FORMAT_JSON_EXAMPLE, CONTENT_FORMAT_MARKDOWN_EXAMPLE } from './description.js';

describe('the reference text of the OpenAPI document', () => {
  it('shows a content format example whose Markdown is the JSON it shows, and round-trips', () => {
    const doc = parseMarkdown(CONTENT_FORMAT_MARKDOWN_EXAMPLE);
    expect(doc.toJSON()).toEqual(CONTENT_FORMAT_JSON_EXAMPLE);
    expect(toMarkdown(doc)).toBe(CONTENT_FORMAT_MARKDOWN_EXAMPLE.trimEnd());
  });

  it('lists every node and mark type of the content schema, every error code and the docUrl form', () => {
    const text = apiDescription('https://help.example.com');
    contentSchema.spec.nodes.forEach((name) => expect(text).toContain(`| \`${name}\` |`));
    contentSchema.spec.marks.forEach((name) => expect(text).toContain(`\`${name}\``));
    for (const code of ERROR_CODES) expect(text).toMatch(new RegExp(`\\| \`${code}\` \\| \\d{3} \\| .{20,} \\|`));
    expect(text).toContain('https://help.example.com/docs/errors#<code>');
  });
});
