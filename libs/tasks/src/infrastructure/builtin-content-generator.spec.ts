import { describe, expect, it } from '@jest/globals';
import { GenerationError, type GenerationRequest } from '../application/content-generator.port.js';
import { titleFromInstruction } from '../domain/task.js';
import { BuiltinContentGenerator } from './builtin-content-generator.js';

const generator = new BuiltinContentGenerator();
const RELATED = [
  {
    id: 'art_1',
    title: 'Reset your password',
    url: 'https://help.example.com/articles/reset-your-password',
    markdown: '# Intro\n\nYour password protects your account.\n\n1. Open Settings\n2. Click Reset password',
  },
  { id: 'art_2', title: 'Billing', url: 'https://help.example.com/articles/billing', markdown: 'Invoices are sent monthly by email.' },
];

function request(instruction: string, overrides: Partial<GenerationRequest> = {}): GenerationRequest {
  return { instruction, target: null, collectionId: null, sectionId: null, related: RELATED, signal: new AbortController().signal, ...overrides };
}

const article = { kind: 'article' as const, id: 'art_9', title: 'Open Settings', markdown: 'Go to Settings.\n\n## Old\n\nOld text.\n\n## Keep\n\nKept.' };

describe('BuiltinContentGenerator', () => {
  it('drafts a how-to article from related articles, with sources, steps and a note that no model wrote it', async () => {
    const result = await generator.generate(request('Write an article about how to reset a password'));
    const [change] = result.changes;
    expect(change).toMatchObject({ kind: 'article', operation: 'create', title: 'How to reset a password', targetArticleId: null });
    expect(change!.markdown).toContain('Your password protects your account.');
    expect(change!.markdown).toContain('[Reset your password](https://help.example.com/articles/reset-your-password)');
    expect(change!.markdown).toContain('1. Open Settings\n2. Click Reset password');
    expect(change!.markdown).toMatch(/built-in generator, which uses no language model/);
  });

  it('places a new article where the task says, and says when nothing covers the topic', async () => {
    const result = await generator.generate(request('Write a guide on quantum teleportation', { related: [], collectionId: 'col_1', sectionId: 'sect_1' }));
    expect(result.changes[0]).toMatchObject({ targetCollectionId: 'col_1', targetSectionId: 'sect_1' });
    expect(result.changes[0]!.markdown).toContain('No published article covers quantum teleportation yet');
  });

  it('proposes collections and sections', async () => {
    expect((await generator.generate(request('Create a collection called "Billing and plans"'))).changes[0]).toMatchObject({ kind: 'collection', operation: 'create', title: 'Billing and plans' });
    expect((await generator.generate(request('create a section named Developers'))).changes[0]).toMatchObject({ kind: 'section', operation: 'create', title: 'Developers' });
  });

  it('applies rename, add, remove, append and prepend patterns to a target article, deterministically', async () => {
    const instruction = 'Rename "Settings" to "Preferences"; add a section about invoices; remove the section Old; append: Contact us.\nprepend: Updated.';
    const first = await generator.generate(request(instruction, { target: article }));
    const second = await generator.generate(request(instruction, { target: article }));
    expect(second).toEqual(first);
    const [change] = first.changes;
    expect(change).toMatchObject({ kind: 'article', operation: 'update', targetArticleId: 'art_9', title: 'Open Preferences' });
    expect(change!.markdown).toBe(
      'Updated.\n\nGo to Preferences.\n\n## Keep\n\nKept.\n\n## Invoices\n\nInvoices are sent monthly by email.\n\n(From [Billing](https://help.example.com/articles/billing).)\n\nContact us.',
    );
  });

  it('renames collections and sections and sets a collection subtitle', async () => {
    const collection = { kind: 'collection' as const, id: 'col_1', title: 'Old', markdown: '' };
    const result = await generator.generate(request('rename to "Payments"; set the subtitle to "Cards and invoices"', { target: collection }));
    expect(result.changes[0]).toMatchObject({ kind: 'collection', operation: 'update', targetCollectionId: 'col_1', title: 'Payments', markdown: 'Cards and invoices' });
    const section = { kind: 'section' as const, id: 'sect_1', title: 'Old', markdown: '' };
    expect((await generator.generate(request('Rename it to Guides', { target: section }))).changes[0]).toMatchObject({ title: 'Guides', targetSectionId: 'sect_1' });
  });

  it('fails with what it understands instead of pretending', async () => {
    await expect(generator.generate(request('make it better', { target: article }))).rejects.toThrow(GenerationError);
    await expect(generator.generate(request('make it better', { target: article }))).rejects.toThrow(/does not understand "make it better".*AI_PROVIDER=openai/s);
    await expect(generator.generate(request('Replace "Nowhere" with "Here"', { target: article }))).rejects.toThrow(/"Nowhere" does not occur/);
    await expect(generator.generate(request('remove the section Missing', { target: article }))).rejects.toThrow(/no section "Missing"/);
  });
});

describe('titleFromInstruction', () => {
  it.each([
    ['write an article about refunds. Mention taxes.', 'Refunds'],
    ['  rename X to Y  ', 'Rename X to Y'],
    [`${'word '.repeat(40)}end`, `${'Word word word word word word word word word word word word word word word'}…`],
  ])('%j → %j', (instruction, title) => {
    expect(titleFromInstruction(instruction)).toBe(title);
  });
});
