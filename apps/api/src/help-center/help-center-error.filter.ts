import { type ArgumentsHost, Catch, type ExceptionFilter, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DomainError, HttpConfig, NotFoundError, RateLimitedError, ValidationError } from '#core';
import { GetHelpCenterShellUseCase, type SiteBranding, type SiteLocale } from '#content';
import { contentSecurityPolicy, sendErrorPage } from './page-response.js';
import { isLanguageSegment } from './site-routes.js';
import type { ErrorKind } from './views/error-view.js';
import { pageContext } from './views/page-context.js';
import { renderPage } from './views/pages.js';

/** What a page shows when even the helpdesk cannot be read (the database is down). */
const FALLBACK_SHELL: { branding: SiteBranding; locale: SiteLocale } = {
  branding: { name: 'Help Center', logoUrl: null, accentColor: null, footerLinks: [] },
  locale: { requested: 'en', defaultLanguage: 'en', languages: ['en'] },
};

function classify(exception: unknown): { status: number; kind: ErrorKind; retryAfterSeconds?: number } {
  if (exception instanceof NotFoundError) return { status: 404, kind: 'not_found' };
  if (exception instanceof RateLimitedError) return { status: 429, kind: 'rate_limited', retryAfterSeconds: exception.retryAfterSeconds };
  if (exception instanceof ValidationError) return { status: 400, kind: 'invalid' };
  if (exception instanceof DomainError && exception.code === 'not_found') return { status: 404, kind: 'not_found' };
  return { status: 500, kind: 'error' };
}

/**
 * The help center's errors as pages, in the reader's language and the helpdesk's branding, never as JSON: not found
 * (unknown, draft and trashed alike) 404, too many feedback posts 429 with Retry-After, a form that cannot be used
 * 400, anything else a 500 page without details (the fault is logged with its stack, as the API's filter does).
 */
@Catch()
@Injectable()
export class HelpCenterErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HelpCenterErrorFilter');
  private readonly csp: string;

  constructor(
    private readonly shell: GetHelpCenterShellUseCase,
    private readonly http: HttpConfig,
  ) {
    this.csp = contentSecurityPolicy(http.staticUrl);
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<Request>();
    const response = host.switchToHttp().getResponse<Response>();
    const { status, kind, retryAfterSeconds } = classify(exception);
    if (status === 500) {
      const error = exception instanceof Error ? exception : new Error(String(exception));
      this.logger.error(`help center page ${request.method} ${request.originalUrl}: ${error.message}`, error.stack);
    }
    if (response.headersSent) {
      response.end();
      return;
    }
    void this.respond(request, response, status, kind, retryAfterSeconds);
  }

  /** Sends the error page in the request's language; never throws. */
  async respond(request: Request, response: Response, status: number, kind: ErrorKind, retryAfterSeconds?: number): Promise<void> {
    const shell = await this.shellFor(request.params?.['lang']);
    if (response.headersSent) return;
    const context = pageContext(shell.branding, shell.locale, this.http.publicUrl);
    if (retryAfterSeconds !== undefined) response.setHeader('Retry-After', String(retryAfterSeconds));
    sendErrorPage(response, status, renderPage.error(context, kind, { retryAfterSeconds, back: backToArticle(request, context.urls.article.bind(context.urls)) }), this.csp);
  }

  /** Branding and languages for an error page: in the asked language if it is enabled, else the default one. */
  private async shellFor(language: unknown): Promise<{ branding: SiteBranding; locale: SiteLocale }> {
    const asked = typeof language === 'string' && isLanguageSegment(language) ? language : undefined;
    try {
      return await this.shell.execute(asked);
    } catch (error) {
      if (asked !== undefined && error instanceof NotFoundError) return this.shellFor(undefined);
      if (!(error instanceof NotFoundError)) this.logger.warn(`help center error page without branding: ${error instanceof Error ? error.message : String(error)}`);
      return FALLBACK_SHELL;
    }
  }
}

/** On a refused feedback post, the way back to the article it was about. */
function backToArticle(request: Request, articlePath: (slug: string) => string): string | undefined {
  const slug = request.params?.['slug'];
  return request.method === 'POST' && typeof slug === 'string' ? `${articlePath(slug)}#feedback` : undefined;
}
