import { unstorableTextReason, ValidationError } from '#core/domain';
import { Node } from 'prosemirror-model';
import { contentSchema } from './schema.js';

/**
 * Deeper content would be cut by markdown-it (which stops at 100 token levels) on the Markdown round
 * trip, and recursion in every converter grows with it. Real articles stay far below.
 */
export const MAX_CONTENT_DEPTH = 48;

const NODE_KEYS = new Set(['type', 'attrs', 'content', 'marks', 'text']);
const MARK_KEYS = new Set(['type', 'attrs']);

class ShapeError extends Error {}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Text the document stores (jsonb) must be storable: no NUL, no unpaired surrogate. */
function checkText(value: unknown, what: string, path: string): void {
  const reason = typeof value === 'string' ? unstorableTextReason(value) : null;
  if (reason) throw new ShapeError(`${what} ${reason} at ${path}`);
}

function checkAttrs(attrs: unknown, known: Record<string, unknown> | undefined, kind: string, path: string): void {
  if (attrs === undefined) return;
  if (!isObject(attrs)) throw new ShapeError(`attrs of ${kind} must be an object at ${path}`);
  for (const [key, value] of Object.entries(attrs)) {
    // ProseMirror would silently drop an attribute its schema does not declare; stored JSON must be lossless.
    if (!known || !Object.hasOwn(known, key)) throw new ShapeError(`Unsupported attribute ${key} for ${kind} at ${path}`);
    checkText(value, `attribute ${key} of ${kind}`, path);
  }
}

/**
 * What Node.fromJSON leaves unchecked or reports without a location: stray keys, wrong container types,
 * unknown attributes, depth. Type names, content and attribute values are left to ProseMirror.
 */
function checkShape(json: unknown, path: string, depth: number): void {
  if (!isObject(json)) throw new ShapeError(`expected a node object at ${path}`);
  if (depth > MAX_CONTENT_DEPTH) throw new ShapeError(`content nests deeper than ${MAX_CONTENT_DEPTH} levels at ${path}`);
  for (const key of Object.keys(json)) {
    if (!NODE_KEYS.has(key)) throw new ShapeError(`unexpected key ${key} at ${path}`);
  }
  const type = json['type'];
  if (typeof type !== 'string') throw new ShapeError(`node type must be a string at ${path}`);
  const nodeType = Object.hasOwn(contentSchema.nodes, type) ? contentSchema.nodes[type] : undefined;
  if (!nodeType) throw new ShapeError(`Unknown node type: ${type} at ${path}`);
  checkAttrs(json['attrs'], nodeType.spec.attrs, `node ${type}`, path);
  if (type === 'text') {
    if (typeof json['text'] !== 'string' || json['text'] === '') throw new ShapeError(`text node needs a non-empty text at ${path}`);
    checkText(json['text'], 'text', path);
    if (json['content'] !== undefined) throw new ShapeError(`text node cannot have content at ${path}`);
  } else if (json['text'] !== undefined) {
    throw new ShapeError(`only text nodes have text at ${path}`);
  }
  const marks = json['marks'];
  if (marks !== undefined) {
    if (!Array.isArray(marks)) throw new ShapeError(`marks must be an array at ${path}`);
    marks.forEach((mark: unknown, i) => {
      const markPath = `${path}.marks[${i}]`;
      if (!isObject(mark) || typeof mark['type'] !== 'string') throw new ShapeError(`expected a mark object with a type at ${markPath}`);
      for (const key of Object.keys(mark)) {
        if (!MARK_KEYS.has(key)) throw new ShapeError(`unexpected key ${key} at ${markPath}`);
      }
      const markType = Object.hasOwn(contentSchema.marks, mark['type']) ? contentSchema.marks[mark['type']] : undefined;
      if (!markType) throw new ShapeError(`Unknown mark type: ${mark['type']} at ${markPath}`);
      checkAttrs(mark['attrs'], markType.spec.attrs, `mark ${mark['type']}`, markPath);
    });
  }
  const content = json['content'];
  if (content !== undefined) {
    if (!Array.isArray(content)) throw new ShapeError(`content must be an array at ${path}`);
    content.forEach((child: unknown, i) => checkShape(child, `${path}.content[${i}]`, depth + 1));
  }
}

function invalid(reason: string): ValidationError {
  return ValidationError.field('content', `content is not a valid document: ${reason}`);
}

/**
 * Stored ProseMirror JSON to a document. Rejects, with the reason, anything that is not a `doc` of the
 * content schema: unknown node or mark types, invalid nesting, unknown attributes and attribute values of
 * the wrong type or out of range (checked by the schema's attribute validators).
 */
export function fromJson(json: unknown): Node {
  if (!isObject(json)) throw invalid('expected a JSON object');
  if (json['type'] !== 'doc') throw invalid(`the top node must be a doc, got ${typeof json['type'] === 'string' ? json['type'] : String(json['type'])}`);
  try {
    checkShape(json, 'content', 0);
    const doc = Node.fromJSON(contentSchema, json);
    doc.check();
    return doc;
  } catch (error) {
    if (error instanceof ShapeError || error instanceof RangeError || error instanceof TypeError) throw invalid(error.message);
    throw error;
  }
}
