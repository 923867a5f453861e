// The `:::name{key="value" …}` line that opens a container directive, shared by parser and serializer.

export interface DirectiveHead {
  name: string;
  attrs: Record<string, string>;
}

const NAME = /[A-Za-z][\w-]*/y;
const KEY = /[A-Za-z][\w-]*/y;
const SPACE = /[ \t]*/y;

function skip(re: RegExp, text: string, pos: number): number {
  re.lastIndex = pos;
  return re.test(text) ? re.lastIndex : pos;
}

function match(re: RegExp, text: string, pos: number): string | null {
  re.lastIndex = pos;
  const m = re.exec(text);
  return m ? m[0] : null;
}

/**
 * Parses what follows the colons of an opening fence: a name, then optionally `{key="value" …}` with
 * `\"` and `\\` escapes. Anything else (missing quote, stray text, unclosed brace) is not a directive:
 * null, and markdown-it then reads the line as ordinary text.
 */
export function parseDirectiveHead(params: string): DirectiveHead | null {
  let pos = skip(SPACE, params, 0);
  const name = match(NAME, params, pos);
  if (name === null) return null;
  pos = skip(SPACE, params, pos + name.length);
  const attrs: Record<string, string> = Object.create(null) as Record<string, string>;
  if (params[pos] === '{') {
    pos++;
    for (;;) {
      pos = skip(SPACE, params, pos);
      if (params[pos] === '}') {
        pos++;
        break;
      }
      const key = match(KEY, params, pos);
      if (key === null) return null;
      pos += key.length;
      if (params[pos] !== '=' || params[pos + 1] !== '"') return null;
      pos += 2;
      let value = '';
      for (;;) {
        const ch = params[pos];
        if (ch === undefined) return null;
        pos++;
        if (ch === '"') break;
        if (ch === '\\' && pos < params.length) {
          value += params[pos];
          pos++;
        } else {
          value += ch;
        }
      }
      attrs[key] = value;
    }
    pos = skip(SPACE, params, pos);
  }
  return pos === params.length ? { name, attrs } : null;
}

function quote(value: string): string {
  // The head is a single line: a line break in a title has no escape, so it becomes a space.
  return `"${value.replace(/\r\n?|\n/g, ' ').replace(/[\\"]/g, '\\$&')}"`;
}

export function formatDirectiveHead(name: string, attrs: ReadonlyArray<readonly [string, string | null | undefined]>): string {
  const parts = attrs.filter((entry): entry is readonly [string, string] => typeof entry[1] === 'string').map(([key, value]) => `${key}=${quote(value)}`);
  return parts.length ? `${name}{${parts.join(' ')}}` : name;
}
