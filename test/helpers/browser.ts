import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

/**
 * A real headless Chromium for the inspector's end-to-end tests: Debian's `chromium`
 * (.ci/install-chromium.sh) or ENGRAM_CHROMIUM, driven by playwright-core. Dialogs
 * (confirm) are accepted and their messages recorded.
 */
const CHROMIUM = process.env['ENGRAM_CHROMIUM'] ?? '/usr/bin/chromium';

export interface TestBrowser {
  browser: Browser;
  page: Page;
  dialogs: string[];
}

export async function launchBrowser(): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium, or set ENGRAM_CHROMIUM`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.accept();
  });
  return { browser, page, dialogs };
}
