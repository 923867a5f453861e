import { type DynamicModule, type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE, DiscoveryModule } from '@nestjs/core';
import { type AppConfig, CoreModule } from '#core';
import {
  AuthGuard,
  createValidationPipe,
  GatewayJobsModule,
  GatewayModule,
  HttpErrorFilter,
  IdempotencyInterceptor,
  JsonBodyMiddleware,
  RateLimitGuard,
  RouteScopesVerifier,
} from '#gateway';
import { AdminJobsModule, AdminModule } from '#admin';
import { ContentJobsModule, ContentModule } from '#content';
import { FeedbackModule } from '#feedback';
import { TasksJobsModule, TasksModule } from '#tasks';
import { WebhooksJobsModule, WebhooksModule } from '#webhooks';
import { MIGRATIONS } from '#migrations';
import { ArticleTranslationsController } from './article-translations/article-translations.controller.js';
import { ArticlesController } from './articles/articles.controller.js';
import { CollectionsController } from './collections/collections.controller.js';
import { HealthController } from './health/health.controller.js';
import { HelpdeskController } from './helpdesk/helpdesk.controller.js';
import { SectionsController } from './sections/sections.controller.js';
import { userImagesController } from './user-images/user-images.controller.js';
import { FeedbackController, HelpCenterUsersController } from './feedback/feedback.controller.js';
import { PublicController } from './feedback/public.controller.js';
import { HelpCenterFeedbackController } from './help-center/help-center-feedback.controller.js';
import { HelpCenterFilesController } from './help-center/help-center-files.controller.js';
import { HelpCenterPagesController } from './help-center/help-center-pages.controller.js';
import { PageCache } from './help-center/page-cache.js';
import { SettingsModule } from './settings/settings.module.js';
import { TasksController } from './tasks/tasks.controller.js';
import { WebhooksController } from './webhooks/webhooks.controller.js';

export interface ApiModuleOptions {
  /** Also run the job processors in this process (embedded `npm start`, or no REDIS_URL). */
  readonly runsJobs: boolean;
}

/** The HTTP API: every controller, the global guards (auth, then rate limit), pipe, filter and idempotency. */
@Module({})
export class ApiModule implements NestModule {
  static forRoot(config: AppConfig, options: ApiModuleOptions): DynamicModule {
    return {
      module: ApiModule,
      imports: [
        DiscoveryModule,
        CoreModule.forRoot(config, { migrations: MIGRATIONS, migrate: true, runsJobs: options.runsJobs }),
        GatewayModule,
        ContentModule,
        WebhooksModule,
        TasksModule,
        FeedbackModule,
        // The developer settings' pages under /settings (apps/api/src/settings).
        SettingsModule,
        AdminModule,
        // The same job processors as the worker (apps/worker/src/worker.module.ts).
        ...(options.runsJobs ? [GatewayJobsModule, ContentJobsModule, TasksJobsModule, WebhooksJobsModule, AdminJobsModule] : []),
      ],
      // ArticleTranslationsController before ArticlesController: /articles/search and
      // /articles/translations/missing must be matched before /articles/:id.
      controllers: [
        HealthController,
        userImagesController(config.http.staticUrl),
        HelpdeskController,
        SectionsController,
        CollectionsController,
        ArticleTranslationsController,
        ArticlesController,
        WebhooksController,
        TasksController,
        FeedbackController,
        HelpCenterUsersController,
        PublicController,
        // The public help center at the root, after every API route: its language-prefixed paths (`/:lang/…`) pass
        // any first segment that is not a language code (`/v1/…`) on to the routes above and the JSON 404.
        HelpCenterFilesController,
        HelpCenterFeedbackController,
        HelpCenterPagesController,
      ],
      providers: [
        RouteScopesVerifier,
        { provide: PageCache, useFactory: () => new PageCache(config.http.pageCacheBytes) },
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_PIPE, useFactory: createValidationPipe },
        { provide: APP_FILTER, useClass: HttpErrorFilter },
        { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(JsonBodyMiddleware).forRoutes('*path');
  }
}
