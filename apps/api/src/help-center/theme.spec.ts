import { describe, expect, it } from '@jest/globals';
import { contrast, DEFAULT_ACCENT, MIN_CONTRAST, readableOn, SURFACE, textOn, themeCss, themeOf } from './theme.js';

/** Accents across the whole range: greys, primaries, pastels, the darkest and the lightest, a seeded spread. */
function accents(): string[] {
  const fixed = ['#000000', '#ffffff', '#777777', '#808080', '#ff0000', '#00ff00', '#0000ff', '#ffff00', '#00ffff', '#ff00ff', '#ffc0cb', '#0b6e4f', '#1d5bbf', '#767676', '#7f7f7f', '#8a8a8a'];
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const spread = Array.from({ length: 500 }, () => `#${Array.from({ length: 3 }, () => Math.floor(random() * 256).toString(16).padStart(2, '0')).join('')}`);
  return [...fixed, ...spread];
}

describe('theme colours from the accent', () => {
  it('computes WCAG contrast ratios', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    expect(contrast('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });

  it.each(accents())('keeps AA for %s: text on the accent, links on white and on the light surface', (accent) => {
    const theme = themeOf(accent);
    expect(contrast(theme.onAccent, accent)).toBeGreaterThanOrEqual(MIN_CONTRAST);
    expect(contrast(theme.link, '#ffffff')).toBeGreaterThanOrEqual(MIN_CONTRAST);
    expect(contrast(theme.link, SURFACE)).toBeGreaterThanOrEqual(MIN_CONTRAST);
    // White text on a link-coloured button or step number.
    expect(contrast('#ffffff', theme.link)).toBeGreaterThanOrEqual(MIN_CONTRAST);
  });

  it('prefers white on the accent, near-black when white is too faint', () => {
    expect(textOn('#0b6e4f')).toBe('#ffffff');
    expect(textOn('#ffd400')).toBe('#111111');
  });

  it('keeps a dark enough accent as it is for links, darkens a light one', () => {
    expect(readableOn('#0b6e4f')).toBe('#0b6e4f');
    const darkened = readableOn('#66ccff');
    expect(darkened).not.toBe('#66ccff');
    expect(contrast(darkened, SURFACE)).toBeGreaterThanOrEqual(MIN_CONTRAST);
  });

  it('no accent, or a malformed one, is the default accent', () => {
    expect(themeOf(null).accent).toBe(DEFAULT_ACCENT);
    expect(themeOf('red').accent).toBe(DEFAULT_ACCENT);
    expect(themeOf('#FFFFFF').accent).toBe(DEFAULT_ACCENT);
  });

  it('is a stylesheet of custom properties only', () => {
    expect(themeCss(themeOf('#0b6e4f'))).toBe(':root{--accent:#0b6e4f;--on-accent:#ffffff;--link:#0b6e4f;--focus:#0b6e4f}\n');
  });
});
