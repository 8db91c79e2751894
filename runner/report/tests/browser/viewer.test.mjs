// The viewer pages the runner writes (`runner duel --html`, `runner replay --html`), opened in
// headless Chromium: played to the end, they must show the runner's result, with the page's own
// engine agreeing with the runner's counts at every generation. Environment: RUNNER_BIN,
// REPO_DIR, CHROMIUM, and ARTIFACT_DIR for a screenshot.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  ARTIFACT_DIR, REPO_DIR, assemblePage, launch, number, openPage, runner, tempDir, text,
} from './helpers.mjs';

const bot = (p) => path.join(REPO_DIR, p);

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

// Plays a duel with --html and --replay; resolves to the runner's --json result and the files.
async function duel(defer, a, b, options) {
  const dir = await tempDir(defer);
  const html = path.join(dir, 'game.html');
  const replay = path.join(dir, 'game.jsonl');
  const out = await runner(['duel', a, b, ...options, '--json', '--quiet', '--cache', path.join(dir, 'cache'),
    '--html', html, '--replay', replay]);
  const result = JSON.parse(out);
  // The runner's final cells by seat, from its by-name report.
  const bySeat = (field) => {
    const v = [0, 0];
    for (const [name, seat] of Object.entries(result.seats)) v[seat - 1] = result[field][name];
    return v;
  };
  return { dir, html, replay, result, cells: bySeat('cells'), forfeits: bySeat('forfeits') };
}

function assertClean(problems) {
  assert.deepEqual(problems.errors, [], 'no page or console errors');
  assert.deepEqual(problems.requests, [], 'no request but the page itself');
  assert.deepEqual(problems.dialogs, [], 'no dialog');
}

const gameData = (page) => page.evaluate(() => JSON.parse(document.getElementById('game-data').textContent));

async function waitForGeneration(page, g, timeout = 30_000) {
  await page.waitForFunction((want) => document.getElementById('generation').textContent === String(want), g, { timeout });
}

// The counts the page shows for the shown generation.
const shownCells = async (page) => [await number(page, '#cells1'), await number(page, '#cells2')];

