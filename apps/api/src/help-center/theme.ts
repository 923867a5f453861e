/**
 * The accent colour of the helpdesk's branding, turned into colours that keep contrast AA whatever the accent:
 * text on the accent is white or near-black, whichever contrasts more (at least 4.5:1), and links and focus rings
 * are the accent darkened until they reach 4.5:1 on the page's backgrounds (white and the light surface tint).
 */

export const DEFAULT_ACCENT = '#1d5bbf';
const WHITE = '#ffffff';
/** The lightly tinted background of the footer, the feedback box and callouts: the darkest a link stands on. */
export const SURFACE = '#f5f6f8';
const NEAR_BLACK = '#111111';
const BLACK = '#000000';
/** WCAG 2 AA for normal text. */
export const MIN_CONTRAST = 4.5;

type Rgb = readonly [number, number, number];

const HEX = /^#[0-9a-f]{6}$/;

export function isAccentColor(value: string): boolean {
  return HEX.test(value);
}

function rgb(hex: string): Rgb {
  return [parseInt(hex.slice(1, 3), 16), parseInt(hex.slice(3, 5), 16), parseInt(hex.slice(5, 7), 16)];
}

function hex([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

/** WCAG relative luminance. */
function luminance(color: string): number {
  const [r, g, b] = rgb(color).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as unknown as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** White when it reaches 4.5:1 on the accent, else near-black when that does, else black (always > 4.5:1 then). */
export function textOn(accent: string): string {
  for (const candidate of [WHITE, NEAR_BLACK]) if (contrast(candidate, accent) >= MIN_CONTRAST) return candidate;
  return BLACK;
}

/** The accent, darkened in small steps towards black until it reaches 4.5:1 on `background`. */
export function readableOn(accent: string, background = SURFACE): string {
  const [r, g, b] = rgb(accent);
  for (let step = 0; step <= 100; step += 2) {
    const keep = 1 - step / 100;
    const color = hex([r * keep, g * keep, b * keep]);
    if (contrast(color, background) >= MIN_CONTRAST) return color;
  }
  return BLACK;
}

export interface Theme {
  readonly accent: string;
  readonly onAccent: string;
  readonly link: string;
}

export function themeOf(accentColor: string | null): Theme {
  const accent = accentColor !== null && isAccentColor(accentColor) ? accentColor : DEFAULT_ACCENT;
  return { accent, onAccent: textOn(accent), link: readableOn(accent) };
}

/** The small stylesheet that carries the theme as CSS custom properties (no inline style anywhere). */
export function themeCss(theme: Theme): string {
  return `:root{--accent:${theme.accent};--on-accent:${theme.onAccent};--link:${theme.link};--focus:${theme.link}}\n`;
}
