import { Controller, Next, Param, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import express, { type NextFunction, type Request, type Response } from 'express';
import { HttpConfig, unstorableTextError, ValidationError } from '#core';
import { Public, RateLimit } from '#gateway';
import { FEEDBACK_TYPES, type FeedbackType, SubmitFeedbackUseCase } from '#feedback';
import { HelpCenterErrorFilter } from './help-center-error.filter.js';
import { isSiteLanguage } from './help-center-pages.controller.js';
import { SITE_PATHS } from './site-routes.js';
import { EMPTY_FEEDBACK_COMMENT } from './views/article-view.js';

/** The form is a comment (at most 5,000 characters), an email, yes or no and the article: 16 KiB is plenty. */
export const MAX_FORM_BYTES = 16 * 1024;
const FORM_TYPE = 'application/x-www-form-urlencoded';
const parseForm = express.urlencoded({ extended: false, limit: MAX_FORM_BYTES, parameterLimit: 16, type: FORM_TYPE });

/** The posted form's fields as text (a repeated field counts once); too large, malformed or unstorable text is 400. */
async function readForm(request: Request, response: Response): Promise<Record<string, string>> {
  if (!request.is(FORM_TYPE)) throw new ValidationError(`The feedback form is posted as ${FORM_TYPE}`);
  await new Promise<void>((resolve, reject) =>
    parseForm(request, response, (error?: unknown) => {
      if (!error) return resolve();
      const type = (error as { type?: string }).type;
      reject(new ValidationError(type === 'entity.too.large' ? `The form exceeds ${MAX_FORM_BYTES} bytes` : 'The form could not be read'));
    }),
  );
  const body = (request.body ?? {}) as Record<string, unknown>;
  const unstorable = unstorableTextError(body);
  if (unstorable) throw unstorable;
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) {
    const text = Array.isArray(value) ? value[0] : value;
    if (typeof text === 'string') fields[name] = text;
  }
  return fields;
}

function feedbackType(value: string | undefined): FeedbackType {
  if (!FEEDBACK_TYPES.includes(value as FeedbackType)) throw ValidationError.field('type', `type must be one of ${FEEDBACK_TYPES.join(', ')}`);
  return value as FeedbackType;
}

/**
 * The article page's feedback form without JavaScript: a plain urlencoded POST, stored through the same public
 * feedback use case and per-IP budget (RATE_LIMIT_PUBLIC_FEEDBACK_PER_MINUTE) as `POST /v1/public/articles/{id}/feedback`,
 * answered 303 back to the article, anchored on the thank-you. Refusals are pages (400, 404, 429 with Retry-After).
 */
@ApiExcludeController()
@UseFilters(HelpCenterErrorFilter)
@Controller()
export class HelpCenterFeedbackController {
  constructor(
    private readonly submit: SubmitFeedbackUseCase,
    private readonly http: HttpConfig,
  ) {}

  @Post(SITE_PATHS.feedback)
  @Public()
  @RateLimit('publicFeedback')
  async feedback(
    @Param('lang') lang: string | undefined,
    @Param('slug') slug: string,
    @Req() request: Request,
    @Res() response: Response,
    @Next() next: NextFunction,
  ): Promise<void> {
    if (!isSiteLanguage(lang)) return next();
    const form = await readForm(request, response);
    const articleId = form['article']?.trim();
    if (!articleId) throw ValidationError.field('article', 'article is required');
    const comment = form['feedback']?.trim() ?? '';
    const email = form['email']?.trim() || null;
    await this.submit.execute(articleId, { type: feedbackType(form['type']), feedback: comment || EMPTY_FEEDBACK_COMMENT, email });
    const base = new URL(this.http.publicUrl).pathname.replace(/\/+$/, '');
    response.redirect(303, `${base}${lang === undefined ? '' : `/${lang}`}/articles/${encodeURIComponent(slug)}?feedback=sent#feedback`);
  }
}