describe('a duel between two sample bots', () => {
  let game;
  let opened;
  const cleanups = [];

  before(async () => {
    // A hundred generations show every control as well as more would; the bots' time is the test's.
    game = await duel((f) => cleanups.push(f), bot('bots/attacker.py'), bot('bots/farmer'),
      ['--width', '100', '--height', '80', '--generations', '100', '--seed', '3']);
    opened = await openPage(browser, game.html);
  });
  after(async () => {
    await opened?.page.close();
    for (const f of cleanups) await f();
  });

  test('the page is self-contained, shows the names, and plays at max speed to the runner\'s result', async (t) => {
    const { page, problems } = opened;
    const n = game.result.generations;
    assert.equal(await page.evaluate(() => document.body.dataset.ready), '1');
    assert.equal(await page.evaluate(() => document.querySelectorAll('[src], link[href]').length), 0, 'no external resource');
    const names = Object.keys(game.result.seats).sort((x, y) => game.result.seats[x] - game.result.seats[y]);
    assert.equal(await text(page, '#name1'), names[0]);
    assert.equal(await text(page, '#name2'), names[1]);
    // The title names both bots and the result; a duel is no league's, so nothing links back.
    const title = await page.title();
    assert.ok(title.startsWith(`${names[0]} vs ${names[1]}: `), title);
    assert.ok(title.endsWith(`${game.cells[0]}-${game.cells[1]} — Game of Life replay`), title);
    assert.equal(await page.locator('#back').count(), 0, 'no link back from a duel');
    assert.equal(await number(page, '#last-generation'), n);
    // It opens on the first generation with a live cell, not on the empty board before the first move.
    const counts = (await gameData(page)).counts;
    const first = counts.findIndex((c) => c[0] + c[1] > 0) + 1;
    assert.ok(first >= 1);
    await waitForGeneration(page, first);
    assert.deepEqual(await shownCells(page), counts[first - 1]);
    await page.click('#to-start');
    await waitForGeneration(page, 0);
    assert.deepEqual(await shownCells(page), [0, 0]);

    await page.selectOption('#speed', 'max');
    const started = Date.now();
    await page.click('#play');
    await waitForGeneration(page, n);
    const ms = Date.now() - started;
    // Reported, not asserted: how long a loaded machine takes says nothing of the page.
    t.diagnostic(`${n} generations of ${game.result.board.width}x${game.result.board.height} played in ${ms} ms`);

    assert.deepEqual(await shownCells(page), game.cells, 'the page\'s cells at the last generation are the runner\'s');
    assert.equal(await page.locator('#agreement').getAttribute('data-state'), 'ok');
    assert.match(await text(page, '#agreement'), /agrees/);
    await page.waitForFunction(() => document.getElementById('play').textContent === 'Play');
    assert.match(await text(page, '#result'), new RegExp(`${game.cells[0]}|${game.cells[1]}`));
    if (ARTIFACT_DIR) {
      await mkdir(ARTIFACT_DIR, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACT_DIR, 'viewer.png') });
    }
    assertClean(problems);
  });

  test('an address ending in #N opens on generation N, and a new #N shows that one', async () => {
    const { page, problems } = await openPage(browser, game.html, { hash: '#37' });
    try {
      const counts = (await gameData(page)).counts;
      await waitForGeneration(page, 37);
      assert.deepEqual(await shownCells(page), counts[36]);
      await page.evaluate(() => { window.location.hash = '#12'; });
      await waitForGeneration(page, 12);
      assert.deepEqual(await shownCells(page), counts[11]);
      assertClean(problems);
    } finally {
      await page.close();
    }
  });

  test('seeking, stepping and the keys show the generation asked for, with the runner\'s counts', async () => {
    const { page, problems } = opened;
    const n = game.result.generations;
    const data = await gameData(page);
    assert.equal(data.counts.length, n);
    const mid = Math.floor(n / 2) + 1;
    await page.locator('#seek').fill(String(mid));
    await waitForGeneration(page, mid);
    assert.deepEqual(await shownCells(page), data.counts[mid - 1]);

    await page.click('#step-forward');
    await waitForGeneration(page, mid + 1);
    assert.deepEqual(await shownCells(page), data.counts[mid]);
    await page.click('#step-back');
    await page.click('#step-back');
    await waitForGeneration(page, mid - 1);
    assert.deepEqual(await shownCells(page), data.counts[mid - 2]);

    await page.click('#to-start');
    await waitForGeneration(page, 0);
    assert.deepEqual(await shownCells(page), [0, 0]);
    await page.click('#to-end');
    await waitForGeneration(page, n);
    assert.deepEqual(await shownCells(page), game.cells);

    // The keys belong to the page, not to a focused control.
    const blur = () => page.evaluate(() => document.activeElement?.blur());
    await blur();
    await page.keyboard.press('Home');
    await waitForGeneration(page, 0);
    await page.keyboard.press('ArrowRight');
    await waitForGeneration(page, 1);
    await page.keyboard.press('End');
    await waitForGeneration(page, n);
    await page.keyboard.press('ArrowLeft');
    await waitForGeneration(page, n - 1);
    await page.selectOption('#speed', '1');
    await blur();
    await page.keyboard.press(' ');
    assert.equal(await text(page, '#play'), 'Pause');
    await page.keyboard.press(' ');
    assert.equal(await text(page, '#play'), 'Play');

    // A click on the chart's left edge goes to the start.
    const box = await page.locator('#chart').boundingBox();
    await page.mouse.click(box.x + 1, box.y + box.height / 2);
    await waitForGeneration(page, 0);
    assert.equal(await page.locator('#agreement').getAttribute('data-state'), 'ok');
    assertClean(problems);
  });

  test('zooming and panning change the picture; Fit brings it back', async () => {
    const { page, problems } = opened;
    await page.click('#to-end');
    await waitForGeneration(page, game.result.generations);
    const board = page.locator('#board');
    // The canvas's own pixels (the zoom buttons lie over it in a screenshot) once the frame that
    // draws the last change has run: the picture, and how many pixels lie off the board (the
    // corner pixel is off the board when the whole board is in sight).
    const shot = () => board.evaluate((canvas) => new Promise((resolve) => {
      requestAnimationFrame(() => requestAnimationFrame(() => {
        const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        let outside = 0;
        for (let i = 0; i < data.length; i += 4)
          if (data[i] === data[0] && data[i + 1] === data[1] && data[i + 2] === data[2]) outside++;
        resolve({ picture: canvas.toDataURL(), outside });
      }));
    }));
    const fitted = await shot();
    assert.ok(fitted.outside > 0, 'the fitted board leaves a margin');
    assert.equal(await page.evaluate(() => document.getElementById('board').getContext('2d').imageSmoothingEnabled), false);
    await page.click('#zoom-in');
    const zoomed = await shot();
    assert.ok(zoomed.outside < fitted.outside, `zoom-in shows less off the board (${zoomed.outside} < ${fitted.outside})`);
    const box = await board.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2 + 25, { steps: 4 });
    await page.mouse.up();
    assert.notEqual((await shot()).picture, zoomed.picture, 'dragging pans');
    await page.click('#zoom-fit');
    assert.equal((await shot()).picture, fitted.picture, 'Fit shows the board as at first');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, 300);
    const wheeledOut = await shot();
    assert.ok(wheeledOut.outside > fitted.outside, 'the wheel zooms out');
    await page.mouse.wheel(0, -600);
    assert.ok((await shot()).outside < wheeledOut.outside, 'and in');
    await page.click('#zoom-fit');
    await page.click('#zoom-out');
    assert.ok((await shot()).outside > fitted.outside, 'zoom-out from the fitted board shows more off it');
    await page.click('#zoom-fit');
    assertClean(problems);
  });

  test('runner replay --html writes the same game data as the duel', async (t) => {
    const html = path.join(game.dir, 'replay.html');
    await runner(['replay', game.replay, '--html', html]);
    const { page, problems } = await openPage(browser, html);
    t.after(() => page.close());
    assert.deepEqual(await gameData(page), await gameData(opened.page));
    await page.click('#to-end');
    await waitForGeneration(page, game.result.generations);
    assert.deepEqual(await shownCells(page), game.cells);
    assert.equal(await page.locator('#agreement').getAttribute('data-state'), 'ok');
    assertClean(problems);
  });
});

