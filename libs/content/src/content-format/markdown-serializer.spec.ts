import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { MarkdownSerializerState } from 'prosemirror-markdown';
import type { Mark, Node } from 'prosemirror-model';
import { internals, StateBase, type StateInternals } from './markdown-serializer.js';
import { contentSchema as s } from './schema.js';

// markdown-serializer.ts subclasses prosemirror-markdown's MarkdownSerializerState and uses members its typings
// keep internal (StateInternals, and the constructor). These tests run them on a real upstream state, not on the
// subclass, so an upgrade of prosemirror-markdown that renames one or changes what it does fails here.

type Nodes = ConstructorParameters<typeof StateBase>[0];
type Marks = ConstructorParameters<typeof StateBase>[1];

const paragraph = (text: string): Node => s.node('paragraph', null, text ? [s.text(text)] : []);
/** The state built last, and what the link spec's open function was last called with. */
let current: MarkdownSerializerState | null = null;
let linkOpenedWith = '';
const marks: Marks = {
  em: { open: '*', close: '*', mixable: true, expelEnclosingWhitespace: true },
  link: {
    open: (state: MarkdownSerializerState, mark: Mark, parent: Node, index: number) => {
      linkOpenedWith = `${state === current ? 'state' : 'other'}:${mark.type.name}:${parent.type.name}:${index}`;
      return '[';
    },
    close: ']()',
  },
};
const nodes: Nodes = {
  paragraph: (state, node) => {
    state.renderInline(node);
    state.closeBlock(node);
  },
  text: (state, node) => state.text(node.text ?? ''),
};
/** A plain upstream state, built the way the serializer builds its own (the constructor its typings hide). */
function newState(options: MarkdownSerializerState['options'] = {}): { state: MarkdownSerializerState; self: StateInternals } {
  const state = new StateBase(nodes, marks, options);
  current = state;
  return { state, self: internals(state) };
}

function rootPackage(path: string): { version?: string; dependencies?: Record<string, string> } {
  return JSON.parse(readFileSync(new URL(`../../../../${path}`, import.meta.url), 'utf8')) as never;
}

describe('prosemirror-markdown internals the Markdown serializer relies on', () => {
  it('is the exact version package.json pins', () => {
    const pinned = rootPackage('package.json').dependencies?.['prosemirror-markdown'];
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(rootPackage('node_modules/prosemirror-markdown/package.json').version).toBe(pinned);
  });

  it('builds a state from (nodes, marks, options), the constructor StateBase types', () => {
    const options = { strict: true };
    const { state } = newState(options);
    expect(state).toBeInstanceOf(MarkdownSerializerState);
    expect(state.options).toBe(options);
    expect((state as unknown as { nodes: Nodes; marks: Marks }).nodes).toBe(nodes);
    expect((state as unknown as { nodes: Nodes; marks: Marks }).marks).toBe(marks);
  });

  it('has every field and method of StateInternals, with its initial value', () => {
    const { state, self } = newState();
    // A Record over keyof StateInternals: a member added to the interface must be added here too.
    const initial: Record<keyof StateInternals, unknown> = {
      out: '',
      closed: null,
      atBlockStart: false,
      inAutolink: undefined,
      flushClose: Function,
      atBlank: Function,
      getMark: Function,
    };
    for (const [key, value] of Object.entries(initial)) {
      if (value === Function) {
        expect([key, typeof (MarkdownSerializerState.prototype as unknown as Record<string, unknown>)[key]]).toEqual([key, 'function']);
      } else {
        // An own field set by the constructor, not merely absent (inAutolink starts undefined).
        expect([key, Object.prototype.hasOwnProperty.call(state, key), (self as unknown as Record<string, unknown>)[key]]).toEqual([key, true, value]);
      }
    }
  });

  it('keeps the public methods the subclass overrides or calls', () => {
    for (const method of ['text', 'esc', 'renderInline', 'render', 'renderContent', 'renderList', 'markString', 'write', 'closeBlock', 'ensureNewLine', 'wrapBlock']) {
      expect([method, typeof (MarkdownSerializerState.prototype as unknown as Record<string, unknown>)[method]]).toEqual([method, 'function']);
    }
  });

  it('out is the Markdown written so far; write and ensureNewLine append to it', () => {
    const { state, self } = newState();
    state.write('one');
    expect(self.out).toBe('one');
    state.ensureNewLine();
    state.write('two');
    expect(self.out).toBe('one\ntwo');
    // The subclass rewrites out in place (escaping a `!` before a link, a trailing `#` of a heading).
    self.out = `${self.out.slice(0, -1)}\\#`;
    state.write('!');
    expect(self.out).toBe('one\ntw\\#!');
  });

  it('atBlank tells whether the output is empty or ends a line', () => {
    const { state, self } = newState();
    expect(self.atBlank()).toBe(true);
    state.write('text');
    expect(self.atBlank()).toBe(false);
    state.ensureNewLine();
    expect(self.atBlank()).toBe(true);
  });

  it('closed holds the block closeBlock closed until flushClose(size) ends it with size line breaks', () => {
    const block = paragraph('x');
    for (const [size, expected] of [
      [1, 'a\n'],
      [2, 'a\n\n'],
      [undefined, 'a\n\n'],
    ] as const) {
      const { state, self } = newState();
      state.write('a');
      state.closeBlock(block);
      expect(self.closed).toBe(block);
      self.flushClose(size);
      expect([size, self.out, self.closed]).toEqual([size, expected, null]);
      self.flushClose(2);
      expect(self.out).toBe(expected);
    }
  });

  it('flushClose writes the blank line with the enclosing block prefix, trailing space trimmed', () => {
    const { state, self } = newState();
    state.wrapBlock('> ', null, paragraph(''), () => {
      state.write('quoted');
      state.closeBlock(paragraph('x'));
      self.flushClose(2);
    });
    expect(self.out).toBe('> quoted\n>\n');
  });

  it('getMark returns the mark spec by name, and throws for an unknown mark', () => {
    const { self } = newState();
    expect(self.getMark('em')).toBe(marks['em']);
    expect(() => self.getMark('underline')).toThrow(/underline/);
  });

  it('atBlockStart is what renderInline starts from, what text escapes line starts by, false once done', () => {
    const rendered = (fromBlockStart: boolean): { out: string; after: boolean } => {
      const { state, self } = newState();
      state.renderInline(paragraph('# not a heading'), fromBlockStart);
      return { out: self.out, after: self.atBlockStart };
    };
    expect(rendered(true)).toEqual({ out: '\\# not a heading', after: false });
    expect(rendered(false)).toEqual({ out: '# not a heading', after: false });

    const { state, self } = newState();
    self.atBlockStart = true;
    state.text('+ not a list');
    expect(self.out).toBe('\\+ not a list');
  });

  it('inAutolink is a field a link mark may set and the text writer read, left alone by the state', () => {
    const { state, self } = newState();
    self.inAutolink = true;
    state.write('x');
    state.text('y');
    expect(self.inAutolink).toBe(true);
    self.inAutolink = undefined;
    expect(self.inAutolink).toBeUndefined();
  });

  it('markString calls a mark spec function with (state, mark, parent, index)', () => {
    const { state } = newState();
    const parent = s.node('paragraph', null, [s.text('a'), s.text('b', [s.mark('link', { href: 'https://example.com' })])]);
    expect(state.markString(s.mark('link', { href: 'https://example.com' }), true, parent, 1)).toBe('[');
    expect(linkOpenedWith).toBe('state:link:paragraph:1');
    expect(state.markString(s.mark('em'), false, parent, 1)).toBe('*');
  });
});
