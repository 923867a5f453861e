import type { ComponentChildren } from 'preact';
import { STYLESHEET_NAME, themeStylesheetName } from '../../help-center/site-assets.js';
import { SETTINGS_SCRIPT_NAME, SETTINGS_STYLESHEET_NAME } from '../settings-assets.js';
import type { SettingsContext, SettingsSection } from './context.js';
import { CsrfField } from './parts.js';

const PRODUCT = 'Developer settings';

const NAV: ReadonlyArray<{ section: SettingsSection; label: string; href: (ctx: SettingsContext) => string }> = [
  { section: 'keys', label: 'API keys', href: (ctx) => ctx.urls.keys() },
  { section: 'webhooks', label: 'Webhooks', href: (ctx) => ctx.urls.webhooks() },
  { section: 'audit', label: 'Audit log', href: (ctx) => ctx.urls.audit() },
  { section: 'admins', label: 'Admins', href: (ctx) => ctx.urls.admins() },
  { section: 'account', label: 'Your account', href: (ctx) => ctx.urls.account() },
];

function Header({ ctx }: { ctx: SettingsContext }) {
  const { admin } = ctx;
  return (
    <header class="site-header settings-header">
      <div class="wrap">
        <div class="header-bar">
          <a class="brand" href={admin ? ctx.urls.keys() : ctx.urls.signIn()}>
            <span>{PRODUCT}</span>
          </a>
          {admin ? (
            <div class="who">
              <span>
                Signed in as <strong>{admin.name}</strong>
              </span>
              <form method="post" action={ctx.urls.signOut()} class="inline-form">
                <CsrfField ctx={ctx} />
                <button type="submit" class="header-button">
                  Sign out
                </button>
              </form>
            </div>
          ) : null}
        </div>
        {admin ? (
          <nav class="settings-nav" aria-label="Settings">
            <ul>
              {NAV.map((item) => (
                <li>
                  <a href={item.href(ctx)} aria-current={item.section === ctx.section ? 'page' : undefined}>
                    {item.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
      </div>
    </header>
  );
}

/** The frame of every settings page: head, skip link, header (name, who is signed in, sign out, navigation), main, footer. */
export function Layout({ ctx, title, children }: { ctx: SettingsContext; title: string; children: ComponentChildren }) {
  const { urls } = ctx;
  return (
    <html lang="en" dir="ltr">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>{`${title} · ${PRODUCT}`}</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href={urls.siteAsset(STYLESHEET_NAME)} />
        <link rel="stylesheet" href={urls.siteAsset(themeStylesheetName(null))} />
        <link rel="stylesheet" href={urls.asset(SETTINGS_STYLESHEET_NAME)} />
        <script src={urls.asset(SETTINGS_SCRIPT_NAME)} defer />
      </head>
      <body class="settings">
        <a class="skip-link" href="#main">
          Skip to content
        </a>
        <Header ctx={ctx} />
        <main id="main" tabindex={-1}>
          <div class="wrap">
            {ctx.notice ? (
              <div class="success" role="status">
                {ctx.notice}
              </div>
            ) : null}
            {children}
          </div>
        </main>
        <footer class="site-footer">
          <div class="wrap">
            <ul>
              <li>
                <a href={`${urls.base}/`}>Help center</a>
              </li>
              <li>
                <a href={`${urls.base}/docs`}>API reference</a>
              </li>
            </ul>
          </div>
        </footer>
      </body>
    </html>
  );
}
