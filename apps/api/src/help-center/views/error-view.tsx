import { Layout } from './layout.js';
import type { PageContext } from './page-context.js';
import { languageLinks } from './parts.js';

export type ErrorKind = 'not_found' | 'rate_limited' | 'invalid' | 'error';

/** What went wrong, said for a reader: not found (drafts, trashed and unknown pages alike), too many requests, a bad form, a fault. */
export function ErrorView({ context, kind, retryAfterSeconds, back }: { context: PageContext; kind: ErrorKind; retryAfterSeconds?: number; back?: string }) {
  const { t, urls, branding } = context;
  const [title, heading, text] =
    kind === 'not_found'
      ? [t.notFoundTitle, t.notFoundHeading, t.notFoundText]
      : kind === 'rate_limited'
        ? [t.rateLimitedTitle, t.rateLimitedTitle, t.rateLimitedText(retryAfterSeconds ?? 60)]
        : kind === 'invalid'
          ? [t.invalidTitle, t.invalidTitle, t.invalidText]
          : [t.errorTitle, t.errorTitle, t.errorText];
  return (
    <Layout context={context} languages={languageLinks(context, (language) => urls.home(language))} meta={{ title: `${title} | ${branding.name}`, noindex: true }}>
      <div lang={context.uiLang}>
        <h1>{heading}</h1>
        <p class="lead">{text}</p>
        <ul class="article-list">
          {back ? (
            <li>
              <a href={back}>{t.backToArticle}</a>
            </li>
          ) : null}
          <li>
            <a href={urls.home()}>{t.goHome}</a>
          </li>
        </ul>
      </div>
    </Layout>
  );
}
