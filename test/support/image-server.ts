import type { Response } from 'supertest';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';

/** A 1x1 PNG. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
/** A 1x1 baseline JPEG. */
export const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);
/** A 1x1 transparent GIF. */
export const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
/** A 1x1 lossless WebP. */
export const WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');
/** Not an image, whatever a header says. */
export const HTML = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');
export const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(1)</script></svg>');

/**
 * A PNG of its own: the 1x1 PNG with a tEXt chunk carrying `label` before IEND, so every label gives different
 * (and still well-formed) bytes, hence a different content hash.
 */
export function uniquePng(label: string): Buffer {
  const iend = PNG.length - 12;
  const type = Buffer.from('tEXt', 'latin1');
  const data = Buffer.from(`Comment\0${label}`, 'latin1');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([type, data])));
  return Buffer.concat([PNG.subarray(0, iend), length, type, data, crc, PNG.subarray(iend)]);
}

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The stored asset path of some bytes: `/user-images/<sha256>.<ext>`. */
export function assetPathOf(bytes: Buffer, extension: 'png' | 'jpg' | 'gif' | 'webp'): string {
  return `/user-images/${sha256(bytes)}.${extension}`;
}

export function dataUrl(bytes: Buffer, type = 'image/png'): string {
  return `data:${type};base64,${bytes.toString('base64')}`;
}

export interface ImageServerOptions {
  /** Size of the body of `/oversized` and `/oversized-declared`; make it larger than the app's IMAGE_MAX_BYTES. */
  readonly oversizedBytes?: number;
}

export interface ImageServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /**
   * How many requests reached `path` (the request target as sent, query included).
   * Fixed routes:
   * - `/png`, `/jpeg`, `/gif`, `/webp`: the images above, with their content type (any query string is ignored)
   * - `/html-as-png`: HTML with `Content-Type: image/png`; `/svg`: SVG with `image/svg+xml`
   * - `/missing`: 404; `/server-error`: 500
   * - `/slow`: never answers; `/slow-body`: headers and the PNG signature, then nothing more
   * - `/oversized`: a PNG-looking body streamed in chunks without Content-Length; `/oversized-declared`: the same with it
   * - `/redirect/png` (relative, to `/png`), `/redirect/jpeg` (absolute, to `/jpeg`), `/redirect/loop` (to itself),
   *   `/redirect/127.0.0.2`, `/redirect/ipv6-loopback` (`[::1]`), `/redirect/localhost`, `/redirect/metadata`
   *   (`169.254.169.254/latest/meta-data/`): each to this server's port on that host
   */
  hits(path: string): number;
  /** Serves `body` at `path` (exact request target) with `contentType`, until the server closes. */
  serve(path: string, body: Buffer, contentType?: string): string;
  close(): Promise<void>;
}

/** A small origin for remote images on 127.0.0.1 (start the app with IMAGE_ALLOWED_NETWORKS=127.0.0.1/32). */
export async function startImageServer(options: ImageServerOptions = {}): Promise<ImageServer> {
  const oversizedBytes = options.oversizedBytes ?? 1024 * 1024;
  const hits = new Map<string, number>();
  const served = new Map<string, { body: Buffer; contentType: string }>();
  let port = 0;

  const send = (res: ServerResponse, status: number, body: Buffer, contentType: string): void => {
    res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': String(body.length) });
    res.end(body);
  };
  const redirect = (res: ServerResponse, location: string, status = 302): void => {
    res.writeHead(status, { Location: location, 'Content-Length': '0' });
    res.end();
  };
  const stream = (res: ServerResponse, declareLength: boolean): void => {
    // The client hangs up once it has read enough; what is still being written then fails harmlessly.
    res.on('error', () => undefined);
    res.writeHead(200, { 'Content-Type': 'image/png', ...(declareLength ? { 'Content-Length': String(oversizedBytes) } : {}) });
    const chunk = Buffer.alloc(16 * 1024, 0x41);
    let sent = 0;
    const pump = (): void => {
      while (sent < oversizedBytes) {
        const size = Math.min(chunk.length, oversizedBytes - sent);
        const piece = sent === 0 ? Buffer.concat([PNG.subarray(0, 8), chunk.subarray(8, size)]) : chunk.subarray(0, size);
        sent += size;
        if (res.destroyed) return;
        if (!res.write(piece)) {
          res.once('drain', pump);
          return;
        }
      }
      res.end();
    };
    pump();
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const target = req.url ?? '/';
    hits.set(target, (hits.get(target) ?? 0) + 1);
    const own = served.get(target);
    if (own) return send(res, 200, own.body, own.contentType);
    const path = target.split('?')[0];
    switch (path) {
      case '/png':
        return send(res, 200, PNG, 'image/png');
      case '/jpeg':
        return send(res, 200, JPEG, 'image/jpeg');
      case '/gif':
        return send(res, 200, GIF, 'image/gif');
      case '/webp':
        return send(res, 200, WEBP, 'image/webp');
      case '/html-as-png':
        return send(res, 200, HTML, 'image/png');
      case '/svg':
        return send(res, 200, SVG, 'image/svg+xml');
      case '/missing':
        return send(res, 404, Buffer.from('not found'), 'text/plain');
      case '/server-error':
        return send(res, 500, PNG, 'image/png');
      case '/slow':
        return; // Never answers; the connection is closed with the server.
      case '/slow-body':
        res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': String(PNG.length) });
        res.write(PNG.subarray(0, 8));
        return;
      case '/oversized':
        return stream(res, false);
      case '/oversized-declared':
        return stream(res, true);
      case '/redirect/png':
        return redirect(res, '/png');
      case '/redirect/jpeg':
        return redirect(res, `http://127.0.0.1:${port}/jpeg`, 301);
      case '/redirect/loop':
        return redirect(res, '/redirect/loop');
      case '/redirect/127.0.0.2':
        return redirect(res, `http://127.0.0.2:${port}/png`);
      case '/redirect/ipv6-loopback':
        return redirect(res, `http://[::1]:${port}/png`);
      case '/redirect/localhost':
        return redirect(res, `http://localhost:${port}/png`);
      case '/redirect/metadata':
        return redirect(res, 'http://169.254.169.254/latest/meta-data/');
      default:
        return send(res, 404, Buffer.from('no such route'), 'text/plain');
    }
  };

  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    port,
    hits: (path) => hits.get(path) ?? 0,
    serve(path, body, contentType = 'image/png') {
      served.set(path, { body, contentType });
      return `${url}${path}`;
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** Every image src of a stored document, in document order. */
export function srcsOf(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(srcsOf);
  if (node === null || typeof node !== 'object') return [];
  const { type, attrs, content } = node as { type?: string; attrs?: { src?: string }; content?: unknown };
  return [...(type === 'image' && attrs?.src !== undefined ? [attrs.src] : []), ...srcsOf(content ?? [])];
}

/** A body parser that keeps the raw bytes of any response. */
export function binary(res: Response, callback: (error: Error | null, body: Buffer) => void): void {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => callback(null, Buffer.concat(chunks)));
}
