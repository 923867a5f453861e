/** Why a remote image could not be used; the message is shown to the API client. */
export class ImageUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageUnavailableError';
  }
}

/** Downloads the bytes of a remote image, refusing anything unsafe to fetch (see SafeHttpClient). */
export abstract class RemoteImageFetcher {
  /** The body of a 2xx answer, at most `maxBytes` long; ImageUnavailableError otherwise. */
  abstract fetch(url: string, maxBytes: number): Promise<Buffer>;
}
