// The leaderboard page `runner league` writes, in headless Chromium: the standings in the league's
// own order, the pair-by-pair matrix, a bot's name shown as text (never markup), and a game link
// that opens a viewer which plays to the stored result. Environment as for viewer.test.mjs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ARTIFACT_DIR, REPO_DIR, launch, number, openPage, runner, tempDir } from './helpers.mjs';

const hostile = '<script>alert(1)</script>';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

// Three bots, one of them named by its manifest with markup; resolves to the results folder and
// the runner's own JSON table.
async function playLeague(dir) {
  const bots = path.join(dir, 'bots');
  const testBots = path.join(REPO_DIR, 'runner/testing/bots');
  await mkdir(path.join(bots, 'evil'), { recursive: true });
  await copyFile(path.join(testBots, 'block.py'), path.join(bots, 'block.py'));
  await copyFile(path.join(testBots, 'idle.sh'), path.join(bots, 'idle.sh'));
  await copyFile(path.join(testBots, 'block.py'), path.join(bots, 'evil', 'bot.py'));
  await writeFile(path.join(bots, 'evil', 'bot.json'), JSON.stringify({ name: hostile, run: ['python3', 'bot.py'] }));
  const results = path.join(dir, 'results');
  const out = await runner(['league', bots, '--results', results, '--cache', path.join(dir, 'cache'),
    '--width', '24', '--height', '20', '--generations', '40', '--format', 'json', '--quiet', '--no-sandbox']);
  return { results, table: JSON.parse(out) };
}

test('the leaderboard page shows the league, escapes names, and links to viewers that play the games', async (t) => {
  const dir = await tempDir((f) => t.after(f));
  const { results, table } = await playLeague(dir);
  const file = path.join(results, 'leaderboard.html');
  const { page, problems } = await openPage(browser, file, { ready: false });

  const rows = await page.$$eval('#standings tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(rows.map((r) => r[1]), table.standings.map((s) => s.bot), 'standings in the league order');
  assert.deepEqual(rows.map((r) => Number(r[3])), table.standings.map((s) => s.wins));
  assert.deepEqual(rows.map((r) => Number(r[5])), table.standings.map((s) => s.losses));
  assert.ok(rows.every((r, i) => Math.abs(Number(r[7]) - table.standings[i].elo) <= 0.5), 'ratings as in the JSON');
  assert.ok(rows.some((r) => r[1] === hostile), 'the hostile name shows as text');
  assert.equal(await page.locator('script').count(), 0, 'no script element came from a name');

  const matrix = await page.$$eval('#matrix tbody tr', (trs) => trs.map((tr) => tr.querySelectorAll('td').length));
  assert.deepEqual(matrix, [3, 3, 3], 'one cell per opponent and one for the bot itself');
  assert.equal(await page.locator('#matrix td.self').count(), 3);
  const links = await page.$$eval('#games a.game-link', (as) => as.map((a) => a.getAttribute('href')));
  assert.equal(links.length, 6, 'every game (two per pair) links to its viewer');
  if (ARTIFACT_DIR) {
    await mkdir(ARTIFACT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACT_DIR, 'leaderboard.png'), fullPage: true });
  }

  // Following a game's link opens its viewer, which plays to the result the league stored.
  const key = path.basename(links[0], '.html');
  const record = JSON.parse(await readFile(path.join(results, 'games', `${key}.json`), 'utf8'));
  const viewerUrl = pathToFileURL(path.join(results, links[0])).href;
  await Promise.all([page.waitForURL(viewerUrl), page.locator('#games a.game-link').first().click()]);
  await page.waitForFunction(() => document.body.dataset.ready !== undefined);
  assert.equal(await page.evaluate(() => document.body.dataset.ready), '1');
  await page.click('#to-end');
  await page.waitForFunction((g) => document.getElementById('generation').textContent === String(g), record.generations);
  assert.deepEqual([await number(page, '#cells1'), await number(page, '#cells2')], record.cells);
  await page.waitForFunction(() => document.getElementById('agreement').dataset.state !== 'pending');
  assert.equal(await page.getAttribute('#agreement', 'data-state'), 'ok');

  assert.deepEqual(problems.errors, [], 'no page or console errors');
  assert.deepEqual(problems.dialogs, [], 'no dialog: the hostile name never ran');
  assert.deepEqual(problems.requests, [viewerUrl], 'no request but the viewer the link points to');
  await page.close();
});
