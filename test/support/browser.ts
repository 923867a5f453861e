import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page, type Request } from 'playwright-core';

/**
 * Browser tests drive Debian's Chromium (`apt-get install chromium`; `.ci/run` installs it when missing) through
 * playwright-core: no downloaded browser build, no Playwright test runner; Jest runs the suites like any other e2e
 * suite (`test/**\/*.browser.e2e-spec.ts`).
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless, no sandbox (CI runs as root), no GPU, and nothing the browser would fetch on its own. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
] as const;

/** Where screenshots go (gitignored): `test-artifacts/screenshots/<name>-<width>.png` under the repository. */
export const ARTIFACTS_DIR = process.env.TEST_ARTIFACTS_DIR ?? join(process.cwd(), 'test-artifacts');
export const SCREENSHOTS_DIR = join(ARTIFACTS_DIR, 'screenshots');

/** The two widths every page is checked and photographed at: a small phone and a laptop. */
export const VIEWPORTS = [
  { width: 360, height: 740 },
  { width: 1280, height: 800 },
] as const;

export interface BrowserOptions {
  /** false: a reader without JavaScript (the page's script never runs). Default true. */
  readonly javaScriptEnabled?: boolean;
  readonly viewport?: { readonly width: number; readonly height: number };
  /**
   * Origins that are the service under test by another name (`{ 'http://help.test': t.url }`: the test app's
   * PUBLIC_URL, which stored image URLs carry): the browser's requests to them are answered by the real server.
   */
  readonly aliases?: Readonly<Record<string, string>>;
}

/** What a page did that a test may want to refuse: script errors, console errors (CSP reports among them), requests. */
export interface PageLog {
  readonly errors: string[];
  readonly console: string[];
  readonly requests: string[];
  /** Subresources (stylesheets, scripts, images, fetches) that failed or answered 4xx/5xx: `<status> <url>`. */
  readonly failed: string[];
}

export interface TestBrowser {
  readonly context: BrowserContext;
  /** A new tab whose errors, console errors and requests are recorded in `log(page)`. */
  newPage(): Promise<Page>;
  log(page: Page): PageLog;
  /** Closes the browser and removes its user-data-dir. */
  close(): Promise<void>;
}

/**
 * Launches Chromium with a fresh user-data-dir of its own (a temporary directory, removed on close), through
 * `launchPersistentContext` (Playwright refuses `--user-data-dir` among `args`). One launch is one context; a test
 * that needs another setting (JavaScript off) launches another.
 */
export async function launchBrowser(options: BrowserOptions = {}): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Browser tests need Chromium at ${CHROMIUM_PATH}: apt-get install chromium (.ci/run installs it), or set CHROMIUM_PATH`);
  }
  const userDataDir = mkdtempSync(join(tmpdir(), 'hc-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_FLAGS],
      javaScriptEnabled: options.javaScriptEnabled ?? true,
      viewport: options.viewport ?? VIEWPORTS[1],
      locale: 'en-US',
      timezoneId: 'UTC',
      // The pages' Content-Security-Policy stays in force (no bypassCSP): axe-core is evaluated over CDP instead.
      bypassCSP: false,
    });
  } catch (error) {
    rmSync(userDataDir, { recursive: true, force: true });
    throw error;
  }
  for (const [alias, real] of Object.entries(options.aliases ?? {})) {
    const from = new URL(alias).origin;
    const to = new URL(real).origin;
    await context.route(`${from}/**`, async (route) => {
      const response = await route.fetch({ url: to + route.request().url().slice(from.length) });
      await route.fulfill({ response });
    });
  }
  // A missing element fails in seconds, not in Jest's minute.
  context.setDefaultTimeout(Number(process.env.BROWSER_TIMEOUT_MS ?? 10_000));
  const logs = new WeakMap<Page, PageLog>();
  // A persistent context opens with one blank tab; it is closed so every page a test uses is recorded.
  for (const blank of context.pages()) await blank.close();
  return {
    context,
    async newPage() {
      const page = await context.newPage();
      const log: PageLog = { errors: [], console: [], requests: [], failed: [] };
      page.on('pageerror', (error) => log.errors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') log.console.push(message.text());
      });
      page.on('request', (request) => log.requests.push(request.url()));
      const subresource = (request: Request) => !(request.isNavigationRequest() && request.frame() === page.mainFrame());
      page.on('response', (response) => {
        if (response.status() >= 400 && subresource(response.request())) log.failed.push(`${response.status()} ${response.url()}`);
      });
      page.on('requestfailed', (request) => {
        if (subresource(request)) log.failed.push(`${request.failure()?.errorText ?? 'failed'} ${request.url()}`);
      });
      logs.set(page, log);
      return page;
    },
    log(page) {
      const log = logs.get(page);
      if (!log) throw new Error('A page not opened through TestBrowser.newPage');
      return log;
    },
    async close() {
      try {
        await context.close();
      } finally {
        rmSync(userDataDir, { recursive: true, force: true });
      }
    },
  };
}

/** Requests of the page to none of `origins` (data: URLs aside): the pages make no third-party requests. */
export function foreignRequests(log: PageLog, ...origins: string[]): string[] {
  const own = new Set(origins.map((origin) => new URL(origin).origin));
  return log.requests.filter((url) => !url.startsWith('data:') && !own.has(new URL(url).origin));
}

/**
 * Console errors other than Chromium's report of the document's own status (a 404 page logs "Failed to load
 * resource: … 404" for itself).
 */
