import type { SettingsContext } from './context.js';
import { Layout } from './layout.js';

export interface SettingsErrorPage {
  readonly title: string;
  readonly message: string;
  /** Where to go from here. */
  readonly back?: { readonly href: string; readonly label: string };
}

export function ErrorView({ ctx, page }: { ctx: SettingsContext; page: SettingsErrorPage }) {
  return (
    <Layout ctx={ctx} title={page.title}>
      <h1>{page.title}</h1>
      <p class="lead">{page.message}</p>
      <p>
        {page.back ? <a href={page.back.href}>{page.back.label}</a> : <a href={ctx.admin ? ctx.urls.keys() : ctx.urls.signIn()}>{ctx.admin ? 'Back to the developer settings' : 'Sign in'}</a>}
      </p>
    </Layout>
  );
}
