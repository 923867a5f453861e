import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { OutboundRequestError, SafeHttpClient, ValidationError, WebhookConfig, WEBHOOK_NETWORK_SETTINGS } from '#core';
import { RESPONSE_EXCERPT_BYTES } from '../domain/webhook-delivery.js';
import { type SendResult, WebhookSender, WebhookUrlPolicy } from '../application/webhook-sender.port.js';

/** POSTs over the SSRF-safe client with the WEBHOOK_* network policy; redirects are not followed (they are failures). */
@Injectable()
export class SafeWebhookSender extends WebhookSender implements OnApplicationShutdown {
  readonly client: SafeHttpClient;

  constructor(private readonly config: WebhookConfig) {
    super();
    // 100 connections per origin, not per endpoint: many endpoints may share one host (EndpointSlots caps each endpoint).
    this.client = new SafeHttpClient(config.network, { deadlineMs: config.timeoutMs, connectionsPerOrigin: 100, settings: WEBHOOK_NETWORK_SETTINGS });
  }

  async post(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    if (!this.config.allowHttp && url.startsWith('http:')) {
      return { status: null, retryAfter: undefined, excerpt: null, error: 'http URLs are not allowed (WEBHOOK_ALLOW_HTTP)', durationMs: 0 };
    }
    try {
      const response = await this.client.request(url, {
        method: 'POST',
        headers: { ...headers, 'user-agent': 'HelpCenter-Webhooks/1.0' },
        body,
        maxRedirects: 0,
        timeoutMs: this.config.timeoutMs,
        maxBytes: RESPONSE_EXCERPT_BYTES,
        oversize: 'truncate',
      });
      const retryAfter = response.headers['retry-after'];
      return {
        status: response.status,
        retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
        // A multi-byte character cut at the 1 KiB limit would decode as U+FFFD: dropped.
        excerpt: response.body.length > 0 ? response.body.toString('utf8').replace(response.truncated ? /\uFFFD$/ : /$^/, '') : null,
        error: null,
        durationMs: elapsed(),
      };
    } catch (error) {
      if (error instanceof OutboundRequestError) return { status: null, retryAfter: undefined, excerpt: null, error: error.message, durationMs: elapsed() };
      throw error;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }
}

/**
 * An endpoint URL must be https (http with WEBHOOK_ALLOW_HTTP) and must not point at a private, loopback or
 * metadata address (WEBHOOK_ALLOW_PRIVATE_NETWORKS / WEBHOOK_ALLOWED_NETWORKS). Host names are resolved now to
 * catch the obvious cases; every delivery checks the address it connects to again.
 */
@Injectable()
export class CheckedWebhookUrlPolicy extends WebhookUrlPolicy {
  constructor(
    private readonly config: WebhookConfig,
    private readonly sender: SafeWebhookSender,
  ) {
    super();
  }

  async check(raw: string, field = 'url'): Promise<string> {
    const url = URL.canParse(raw) ? new URL(raw) : null;
    if (!url) throw ValidationError.field(field, 'url must be an absolute URL');
    const schemes = this.config.allowHttp ? ['https:', 'http:'] : ['https:'];
    if (!schemes.includes(url.protocol)) {
      throw ValidationError.field(field, this.config.allowHttp ? 'url must use https or http' : 'url must use https (http only with WEBHOOK_ALLOW_HTTP=true)');
    }
    if (url.username || url.password) throw ValidationError.field(field, 'url must not carry credentials');
    if (url.hash) throw ValidationError.field(field, 'url must not have a fragment');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const addresses = isIP(host) ? [host] : await lookup(host, { all: true, verbatim: true }).then((list) => list.map((a) => a.address), () => []);
    for (const address of addresses) {
      const refusal = this.sender.client.policy.refusal(address);
      if (refusal !== null) throw ValidationError.field(field, `url points at a non-public address: ${refusal}`);
    }
    return url.toString();
  }
}
