import { join } from 'node:path';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { operations } from './document';

// Drives Swagger UI in Chromium the way a reader does: buttons and fields by what they show.

/** Debian's chromium package: the suite never downloads a browser of its own. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Headless, as root (no sandbox), without a GPU. Chromium's own background connections (updates,
 * sync, QUIC probes, first-run pages) are switched off: on a closed network they are refused and
 * only slow the start down. Playwright adds --user-data-dir: a fresh, empty profile it deletes on close; each page gets a context of its own.
 */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Well below Jest's 60 s per test, so that a missing element fails with Playwright's own message. */
const ACTION_TIMEOUT_MS = 15_000;
/** Chromium's start, which a loaded machine slows down (Playwright's default is 3 minutes). */
const LAUNCH_TIMEOUT_MS = 30_000;

export interface DocsPage {
  readonly page: Page;
  /** Every URL the page requested, in order. */
  readonly requests: readonly string[];
  /** Console errors and uncaught exceptions (a CSP refusal is one). */
  readonly errors: readonly string[];
  /** The operations tried out on this page, by operationId: tryItOut adds each. */
  readonly tried: Set<string>;
  /** Where `screenshot` writes. */
  readonly screenshotDir: string;
  screenshot(name: string): Promise<string>;
  /** Closes the page and its profile; the browser stays for the next page. */
  close(): Promise<void>;
}

/** Starts headless Chromium; the caller closes it (one left running would keep Jest from exiting). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: LAUNCH_TIMEOUT_MS });
}

/**
 * Opens `url` (the /docs page) in a fresh, empty profile of `browser` (a context of its own: no
 * key or storage of another page) and waits until Swagger UI shows its operations. Screenshots go
 * to `screenshotDir`.
 */
export async function openDocs(browser: Browser, url: string, screenshotDir: string): Promise<DocsPage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    const page = await context.newPage();
    const requests: string[] = [];
    const errors: string[] = [];
    const tried = new Set<string>();
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(url);
    await waitForOperations(page);
    return {
      page,
      requests,
      errors,
      tried,
      screenshotDir,
      screenshot: async (name) => {
        const path = join(screenshotDir, `${name}.png`);
        await page.screenshot({ path });
        return path;
      },
      close: () => context.close(),
    };
  } catch (error) {
    await context.close();
    throw error;
  }
}

/** Reloads the page, as a reader does, and waits for Swagger UI again. */
export async function reload(docs: DocsPage): Promise<void> {
  await docs.page.reload();
  await waitForOperations(docs.page);
}

async function waitForOperations(page: Page): Promise<void> {
  await page.locator('.opblock').first().waitFor();
}

/** Authorize → the bearer value → Apply credentials → Close. */
export async function authorize(page: Page, apiKey: string): Promise<void> {
  await page.getByRole('button', { name: 'Authorize', exact: true }).click();
  await page.getByLabel('auth-bearer-value').fill(apiKey);
  await page.getByRole('button', { name: 'Apply credentials' }).click();
  await page.getByRole('button', { name: 'Close' }).click();
}

/** Whether the page's Authorize button shows the closed padlock (a key is set). */
export async function isAuthorized(page: Page): Promise<boolean> {
  return (await page.locator('.auth-wrapper .authorize.locked').count()) === 1;
}

/** The server chosen in the Servers list. */
export async function selectedServer(page: Page): Promise<string> {
  return page.locator('.servers select').inputValue();
}

/** The value field of one parameter of an operation. */
export function parameterInput(operation: Locator, name: string): Locator {
  return operation.locator(`tr[data-param-name="${name}"] input`);
}

/** The request body editor of an operation. */
export function requestBodyEditor(operation: Locator): Locator {
  return operation.locator('textarea.body-param__text');
}

/** What the page shows of one call. */
export interface ShownCall {
  readonly requestUrl: string;
  readonly status: string;
  /** The response body pane, as text. */
  readonly body: string;
  /** The response headers pane, one `name: value` a line. */
  readonly headers: string;
}

/**
 * Opens an operation (Swagger UI shows it under its first tag in the document), presses Try it
 * out, lets `fill` set its fields, presses Execute and reads what the page shows; then takes a
 * screenshot of the answer, named after the operation and `label`.
 */
export async function tryItOut(
  docs: DocsPage,
  operationId: string,
  label: string,
  fill?: (operation: Locator) => Promise<void>,
): Promise<ShownCall> {
  const documented = operations.find((entry) => entry.operationId === operationId);
  if (!documented) throw new Error(`${operationId} is no operation of the committed document`);
  const operation = docs.page.locator(`#operations-${documented.tag}-${operationId}`);
  await expand(operation);
  await operation.getByRole('button', { name: 'Try it out' }).click();
  await fill?.(operation);
  await operation.getByRole('button', { name: 'Execute' }).click();
  const answer = operation.locator('.live-responses-table tbody');
  await answer.locator('.response-col_status').waitFor();
  docs.tried.add(operationId);
  const shown = await readCall(operation, answer);
  await answer.scrollIntoViewIfNeeded();
  await docs.screenshot(`${operationId}-${label}`);
  return shown;
}

/**
 * Opens an operation unless it is open. After a reload the page may still be opening the one
 * named in the address (#/pets/getPet), and scrolling to it, while we look: a click waits a
 * moment for the summary to hold still, and we look again until the body shows.
 */
async function expand(operation: Locator): Promise<void> {
  const body = operation.locator('.opblock-body');
  for (let attempt = 0; attempt < 10 && !(await body.isVisible()); attempt++) {
    const open = (await operation.getAttribute('class'))?.split(' ').includes('is-open');
    if (!open)
      await operation
        .locator('.opblock-summary')
        .click({ timeout: 3000 })
        .catch(() => undefined);
    await body.waitFor({ state: 'visible', timeout: 1000 }).catch(() => undefined);
  }
  await body.waitFor({ state: 'visible', timeout: 1000 });
}

async function readCall(operation: Locator, answer: Locator): Promise<ShownCall> {
  const body = answer.locator('.highlight-code pre');
  // A failed call (a refused connection) shows its error where the body would be; an answer
  // without a body (a 204) shows neither.
  const error = answer.locator('.response-col_description .renderedMarkdown');
  return {
    requestUrl: await operation.locator('.request-url pre').innerText(),
    status: (await answer.locator('.response-col_status').innerText()).trim(),
    body: (await body.count()) > 0 ? await body.innerText() : (await error.count()) > 0 ? await error.innerText() : '',
    headers: (await answer.locator('.headerline').allInnerTexts()).map((line) => line.trim()).join('\n'),
  };
}
