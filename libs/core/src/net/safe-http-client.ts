import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, errors as undiciErrors, request } from 'undici';
import type { OutboundNetworkPolicy } from '../config/app-config.js';
import { AddressPolicy, type NetworkPolicySettings } from './address-policy.js';

export type OutboundFailure = 'refused_address' | 'unsupported_scheme' | 'timeout' | 'too_large' | 'too_many_redirects' | 'network';

/** Why an outbound request did not produce a response. The message is safe to show to the API client. */
export class OutboundRequestError extends Error {
  constructor(
    readonly failure: OutboundFailure,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundRequestError';
  }
}

export interface SafeRequestOptions {
  readonly method?: 'GET' | 'POST';
  readonly headers?: Record<string, string>;
  readonly body?: string | Buffer;
  /** Redirects to follow, each re-checked like the first URL; 0 returns a 3xx as it is. */
  readonly maxRedirects?: number;
  /** Everything: connecting, redirects, headers and body. */
  readonly timeoutMs: number;
  /** Largest body read. */
  readonly maxBytes: number;
  /** 'error' (default) fails on a larger body; 'truncate' keeps its first maxBytes, e.g. for a response excerpt. */
  readonly oversize?: 'error' | 'truncate';
}

export interface SafeResponse {
  /** The URL that answered, after redirects. */
  readonly url: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Buffer;
  readonly truncated: boolean;
}

export interface SafeHttpClientOptions {
  /**
   * The longest a request of this client is given (its requests' timeoutMs): connecting may take 5 s, or this if
   * it is shorter.
   */
  readonly deadlineMs?: number;
  /** Connections kept per origin. */
  readonly connectionsPerOrigin?: number;
  /** The settings the network policy was read from: a refused address names the one that would allow it. */
  readonly settings?: NetworkPolicySettings;
  /** Host name resolution; the system resolver unless a test gives another. */
  readonly resolve?: (hostname: string, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const REFUSED = 'EHC_REFUSED_ADDRESS';

/**
 * Outbound HTTP that cannot be pointed at the service's own network (SSRF): http and https only; the resolved IP is
 * checked and is the one connected to (the check runs inside the socket's lookup, so there is no second DNS
 * answer to rebind); IP literals are checked before connecting; redirects are followed by hand, each hop checked
 * again; one deadline covers the whole exchange and the body is capped while it streams.
 */
export class SafeHttpClient {
  readonly policy: AddressPolicy;
  private readonly agent: Agent;

  constructor(network: OutboundNetworkPolicy, options: SafeHttpClientOptions = {}) {
    this.policy = new AddressPolicy(network, options.settings);
    const resolve = options.resolve ?? ((hostname, callback) => dnsLookup(hostname, { all: true, verbatim: true }, callback));
    this.agent = new Agent({
      connections: options.connectionsPerOrigin ?? 16,
      connect: { timeout: Math.min(5_000, options.deadlineMs ?? 5_000), lookup: guardedLookup(this.policy, resolve) },
    });
  }

  async request(url: string, options: SafeRequestOptions): Promise<SafeResponse> {
    const signal = AbortSignal.timeout(options.timeoutMs);
    let current = url;
    let method = options.method ?? 'GET';
    let body = options.body;
    for (let hop = 0; ; hop++) {
      const target = this.checkUrl(current);
      let response: Awaited<ReturnType<typeof request>>;
      try {
        response = await request(target, {
          dispatcher: this.agent,
          method,
          headers: options.headers,
          body,
          signal,
          headersTimeout: options.timeoutMs,
          bodyTimeout: options.timeoutMs,
        });
      } catch (error) {
        throw this.describe(error, target, signal);
      }
      const location = response.headers['location'];
      if (REDIRECTS.has(response.statusCode) && typeof location === 'string' && (options.maxRedirects ?? 0) > 0) {
        await response.body.dump().catch(() => undefined);
        if (hop >= options.maxRedirects!) throw new OutboundRequestError('too_many_redirects', `more than ${options.maxRedirects} redirects`);
        current = new URL(location, target).toString();
        if (response.statusCode === 303) {
          method = 'GET';
          body = undefined;
        }
        continue;
      }
      try {
        const read = await readCapped(response, options);
        return { url: target.toString(), status: response.statusCode, headers: response.headers, ...read };
      } catch (error) {
        throw this.describe(error, target, signal);
      }
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /** Scheme and, for IP literals (which are connected to without a lookup), the address. */
  private checkUrl(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new OutboundRequestError('unsupported_scheme', 'not an absolute URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new OutboundRequestError('unsupported_scheme', `${url.protocol} URLs are not fetched; only http and https`);
    }
    if (url.username || url.password) throw new OutboundRequestError('unsupported_scheme', 'URLs with credentials are not fetched');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0) {
      const refusal = this.policy.refusal(host);
      if (refusal !== null) throw new OutboundRequestError('refused_address', `refused: ${refusal}`);
    }
    return url;
  }

  private describe(error: unknown, url: URL, signal: AbortSignal): OutboundRequestError {
    if (error instanceof OutboundRequestError) return error;
    const refused = findRefusal(error);
    if (refused) return new OutboundRequestError('refused_address', `refused: ${refused}`);
    if (signal.aborted || error instanceof undiciErrors.ConnectTimeoutError || error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
      return new OutboundRequestError('timeout', `no complete response from ${url.host} in time`);
    }
    const code = (error as NodeJS.ErrnoException)?.code ?? (error as { cause?: NodeJS.ErrnoException })?.cause?.code;
    return new OutboundRequestError('network', `could not reach ${url.host}${code ? ` (${code})` : ''}`);
  }
}

/** A net.connect lookup that resolves once and hands the socket only addresses the policy allows. */
export function guardedLookup(policy: AddressPolicy, resolve: NonNullable<SafeHttpClientOptions['resolve']>): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
      const candidates = family ? addresses.filter((a) => a.family === family) : addresses;
      const allowed = candidates.filter((a) => policy.check(a.address).allowed);
      if (allowed.length === 0) {
        const first = candidates[0];
        const reason = first ? policy.refusal(first.address)! : `${hostname} has no address`;
        const refusal = Object.assign(new Error(`${hostname}: ${reason}`), { code: REFUSED, reason: `${hostname}: ${reason}` });
        return callback(refusal, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      callback(null, allowed[0].address, allowed[0].family);
    });
  };
}

function findRefusal(error: unknown): string | null {
  for (let e = error as { code?: string; reason?: string; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e.code === REFUSED) return e.reason ?? 'address not allowed';
  }
  return null;
}

async function readCapped(
  response: Awaited<ReturnType<typeof request>>,
  options: SafeRequestOptions,
): Promise<{ body: Buffer; truncated: boolean }> {
  const truncate = options.oversize === 'truncate';
  const declared = Number(response.headers['content-length']);
  // Destroying the body makes undici emit an abort error on it: listened to here, or it would crash the process.
  response.body.on('error', () => undefined);
  if (!truncate && Number.isFinite(declared) && declared > options.maxBytes) {
    response.body.destroy();
    throw new OutboundRequestError('too_large', `larger than ${options.maxBytes} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > options.maxBytes) {
      response.body.destroy();
      if (!truncate) throw new OutboundRequestError('too_large', `larger than ${options.maxBytes} bytes`);
      chunks.push(chunk.subarray(0, chunk.length - (size - options.maxBytes)));
      return { body: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(chunk);
  }
  return { body: Buffer.concat(chunks), truncated: false };
}
