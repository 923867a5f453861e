import { Module } from '@nestjs/common';
import { AdminModule } from '#admin';
import { GatewayModule } from '#gateway';
import { WebhooksModule } from '#webhooks';
import { SettingsAdminsController } from './settings-admins.controller.js';
import { SettingsFilesController } from './settings-assets.controller.js';
import { SettingsAuthController } from './settings-auth.controller.js';
import { SettingsErrorFilter } from './settings-error.filter.js';
import { SettingsKeysController } from './settings-keys.controller.js';
import { SettingsPages } from './settings-pages.js';
import { SettingsWebhooksController } from './settings-webhooks.controller.js';
import { SettingsGuard } from './settings.guard.js';

/**
 * The developer settings under /settings: server-rendered pages for signed-in admins, one more adapter beside the
 * JSON API over the use cases of libs/admin, libs/gateway (API keys) and libs/webhooks. The files controller's
 * catch-all 404 comes last.
 */
@Module({
  imports: [AdminModule, GatewayModule, WebhooksModule],
  controllers: [SettingsAuthController, SettingsKeysController, SettingsWebhooksController, SettingsAdminsController, SettingsFilesController],
  providers: [SettingsPages, SettingsGuard, SettingsErrorFilter],
})
export class SettingsModule {}