test('forfeited turns are marked on the timeline with their reason', async (t) => {
  const game = await duel((f) => t.after(f), bot('runner/testing/bots/crash.py'), bot('runner/testing/bots/block.py'),
    ['--width', '20', '--height', '20', '--generations', '30']);
  const { page, problems } = await openPage(browser, game.html);
  t.after(() => page.close());
  assert.ok(game.forfeits[0] > 0, 'the crashing bot forfeits');
  const marks = page.locator('#timeline .forfeit-mark');
  assert.equal(await marks.count(), game.forfeits[0] + game.forfeits[1]);
  for (const mark of await marks.all()) {
    assert.equal(await mark.getAttribute('data-seat'), '1');
    assert.match(await mark.getAttribute('data-tick'), /^\d+$/);
    assert.match(await mark.getAttribute('title'), new RegExp(`^tick ${await mark.getAttribute('data-tick')}, seat 1: signal: `));
  }
  // The reasons are on the page as text too, one line a forfeited turn.
  const name = Object.keys(game.result.seats).find((b) => game.result.seats[b] === 1);
  const lines = page.locator('#forfeit-list li');
  assert.equal(await lines.count(), game.forfeits[0] + game.forfeits[1]);
  assert.equal(await page.locator('#forfeits').isVisible(), true);
  const tick = Number(await lines.first().getAttribute('data-tick'));
  // A turn is named by its tick, as runner replay lists it and --board TICK takes it.
  assert.match(await lines.first().textContent(), new RegExp(`^Tick ${tick}: seat 1 \\(${name}\\) forfeited: killed by a signal \\(signal\\)`));
  const listing = await runner(['replay', game.replay]);
  assert.match(listing, new RegExp(`\\n    ticks? ${tick}(-\\d+)?, seat 1 \\(${name}\\): signal: `));
  // Clicking a line goes to its turn, whose forfeits are repeated under the board: the generation
  // its tick made.
  await lines.first().click();
  await waitForGeneration(page, tick + 1);
  assert.equal(await text(page, '#turn-tick'), `, after tick ${tick}`);
  assert.equal(await page.locator('#turn-forfeits').isVisible(), true);
  assert.equal(await text(page, '#turn-forfeits'), await lines.first().textContent());
  await page.click('#to-end');
  await waitForGeneration(page, game.result.generations);
  assert.deepEqual(await shownCells(page), game.cells);
  assert.equal(await page.locator('#agreement').getAttribute('data-state'), 'ok');
  assertClean(problems);
});

