import { createHmac, timingSafeEqual } from 'node:crypto';
import { InvalidCursorError } from '../errors/domain-error.js';

/** The ordering a cursor continues. Carried inside the cursor so later pages need only `start_cursor`. */
export type KeysetMode = 'created_desc' | 'updated_asc' | 'updated_desc' | 'position_asc' | 'rank_desc';

/** Position after the last row of a page: the sort value (ISO timestamp or number) and the row ID. */
export interface CursorPosition {
  readonly mode: KeysetMode;
  readonly value: string | number;
  readonly id: string;
}

interface CursorPayload {
  /** list the cursor belongs to, e.g. "collections" */
  l: string;
  m: KeysetMode;
  v: string | number;
  i: string;
}

const MODES: ReadonlySet<string> = new Set<KeysetMode>(['created_desc', 'updated_asc', 'updated_desc', 'position_asc', 'rank_desc']);

/**
 * Opaque, tamper-proof cursors: base64url(JSON) + "." + base64url(HMAC-SHA256 with APP_SECRET).
 * A cursor from another list, or one whose bytes were changed, is rejected with `invalid_cursor`.
 */
export class CursorCodec {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHmac('sha256', 'help-center-cursor').update(secret).digest();
  }

  encode(list: string, position: CursorPosition): string {
    const payload: CursorPayload = { l: list, m: position.mode, v: position.value, i: position.id };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  decode(list: string, cursor: string): CursorPosition {
    const [body, signature, ...rest] = cursor.split('.');
    if (!body || !signature || rest.length > 0 || cursor.length > 1024) throw new InvalidCursorError();
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new InvalidCursorError();
    let payload: CursorPayload;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as CursorPayload;
    } catch {
      throw new InvalidCursorError();
    }
    if (typeof payload !== 'object' || payload === null) throw new InvalidCursorError();
    if (payload.l !== list) throw new InvalidCursorError('start_cursor belongs to a different list');
    if (!MODES.has(payload.m) || typeof payload.i !== 'string' || !['string', 'number'].includes(typeof payload.v)) {
      throw new InvalidCursorError();
    }
    return { mode: payload.m, value: payload.v, id: payload.i };
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
