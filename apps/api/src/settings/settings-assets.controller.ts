import { Get, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { sendStaticAsset } from '../common/html/static-assets.js';
import { SettingsController } from './controllers.js';
import { NoSession } from './settings.guard.js';
import { settingsAsset } from './settings-assets.js';
import { SettingsPages } from './settings-pages.js';
import { renderSettings } from './views/pages.js';

/**
 * The settings' stylesheet and script under hashed, immutable names, and a 404 page for any other path under
 * /settings (registered last, so every other settings route is matched first).
 */
@SettingsController()
export class SettingsFilesController {
  constructor(private readonly pages: SettingsPages) {}

  @Get('assets/:name')
  @NoSession()
  asset(@Param('name') name: string, @Req() request: Request, @Res() response: Response): void {
    sendStaticAsset(request, response, settingsAsset(name));
  }

  @Get('*rest')
  @NoSession()
  notFound(@Res() response: Response): void {
    this.pages.send(response, 404, renderSettings.error({ urls: this.pages.urls, admin: null, csrfToken: '' }, { title: 'Not found', message: 'There is no such page in the developer settings.' }));
  }
}
