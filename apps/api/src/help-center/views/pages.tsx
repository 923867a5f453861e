import type { ArticlePage, CollectionPage, HomePage, SearchPage, SectionPage } from '#content';
import { ArticleView } from './article-view.js';
import { CollectionView } from './collection-view.js';
import { ErrorView, type ErrorKind } from './error-view.js';
import { HomeView } from './home-view.js';
import type { PageContext } from './page-context.js';
import { renderDocument } from '../../common/html/render.js';
import { SearchView } from './search-view.js';
import { SectionView } from './section-view.js';

/** Each page of the help center as an HTML document (what the controllers send). */
export const renderPage = {
  home: (context: PageContext, page: HomePage): string => renderDocument(<HomeView context={context} page={page} />),
  section: (context: PageContext, page: SectionPage): string => renderDocument(<SectionView context={context} page={page} />),
  collection: (context: PageContext, page: CollectionPage): string => renderDocument(<CollectionView context={context} page={page} />),
  article: (context: PageContext, page: ArticlePage, options: { feedbackSent: boolean }): string =>
    renderDocument(<ArticleView context={context} page={page} feedbackSent={options.feedbackSent} />),
  search: (context: PageContext, page: SearchPage): string => renderDocument(<SearchView context={context} page={page} />),
  error: (context: PageContext, kind: ErrorKind, options: { retryAfterSeconds?: number; back?: string } = {}): string =>
    renderDocument(<ErrorView context={context} kind={kind} retryAfterSeconds={options.retryAfterSeconds} back={options.back} />),
};