test('hostile bot names are shown as text, never run', async (t) => {
  const dir = await tempDir((f) => t.after(f));
  const names = ['<img src=x onerror=alert(1)>', '</script><script>alert(2)</script>'];
  const bots = [];
  for (const [i, name] of names.entries()) {
    const botDir = path.join(dir, `hostile${i + 1}`);
    await mkdir(botDir);
    await copyFile(bot('runner/testing/bots/block.py'), path.join(botDir, 'bot.py'));
    await writeFile(path.join(botDir, 'bot.json'), JSON.stringify({ name, run: ['python3', 'bot.py'] }));
    bots.push(botDir);
  }
  const game = await duel((f) => t.after(f), bots[0], bots[1], ['--width', '16', '--height', '16', '--generations', '10']);
  const { page, problems } = await openPage(browser, game.html);
  t.after(() => page.close());
  assert.equal(await page.evaluate(() => document.body.dataset.ready), '1');
  assert.equal(await text(page, '#name1'), names[0]);
  assert.equal(await text(page, '#name2'), names[1]);
  assert.ok((await page.title()).startsWith(`${names[0]} vs ${names[1]}: `));
  assert.equal(await page.evaluate(() => document.querySelectorAll('img, script:not(#game-data)').length), 1,
    'only the page\'s own script element');
  await page.click('#to-end');
  await waitForGeneration(page, game.result.generations);
  assert.deepEqual(await shownCells(page), game.cells);
  assertClean(problems);
});

test('a 1000x1000 game reaches its last generation, agreeing with the runner, and back to the middle from keyframes', async (t) => {
  // 300 generations: the middle is past several keyframes (every 64 generations on this board).
  const game = await duel((f) => t.after(f), bot('bots/gliders.cpp'), bot('bots/farmer'), ['--generations', '300', '--seed', '5']);
  const { page, problems } = await openPage(browser, game.html);
  t.after(() => page.close());
  const started = Date.now();
  await page.click('#to-end');
  await waitForGeneration(page, game.result.generations, 60_000);
  const ms = Date.now() - started;
  // Reported, not asserted: how long a loaded machine takes says nothing of the page.
  t.diagnostic(`to the end of ${game.result.generations} generations of 1000x1000 in ${ms} ms`);
  assert.deepEqual(await shownCells(page), game.cells);
  assert.equal(await page.locator('#agreement').getAttribute('data-state'), 'ok');
  // Back to the middle from the keyframes, without playing the game again from the start.
  const mid = Math.floor(game.result.generations / 2) + 7;
  await page.locator('#seek').fill(String(mid));
  await waitForGeneration(page, mid);
  assert.deepEqual(await shownCells(page), (await gameData(page)).counts[mid - 1]);
  assertClean(problems);
});

