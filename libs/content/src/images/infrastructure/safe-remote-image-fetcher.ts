import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { IMAGE_NETWORK_SETTINGS, ImageConfig, OutboundRequestError, SafeHttpClient } from '#core';
import { ImageUnavailableError, RemoteImageFetcher } from '../application/remote-image-fetcher.port.js';

const MAX_REDIRECTS = 3;
const ACCEPT = 'image/avif,image/webp,image/png,image/jpeg,image/gif;q=0.9,*/*;q=0.1';

/**
 * Remote images over the SSRF-safe client, with the IMAGE_* network policy, size cap and deadline. A refused
 * address names the setting that would allow it (IMAGE_ALLOW_PRIVATE_NETWORKS, IMAGE_ALLOWED_NETWORKS).
 */
@Injectable()
export class SafeRemoteImageFetcher extends RemoteImageFetcher implements OnApplicationShutdown {
  private readonly client: SafeHttpClient;

  constructor(private readonly images: ImageConfig) {
    super();
    this.client = new SafeHttpClient(images.network, { deadlineMs: images.fetchTimeoutMs, connectionsPerOrigin: 4, settings: IMAGE_NETWORK_SETTINGS });
  }

  async fetch(url: string, maxBytes: number): Promise<Buffer> {
    try {
      const response = await this.client.request(url, {
        headers: { accept: ACCEPT, 'user-agent': 'HelpCenter-ImageFetcher/1.0' },
        maxRedirects: MAX_REDIRECTS,
        timeoutMs: this.images.fetchTimeoutMs,
        maxBytes,
      });
      if (response.status < 200 || response.status > 299) throw new ImageUnavailableError(`answered HTTP ${response.status}`);
      return response.body;
    } catch (error) {
      if (error instanceof OutboundRequestError) throw new ImageUnavailableError(error.message);
      throw error;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }
}
