import { type StaticAsset, staticAsset } from '../common/html/static-assets.js';
import { SITE_CSS } from './assets/site-css.js';
import { SITE_SCRIPT } from './assets/site-script.js';
import { type Theme, themeCss, themeOf } from './theme.js';

/** A file under /assets/: its body, its media type and the hash its name carries. */
export type SiteAsset = StaticAsset;

const STYLESHEET = staticAsset(SITE_CSS, 'text/css; charset=utf-8');
const SCRIPT = staticAsset(SITE_SCRIPT, 'text/javascript; charset=utf-8');

/** The names of the static files, with their content's hash: a changed file is a new URL, so each may be cached for good. */
export const STYLESHEET_NAME = `site.${STYLESHEET.hash}.css`;
export const SCRIPT_NAME = `help-center.${SCRIPT.hash}.js`;

const THEME_NAME = /^theme-([0-9a-f]{6})\.([0-9A-Za-z]{12})\.css$/;
const themes = new Map<string, SiteAsset>();
const themeNames = new Map<string | null, string>();

function themeAsset(theme: Theme): SiteAsset {
  let found = themes.get(theme.accent);
  if (found === undefined) {
    found = staticAsset(themeCss(theme), 'text/css; charset=utf-8');
    // Accent colours are few (one per helpdesk at a time); the cap only bounds names made up by clients.
    if (themes.size < 256) themes.set(theme.accent, found);
  }
  return found;
}

/**
 * The theme stylesheet's name for an accent colour: `theme-<rrggbb>.<hash>.css`. The name carries the colour, so any
 * process can serve it (scale-out) and a page cached with an earlier accent still finds its stylesheet.
 */
export function themeStylesheetName(accentColor: string | null): string {
  let name = themeNames.get(accentColor);
  if (name === undefined) {
    const theme = themeOf(accentColor);
    name = `theme-${theme.accent.slice(1)}.${themeAsset(theme).hash}.css`;
    if (themeNames.size < 256) themeNames.set(accentColor, name);
  }
  return name;
}

const HASHED_NAME = /^(site|help-center)\.[0-9A-Za-z]{12}\.(css|js)$/;

/**
 * This process's version of a file asked for under another version's hash (`site.<other hash>.css`,
 * `help-center.<other hash>.js`, `theme-<rrggbb>.<other hash>.css`): what a rolling deploy's mixed processes need
 * to serve each other's pages styled. Null for names that are no asset's.
 */
export function siteAssetStandIn(name: string): SiteAsset | null {
  const hashed = HASHED_NAME.exec(name);
  if (hashed) return hashed[1] === 'site' && hashed[2] === 'css' ? STYLESHEET : hashed[1] === 'help-center' && hashed[2] === 'js' ? SCRIPT : null;
  const theme = THEME_NAME.exec(name);
  return theme ? themeAsset(themeOf(`#${theme[1]!}`)) : null;
}

/** The file served under a name, or null (unknown name, or a hash that is not this content's). */
export function siteAsset(name: string): SiteAsset | null {
  if (name === STYLESHEET_NAME) return STYLESHEET;
  if (name === SCRIPT_NAME) return SCRIPT;
  const theme = THEME_NAME.exec(name);
  if (theme) {
    const found = themeAsset(themeOf(`#${theme[1]!}`));
    return found.hash === theme[2] ? found : null;
  }
  return null;
}