export function consoleErrors(log: PageLog, documentStatus = 200): string[] {
  return log.console.filter((text) => documentStatus < 400 || !text.startsWith(`Failed to load resource: the server responded with a status of ${documentStatus} `));
}

/**
 * The few DOM shapes the in-page functions below use (the project compiles without TypeScript's DOM library, so
 * functions passed to `page.evaluate` read the page's globals through this type: `globalThis as unknown as PageGlobals`).
 */
export interface PageElement {
  readonly tagName: string;
  readonly id: string;
  readonly className: unknown;
  readonly innerText?: string;
  readonly textContent: string | null;
  getAttribute(name: string): string | null;
  matches(selector: string): boolean;
}
export interface PageGlobals {
  readonly document: {
    readonly activeElement: PageElement | null;
    readonly body: PageElement;
    readonly documentElement: PageElement & { readonly scrollWidth: number; readonly clientWidth: number };
    querySelector(selector: string): PageElement | null;
    querySelectorAll(selector: string): ArrayLike<PageElement>;
  };
  getComputedStyle(element: PageElement): { readonly outlineStyle: string; readonly outlineWidth: string; readonly boxShadow: string };
  readonly axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> };
}

const requireFromRoot = createRequire(join(process.cwd(), 'package.json'));
let axeSource: string | undefined;

export interface AxeViolation {
  readonly id: string;
  readonly impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  readonly help: string;
  readonly helpUrl: string;
  readonly nodes: ReadonlyArray<{ readonly target: readonly unknown[]; readonly failureSummary?: string }>;
}

/**
 * Runs axe-core (WCAG 2.0/2.1/2.2 A and AA rules and best practices) inside the page and returns its violations.
 * The pages' CSP (`script-src 'self'`) refuses an injected <script> (`page.addScriptTag` inserts one, inline or by
 * path), so the library's source is evaluated in the page over the DevTools protocol (`page.evaluate`), which the
 * page's CSP does not govern; the context keeps the CSP (no `bypassCSP`), so the page's own script still runs
 * under the real policy.
 */
export async function runAxe(page: Page): Promise<AxeViolation[]> {
  axeSource ??= readFileSync(requireFromRoot.resolve('axe-core/axe.min.js'), 'utf8');
  const loaded = await page.evaluate('typeof window.axe === "object"');
  if (!loaded) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const { axe, document } = globalThis as unknown as PageGlobals;
    const results = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
}

/** The violations a page must not have: axe's `serious` and `critical`. */
export function seriousViolations(violations: readonly AxeViolation[]): AxeViolation[] {
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** One line per violation and the elements it names, for a failure message. */
export function describeViolations(violations: readonly AxeViolation[]): string {
  return violations
    .map((v) => `${v.impact ?? 'n/a'} ${v.id}: ${v.help} (${v.helpUrl})\n${v.nodes.map((n) => `    ${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`.trimEnd()).join('\n')}`)
    .join('\n');
}

/**
 * Full-page screenshots of the page at 360 and 1280 px wide into `test-artifacts/screenshots/<name>-<width>.png`;
 * the viewport is put back afterwards. Returns the files written.
 */
export async function screenshots(page: Page, name: string): Promise<string[]> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const before = page.viewportSize();
  const files: string[] = [];
  try {
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      const path = join(SCREENSHOTS_DIR, `${name}-${viewport.width}.png`);
      await page.screenshot({ path, fullPage: true, animations: 'disabled' });
      files.push(path);
    }
  } finally {
    if (before) await page.setViewportSize(before);
  }
  return files;
}

/** Whether the page scrolls sideways at its current width (a layout that does not fit a 360 px screen). */
export async function overflowsHorizontally(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const { documentElement } = (globalThis as unknown as PageGlobals).document;
    return documentElement.scrollWidth > documentElement.clientWidth + 1;
  });
}

/** What has keyboard focus now, and whether it is drawn (`:focus-visible` with an outline or a box shadow). */
export interface FocusedElement {
  readonly tag: string;
  readonly text: string;
  readonly href: string | null;
  readonly name: string | null;
  readonly type: string | null;
  readonly id: string | null;
  readonly className: string;
  readonly focusVisible: boolean;
  readonly indicator: boolean;
}

export async function focusedElement(page: Page): Promise<FocusedElement | null> {
  return page.evaluate(() => {
    const { document, getComputedStyle } = globalThis as unknown as PageGlobals;
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    const shadow = style.boxShadow !== 'none' && style.boxShadow !== '';
    return {
      tag: el.tagName.toLowerCase(),
      text: (el.innerText ?? el.textContent ?? '').trim().replace(/\s+/g, ' '),
      href: el.getAttribute('href'),
      name: el.getAttribute('name'),
      type: el.getAttribute('type'),
      id: el.id || null,
      className: typeof el.className === 'string' ? el.className : '',
      focusVisible: el.matches(':focus-visible'),
      indicator: outline || shadow,
    };
  });
}

/**
 * Presses Tab until `matches` accepts the focused element (at most `limit` presses); returns it, or throws with
 * the elements focus passed through.
 */
export async function tabUntil(page: Page, matches: (el: FocusedElement) => boolean, limit = 60): Promise<FocusedElement> {
  const seen: string[] = [];
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const el = await focusedElement(page);
    if (el && matches(el)) return el;
    seen.push(el ? `${el.tag}${el.href ? `[href=${el.href}]` : ''}${el.name ? `[name=${el.name}]` : ''} "${el.text.slice(0, 40)}"` : '(body)');
  }
  throw new Error(`No matching element after ${limit} presses of Tab; focus went through:\n  ${seen.join('\n  ')}`);
}
