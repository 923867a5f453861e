import type { IncomingHttpHeaders, ServerResponse } from 'node:http';

/** What a stand-in server answers. `hang: true` never answers (the connection stays open until the client gives up). */
export interface Reply {
  readonly status?: number;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  readonly hang?: boolean;
}

/** A fixed reply, or one computed per request (may wait: the client waits with it). */
export type Responder<Request> = Reply | ((request: Request) => Reply | Promise<Reply>);

/** The reply of `responder` to `request`; `failed` makes the reply when the responder throws. */
export async function replyOf<Request>(responder: Responder<Request>, request: Request, failed: (error: Error) => Reply): Promise<Reply> {
  try {
    return typeof responder === 'function' ? await responder(request) : responder;
  } catch (error) {
    return failed(error as Error);
  }
}

/** Writes a reply that is not a hang: its status (200 by default), headers, body and Content-Length. */
export function send(res: ServerResponse, reply: Reply): void {
  const body = reply.body ?? '';
  res.writeHead(reply.status ?? 200, { 'content-length': String(Buffer.byteLength(body)), ...reply.headers });
  res.end(body);
}

/** A request target's path, without its query. */
export function pathOf(target: string): string {
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}

/** A request header as a single string (the first value of a repeated one). */
export function headerOf(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