// Pages assembled by the test from made-up data, for what a real game cannot show.
describe('made-up game data', () => {
  // A blinker for seat 1 on a 5x5 board: 3 cells at every generation.
  const blinker = (counts) => ({
    header: { format: 'gol-replay', version: 1, rules: 'ppcg2016-1', width: 5, height: 5, generations: 4, seed: 1,
      time_limit_ms: 1000, bots: [{ name: 'one', seat: 1, hash: '0' }, { name: 'two', seat: 2, hash: '0' }] },
    moves: [[[[2, 1], [2, 2], [2, 3]], []], [[], []], [[], { forfeit: 'timeout', detail: 'no reply' }], [[], []]],
    result: { winner: 1, reason: 'generations', generations: 4, cells: [3, 0], forfeits: [0, 1] },
    counts,
  });

  async function open(t, data) {
    const file = path.join(await tempDir((f) => t.after(f)), 'page.html');
    await writeFile(file, await assemblePage(data));
    const opened = await openPage(browser, file);
    t.after(() => opened.page.close());
    return opened;
  }

  test('counts that agree are reported as agreeing', async (t) => {
    const { page, problems } = await open(t, blinker([[3, 0], [3, 0], [3, 0], [3, 0]]));
    // Opened on generation 1, the first with a live cell: that one is checked, the rest not yet.
    await waitForGeneration(page, 1);
    assert.equal(await text(page, '#agreement'), 'JS engine agrees with the runner (generations 1 to 1 of 4 checked)');
    await page.click('#to-end');
    await waitForGeneration(page, 4);
    assert.equal(await page.locator('#agreement').getAttribute('data-state'), 'ok');
    assert.equal(await text(page, '#agreement'), 'JS engine agrees with the runner on all 4 generations');
    assertClean(problems);
  });

  test('a runner count the page does not reach is reported as a mismatch', async (t) => {
    const { page, problems } = await open(t, blinker([[3, 0], [3, 0], [4, 0], [3, 0]]));
    await page.click('#to-end');
    await waitForGeneration(page, 4);
    assert.equal(await page.locator('#agreement').getAttribute('data-state'), 'mismatch');
    assert.equal(await text(page, '#agreement'), 'MISMATCH at generation 3: page 3-0, runner 4-0');
    assertClean(problems);
  });

  // The canvas's pixels of one colour once the frame that draws the last change has run.
  const pixelsOf = (page, hex) => page.locator('#board').evaluate((canvas, rgb) => new Promise((resolve) => {
    requestAnimationFrame(() => requestAnimationFrame(() => {
      const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i] === rgb[0] && data[i + 1] === rgb[1] && data[i + 2] === rgb[2]) n++;
      resolve(n);
    }));
  }), [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)));

  test('the cells placed in the shown generation\'s turn are outlined', async (t) => {
    const { page, problems } = await open(t, blinker([[3, 0], [3, 0], [3, 0], [3, 0]]));
    const placed = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--placed').trim());
    assert.match(placed, /^#[0-9a-f]{6}$/i);
    // It opens on generation 1, the first with a live cell; the empty board before it is a click away.
    await waitForGeneration(page, 1);
    await page.click('#to-start');
    await waitForGeneration(page, 0);
    assert.equal(await page.getAttribute('#board', 'data-placed'), '0', 'nothing placed before the first turn');
    assert.equal(await pixelsOf(page, placed), 0);
    await page.click('#step-forward');
    await waitForGeneration(page, 1);
    assert.equal(await page.getAttribute('#board', 'data-placed'), '3', 'seat 1\'s three cells of tick 0');
    assert.ok(await pixelsOf(page, placed) > 0, 'drawn in the marker\'s colour');
    await page.click('#step-forward');
    await waitForGeneration(page, 2);
    assert.equal(await page.getAttribute('#board', 'data-placed'), '0', 'a turn that placed nothing');
    assert.equal(await pixelsOf(page, placed), 0);
    assertClean(problems);
  });

  test('the cell under the pointer is shown as (y, x)', async (t) => {
    const { page, problems } = await open(t, blinker([[3, 0], [3, 0], [3, 0], [3, 0]]));
    const box = await page.locator('#board').boundingBox();
    assert.equal(await page.locator('#coords').isVisible(), false);
    // The fitted 5x5 board sits in the middle of the canvas: its middle is the middle cell.
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    assert.equal(await page.locator('#coords').isVisible(), true);
    assert.equal(await text(page, '#coords'), '(2, 2)');
    // One cell up and two right: the cell is as wide as (board height) / 5 at most.
    const cell = await page.locator('#board').evaluate((c) => Math.floor(Math.min(c.width, c.height) / 5) / (window.devicePixelRatio || 1));
    await page.mouse.move(box.x + box.width / 2 + 2 * cell, box.y + box.height / 2 - cell);
    assert.equal(await text(page, '#coords'), '(1, 4)');
    // Off the board (the canvas is wider than the square board) nothing is shown.
    await page.mouse.move(box.x + 2, box.y + box.height / 2);
    assert.equal(await page.locator('#coords').isVisible(), false);
    assertClean(problems);
  });

  test('forfeit reasons are written on the page, and the shown turn\'s under the board', async (t) => {
    const { page, problems } = await open(t, blinker([[3, 0], [3, 0], [3, 0], [3, 0]]));
    // Tick 2's moves: made on generation 2's board, they make generation 3.
    const line = 'Tick 2: seat 2 (two) forfeited: no reply within the time limit (timeout): no reply';
    assert.deepEqual(await page.locator('#forfeit-list li').allTextContents(), [line]);
    assert.equal(await page.locator('#forfeit-list li').isVisible(), true);
    assert.equal(await page.locator('#turn-forfeits').isVisible(), false);
    await page.locator('#seek').fill('3');
    await waitForGeneration(page, 3);
    assert.equal(await page.locator('#turn-forfeits').isVisible(), true);
    assert.equal(await text(page, '#turn-forfeits'), line);
    assert.equal(await page.getAttribute('#forfeit-list li', 'class'), 'seat2 current');
    assert.equal(await text(page, '#turn-tick'), ', after tick 2');
    await page.click('#step-forward');
    await waitForGeneration(page, 4);
    assert.equal(await page.locator('#turn-forfeits').isVisible(), false);
    assertClean(problems);
  });

  test('a league\'s game links back to its leaderboard; no other address is taken', async (t) => {
    const { page, problems } = await open(t, { ...blinker([[3, 0], [3, 0], [3, 0], [3, 0]]), leaderboard: '../leaderboard.html' });
    assert.equal(await page.getAttribute('#back', 'href'), '../leaderboard.html');
    assert.equal(await page.locator('#back').isVisible(), true);
    assert.equal(await page.title(), 'one vs two: one wins 3-0 — Game of Life replay');
    for (const address of ['javascript:alert(1)', '//example.com/x', 42]) {
      const other = await open(t, { ...blinker([[3, 0], [3, 0], [3, 0], [3, 0]]), leaderboard: address });
      assert.equal(await other.page.locator('#back').count(), 0, `no link to ${address}`);
      assertClean(other.problems);
    }
    assertClean(problems);
  });

  test('hostile forfeit details stay text in the mark\'s title', async (t) => {
    const data = blinker([[3, 0], [3, 0], [3, 0], [3, 0]]);
    const detail = '</script><img src=x onerror=alert(1)> & "quotes"';
    data.moves[2][1] = { forfeit: 'not_json', detail };
    data.header.bots[0].name = '<script>alert(1)</script>';
    const { page, problems } = await open(t, data);
    assert.equal(await page.locator('.forfeit-mark').getAttribute('title'), `tick 2, seat 2: not_json: ${detail}`);
    assert.equal(await text(page, '#name1'), '<script>alert(1)</script>');
    assert.equal(await text(page, '#forfeit-list li'), `Tick 2: seat 2 (two) forfeited: the reply was not JSON (not_json): ${detail}`);
    assert.equal(await page.evaluate(() => document.querySelectorAll('img').length), 0);
    assertClean(problems);
  });

  test('data that cannot be read is reported, not thrown', async (t) => {
    for (const [data, message] of [['{"header": ', /not JSON/], [{ header: { width: 0, height: 5 } }, /width/],
      [{ ...blinker([]), moves: [] }, /ticks do not make 4 generations/]]) {
      const { page, problems } = await open(t, data);
      assert.equal(await page.evaluate(() => document.body.dataset.ready), 'error');
      assert.equal(await page.locator('#error').isVisible(), true);
      assert.match(await text(page, '#error'), message);
      assertClean(problems);
    }
  });
});

test('the assets hold nothing that could end their element early', async () => {
  for (const name of ['viewer.css', 'life.js', 'viewer.js']) {
    const content = await readFile(path.join(REPO_DIR, 'runner/report/viewer', name), 'utf8');
    for (const bad of ['</script', '</style', '<!--']) assert.ok(!content.toLowerCase().includes(bad), `${name} holds ${bad}`);
  }
  const html = await readFile(path.join(REPO_DIR, 'runner/report/viewer/viewer.html'), 'utf8');
  for (const slot of ['/*@STYLE@*/', '@GAME_DATA@', '/*@SCRIPT@*/'])
    assert.equal(html.split(slot).length, 2, `viewer.html holds ${slot} once`);
});
