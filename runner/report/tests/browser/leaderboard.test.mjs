// The leaderboard page `runner league` writes, in headless Chromium: the standings in the league's
// own order, the pair-by-pair matrix, a bot's name shown as text (never markup), a game link
// that opens a viewer which plays to the stored result and links back, and a field of 20 bots
// on a 1366x768 screen. Environment as for viewer.test.mjs.
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
  assert.equal(await page.locator('script').count(), 1, 'no script element came from a name, only the page\'s own');
  assert.equal(await page.locator('#bot-filter option', { hasText: hostile }).count(), 1, 'the filter names it as text');

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
  const title = await page.title();
  for (const bot of record.inputs.bots) assert.ok(title.includes(bot), `the viewer's title "${title}" names ${bot}`);

  // The viewer of a league's game links back to the leaderboard.
  const leaderboardUrl = pathToFileURL(file).href;
  await Promise.all([page.waitForURL(leaderboardUrl), page.click('#back')]);

  assert.deepEqual(problems.errors, [], 'no page or console errors');
  assert.deepEqual(problems.dialogs, [], 'no dialog: the hostile name never ran');
  // (Requests for the page's own file, as the way back is, are not counted.)
  assert.deepEqual(problems.requests, [viewerUrl], 'no request but the pages the links point to');
  await page.close();
});

// 20 shell bots, bot k placing a row of k + 1 cells every turn: 380 games of 3 generations with
// results that differ from game to game. The results folder is named as a tournament's would be.
async function playBigLeague(dir) {
  const bots = path.join(dir, 'bots');
  await mkdir(bots);
  const names = [];
  for (let k = 0; k < 20; k++) {
    // As long as the 2016 answers' longest (InterruptingBlockMaker), and then some.
    const name = `interrupting-block-maker-${String(k).padStart(2, '0')}`;
    const cells = Array.from({ length: k + 1 }, (_, x) => [2 + (k % 6) * 3, x]);
    await writeFile(path.join(bots, `${name}.sh`), `echo '${JSON.stringify(cells)}'\n`);
    names.push(name);
  }
  const results = path.join(dir, 'spring-cup');
  const started = Math.floor(Date.now() / 1000) * 1000;
  const out = await runner(['league', bots, '--results', results, '--cache', path.join(dir, 'cache'),
    '--width', '64', '--height', '20', '--generations', '3', '--format', 'json', '--quiet', '--no-sandbox']);
  return { results, names, started, table: JSON.parse(out) };
}

test('20 bots and 380 games fit a 1366x768 screen: matrix in its own box, games filtered and sorted', async (t) => {
  const dir = await tempDir((f) => t.after(f));
  const { results, names, started, table } = await playBigLeague(dir);
  assert.equal(table.standings.length, 20);
  const { page, problems } = await openPage(browser, path.join(results, 'leaderboard.html'),
    { ready: false, viewport: { width: 1366, height: 768 } });
  t.after(() => page.close());

  // The heading: the tournament's name and when the page was written, in UTC.
  assert.equal(await page.textContent('h1'), 'spring-cup');
  const written = (await page.textContent('#written')).match(/(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d) UTC$/);
  assert.ok(written, 'the time the page was written, in UTC');
  const at = Date.parse(`${written[1]}T${written[2]}Z`);
  assert.ok(at >= started && at <= Date.now(), 'written while the league ran');

  const widths = () => page.evaluate(() => ({
    page: document.documentElement.scrollWidth, window: document.documentElement.clientWidth,
    box: document.getElementById('matrix-box').scrollWidth, boxShown: document.getElementById('matrix-box').clientWidth,
  }));
  const w = await widths();
  assert.ok(w.page <= w.window, `the page does not scroll sideways (${w.page} <= ${w.window})`);
  // The standings show every column at once: their box does not scroll.
  const standings = await page.evaluate(() => {
    const box = document.getElementById('standings').parentElement;
    return { scroll: box.scrollWidth, shown: box.clientWidth };
  });
  assert.ok(standings.scroll <= standings.shown,
    `every column of the standings in sight (${standings.scroll} <= ${standings.shown})`);
  assert.ok(w.box > w.boxShown, `the matrix is wider than its box (${w.box} > ${w.boxShown}), which scrolls`);
  const scrolled = await page.evaluate(() => {
    const box = document.getElementById('matrix-box');
    box.scrollLeft = 200;
    return { left: box.scrollLeft, overflow: getComputedStyle(box).overflowX };
  });
  assert.equal(scrolled.overflow, 'auto');
  assert.ok(scrolled.left > 0, 'the matrix box scrolls');
  assert.ok((await widths()).page <= w.window, 'and the page still does not');

  // No number is broken over two lines: each cell's text lies on one line. (A bot's name in the
  // standings may wrap, so that every column stays in sight.)
  const wrapped = await page.evaluate(() => [...document.querySelectorAll('td:not(.bot)')]
    .filter((td) => /\d/.test(td.textContent))
    .filter((td) => {
      const range = document.createRange();
      range.selectNodeContents(td);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
    }).map((td) => td.textContent));
  assert.deepEqual(wrapped, [], 'no wrapped number cells');
  const rowHeights = await page.$$eval('#games tbody tr', (trs) => trs.map((tr) => tr.getBoundingClientRect().height));
  assert.equal(rowHeights.length, 380);
  assert.ok(Math.max(...rowHeights) < 40, `one short row a game (tallest ${Math.max(...rowHeights)} px)`);
  if (ARTIFACT_DIR) {
    await mkdir(ARTIFACT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACT_DIR, 'leaderboard-20.png') });
  }

  // The filter keeps one bot's games: two with each of the other 19.
  const shownSeats = () => page.$$eval('#games tbody tr', (trs) => trs.filter((tr) => !tr.hidden)
    .map((tr) => [tr.cells[1].textContent, tr.cells[2].textContent]));
  await page.selectOption('#bot-filter', names[7]);
  const mine = await shownSeats();
  assert.equal(mine.length, 38);
  assert.ok(mine.every((seats) => seats.includes(names[7])), 'only its games');
  assert.equal(await page.textContent('#games-shown'), '38 of 380 games');
  await page.selectOption('#bot-filter', '');
  assert.equal((await shownSeats()).length, 380);

  // Clicking a heading sorts by its column, again the other way; # brings back the schedule.
  const column = (i) => page.$$eval('#games tbody tr', (trs, c) => trs.map((tr) => tr.cells[c].dataset.sort ?? tr.cells[c].textContent), i);
  const numbers = async (i) => (await column(i)).map(Number);
  const schedule = await column(0);
  const before = await numbers(6);
  await page.click('#games thead th:has-text("Cells")');
  const up = await numbers(6);
  assert.deepEqual(up, before.slice().sort((a, b) => a - b), 'ascending by seat 1\'s cells');
  assert.notDeepEqual(up, before, 'the order changed');
  await page.click('#games thead th:has-text("Cells")');
  assert.deepEqual(await numbers(6), before.slice().sort((a, b) => b - a), 'then descending');
  await page.click('#games thead th:has-text("Seat 2")');
  const seat2 = await column(2);
  assert.deepEqual(seat2, seat2.slice().sort((a, b) => a.localeCompare(b)), 'names sort as text');
  await page.click('#games thead th:has-text("#")');
  assert.deepEqual(await column(0), schedule.slice().sort((a, b) => a - b));
  assert.deepEqual(await column(0), schedule, 'the schedule\'s order again');

  assert.deepEqual(problems.errors, [], 'no page or console errors');
  assert.deepEqual(problems.requests, [], 'no request but the page itself');
});
