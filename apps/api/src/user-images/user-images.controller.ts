import { pipeline } from 'node:stream/promises';
import { Controller, Get, Headers, Param, Res, type Type } from '@nestjs/common';
import { ApiHeader, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { IMMUTABLE_CACHE_CONTROL } from '#core';
import { Public } from '#gateway';
import { GetUserImageUseCase } from '#content';
import { ErrorResponse } from '../common/error.response.js';
import { ifNoneMatchMatches } from '../common/if-match.js';

/**
 * Article images as readers' browsers load them, at `{STATIC_URL}/user-images/<sha256>.<ext>`; outside /v1 and
 * without a key. The bytes come from the storage driver (local disk or S3), so the URL works with either; a CDN
 * or the bucket itself can serve STATIC_URL instead.
 */
const IMAGE_HEADERS = {
  ETag: { $ref: '#/components/headers/ETag' },
  'Cache-Control': { description: 'public, max-age=31536000, immutable', required: true, schema: { type: 'string' } },
  'X-Content-Type-Options': { description: 'nosniff', required: true, schema: { type: 'string' } },
  'Content-Security-Policy': { description: "default-src 'none'; sandbox", required: true, schema: { type: 'string' } },
};

@ApiTags('Images')
export class UserImagesController {
  constructor(private readonly images: GetUserImageUseCase) {}

  @Get(':name')
  @Public()
  @ApiOperation({
    summary: 'Get an article image',
    description:
      'Images uploaded from article bodies, named by the SHA-256 of their bytes. Immutable: served with a one-year cache, a strong ETag and `X-Content-Type-Options: nosniff`. No key needed.',
  })
  @ApiParam({ name: 'name', example: `${'0'.repeat(64)}.png` })
  @ApiHeader({ name: 'If-None-Match', required: false, description: 'The ETag of an earlier response: 304 when it still matches (it always does: images never change)' })
  @ApiOkResponse({
    description: 'The image bytes.',
    headers: IMAGE_HEADERS,
    content: Object.fromEntries(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'].map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
  })
  @ApiResponse({ status: 304, description: 'Not modified: If-None-Match matched', headers: IMAGE_HEADERS })
  @ApiNotFoundResponse({ type: ErrorResponse })
  async get(@Param('name') name: string, @Headers('if-none-match') ifNoneMatch: string | undefined, @Res() response: Response): Promise<void> {
    const image = await this.images.execute(name);
    const etag = `"${image.sha256}"`;
    response.setHeader('Content-Type', image.contentType);
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    response.setHeader('Cache-Control', IMMUTABLE_CACHE_CONTROL);
    response.setHeader('ETag', etag);
    if (ifNoneMatchMatches(ifNoneMatch, etag)) {
      image.body.destroy();
      response.status(304).end();
      return;
    }
    response.setHeader('Content-Length', String(image.size));
    await pipeline(image.body, response);
  }
}

/** The path images are served under: STATIC_URL's path (`/static` by default) plus `/user-images`. */
export function userImagesPath(staticUrl: string): string {
  return `${new URL(staticUrl).pathname.replace(/\/+$/, '')}/user-images`.replace(/^\//, '');
}

/** The controller mounted at this deployment's static path (a subclass per app, so two apps never share it). */
export function userImagesController(staticUrl: string): Type<UserImagesController> {
  class MountedUserImagesController extends UserImagesController {}
  Controller(userImagesPath(staticUrl))(MountedUserImagesController);
  return MountedUserImagesController;
}
