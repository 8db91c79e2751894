// Shared by the browser tests: where things are, running the runner, launching Chromium, and
// assembling a viewer page from data the test makes up (the same contract the runner follows).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));

export const REPO_DIR = process.env.REPO_DIR || path.resolve(here, '../../..');
export const RUNNER_BIN = process.env.RUNNER_BIN || path.join(REPO_DIR, 'build/bin/runner');
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const ARTIFACT_DIR = process.env.ARTIFACT_DIR || '';

const run = promisify(execFile);

// Runs the runner; resolves to its stdout, rejects with its stderr on a non-zero exit.
export async function runner(args, options = {}) {
  try {
    const { stdout } = await run(RUNNER_BIN, args, { maxBuffer: 64 << 20, timeout: 600_000, ...options });
    return stdout;
  } catch (e) {
    throw new Error(`${RUNNER_BIN} ${args.join(' ')} failed: ${e.stderr || e.message}`);
  }
}

// A fresh directory, removed by the function `defer` registers (e.g. (f) => t.after(f)).
export async function tempDir(defer) {
  const dir = await mkdtemp(path.join(tmpdir(), 'gol-viewer-'));
  defer(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

export async function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

// A page with everything that could show it is broken recorded: page errors, console errors,
// dialogs (an injected alert) and every request other than the page's own file. A viewer page is
// waited for until its script has set the ready flag; a static page (`ready: false`) is not.
export async function openPage(browser, file, { ready = true, viewport = { width: 1200, height: 900 }, hash = '' } = {}) {
  const page = await browser.newPage({ viewport });
  const problems = { errors: [], requests: [], dialogs: [] };
  const url = `file://${file}`;
  page.on('pageerror', (e) => problems.errors.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.errors.push(`console error: ${m.text()}`); });
  page.on('dialog', (d) => { problems.dialogs.push(d.message()); d.dismiss().catch(() => {}); });
  page.on('request', (r) => { if (r.url() !== url) problems.requests.push(r.url()); });
  await page.goto(url + hash);
  if (ready) await page.waitForFunction(() => document.body.dataset.ready !== undefined);
  return { page, problems };
}

const viewerDir = path.join(REPO_DIR, 'runner/report/viewer');

// The viewer page for `data`, filled in as the runner does (docs/viewer.md): the style, the
// game data made safe inside a script element, then life.js and viewer.js.
export async function assemblePage(data) {
  const read = (name) => readFile(path.join(viewerDir, name), 'utf8');
  const [html, css, life, viewer] = await Promise.all(['viewer.html', 'viewer.css', 'life.js', 'viewer.js'].map(read));
  const json = (typeof data === 'string' ? data : JSON.stringify(data))
    .replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
  const slots = { '/*@STYLE@*/': css, '@GAME_DATA@': json, '/*@SCRIPT@*/': `${life}\n${viewer}` };
  // Replaced in one pass over the template, so nothing filled in is taken for a placeholder.
  return html.replace(/\/\*@STYLE@\*\/|@GAME_DATA@|\/\*@SCRIPT@\*\//g, (p) => slots[p]);
}

export const text = (page, selector) => page.locator(selector).textContent();
export const number = async (page, selector) => Number(await text(page, selector));
