import { type StaticAsset, staticAsset } from '../common/html/static-assets.js';
import { SETTINGS_CSS } from './assets/settings-css.js';
import { SETTINGS_SCRIPT } from './assets/settings-script.js';

const STYLESHEET = staticAsset(SETTINGS_CSS, 'text/css; charset=utf-8');
const SCRIPT = staticAsset(SETTINGS_SCRIPT, 'text/javascript; charset=utf-8');

/** The names of the settings' own files, with their content's hash (served under /settings/assets/, cached for good). */
export const SETTINGS_STYLESHEET_NAME = `settings.${STYLESHEET.hash}.css`;
export const SETTINGS_SCRIPT_NAME = `settings.${SCRIPT.hash}.js`;

/** The file served under a name, or null. */
export function settingsAsset(name: string): StaticAsset | null {
  if (name === SETTINGS_STYLESHEET_NAME) return STYLESHEET;
  if (name === SETTINGS_SCRIPT_NAME) return SCRIPT;
  return null;
}
