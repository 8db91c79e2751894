// The viewer's JavaScript engine (runner/report/viewer/life.js) against a plain cell-by-cell reference
// of docs/rules.md, on random boards, and on a few patterns whose behaviour is known.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Board, Replay, popcount } = require('../../viewer/life.js');

// The reference: one byte a cell, 0 empty, 1 or 2 the player.
class NaiveBoard {
  constructor(width, height) {
    this.width = width;
    this.height = height;
    this.cells = new Uint8Array(width * height);
  }

  get(y, x) {
    if (y < 0 || y >= this.height || x < 0 || x >= this.width) return 0;
    return this.cells[y * this.width + x];
  }

  place(player, cells) {
    for (const [y, x] of cells) {
      if (y < 0 || y >= this.height || x < 0 || x >= this.width) continue;
      if (this.cells[y * this.width + x] === 0) this.cells[y * this.width + x] = player;
    }
  }

  step() {
    const next = new Uint8Array(this.cells.length);
    for (let y = 0; y < this.height; y++) {
      for (let x = 0; x < this.width; x++) {
        const n = [0, 0, 0];
        for (let dy = -1; dy <= 1; dy++)
          for (let dx = -1; dx <= 1; dx++) if (dy || dx) n[this.get(y + dy, x + dx)]++;
        const c = this.get(y, x);
        let v = 0;
        if (c !== 0) v = n[c] === 2 || n[c] === 3 ? c : 0;
        else if (n[1] === 3 && n[2] === 0) v = 1;
        else if (n[2] === 3 && n[1] === 0) v = 2;
        next[y * this.width + x] = v;
      }
    }
    this.cells = next;
  }

  population(player) {
    return this.cells.reduce((s, c) => s + (c === player ? 1 : 0), 0);
  }
}

// A small deterministic generator, so a failure can be reproduced from its seed.
function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x100000000;
  };
}

function randomCells(random, width, height, count) {
  const cells = [];
  for (let i = 0; i < count; i++)
    cells.push([Math.floor(random() * height), Math.floor(random() * width)]);
  return cells;
}

// Cells near the four edges and in the corners, where the word boundaries and the board's end
// matter most.
function edgeCells(random, width, height, count) {
  const cells = [];
  for (let i = 0; i < count; i++) {
    const y = random() < 0.5 ? Math.floor(random() * Math.min(3, height)) : height - 1 - Math.floor(random() * Math.min(3, height));
    const x = random() < 0.5 ? Math.floor(random() * Math.min(3, width)) : width - 1 - Math.floor(random() * Math.min(3, width));
    cells.push(random() < 0.5 ? [y, Math.floor(random() * width)] : [Math.floor(random() * height), x]);
  }
  return cells;
}

function assertSame(board, naive, context) {
  for (let y = 0; y < naive.height; y++)
    for (let x = 0; x < naive.width; x++) {
      const want = naive.get(y, x);
      const got = board.get(y, x);
      if (got !== want) assert.fail(`${context}: cell (${y}, ${x}) is ${got}, the reference says ${want}`);
    }
  assert.deepEqual(board.population, [naive.population(1), naive.population(2)], `${context}: populations`);
}

const SIZES = [
  [1, 1], [1, 7], [7, 1], [1, 40], [40, 1], [2, 2], [3, 3], [5, 9], [31, 4], [32, 5], [33, 6],
  [63, 8], [64, 7], [65, 9], [95, 3], [96, 12], [97, 11], [31, 31], [32, 32], [33, 33], [40, 17],
  [17, 40], [100, 3], [128, 20], [129, 21],
];

test('the engine matches the reference on random boards, cell by cell', () => {
  let cases = 0;
  for (const [width, height] of SIZES) {
    for (const density of [0.15, 0.35, 0.6]) {
      const seed = width * 7919 + height * 104729 + Math.round(density * 100);
      const random = rng(seed);
      const board = new Board(width, height);
      const naive = new NaiveBoard(width, height);
      const count = Math.max(1, Math.round(width * height * density));
      for (let gen = 0; gen < 12; gen++) {
        // Placements between steps too, as in a game, now and then with edge cells.
        if (gen % 4 === 0) {
          for (const player of [1, 2]) {
            const cells = gen === 0 ? randomCells(random, width, height, count)
                                    : edgeCells(random, width, height, Math.ceil(count / 4));
            board.place(player, cells);
            naive.place(player, cells);
          }
          assertSame(board, naive, `${width}x${height} density ${density} after placing, generation ${gen}`);
        }
        board.step();
        naive.step();
        assertSame(board, naive, `${width}x${height} density ${density} generation ${gen + 1}`);
      }
      cases++;
    }
  }
  assert.equal(cases, SIZES.length * 3);
});

test('placing skips cells off the board, cells already live and cells named twice', () => {
  const board = new Board(10, 6);
  board.place(1, [[0, 0], [0, 0], [-1, 3], [6, 0], [0, 10], [5, 9]]);
  board.place(2, [[0, 0], [5, 9], [2, 2]]);
  assert.deepEqual(board.population, [2, 1]);
  assert.equal(board.get(0, 0), 1);
  assert.equal(board.get(5, 9), 1);
  assert.equal(board.get(2, 2), 2);
});

test('a blinker has period 2', () => {
  const board = new Board(5, 5);
  board.place(1, [[2, 1], [2, 2], [2, 3]]);
  board.step();
  assert.deepEqual([board.get(1, 2), board.get(2, 2), board.get(3, 2), board.get(2, 1), board.get(2, 3)], [1, 1, 1, 0, 0]);
  board.step();
  assert.deepEqual([board.get(2, 1), board.get(2, 2), board.get(2, 3), board.get(1, 2), board.get(3, 2)], [1, 1, 1, 0, 0]);
  assert.deepEqual(board.population, [3, 0]);
});

test('a glider moves one cell diagonally every 4 generations, across word boundaries', () => {
  const glider = [[0, 1], [1, 2], [2, 0], [2, 1], [2, 2]];
  const board = new Board(80, 80);
  board.place(2, glider.map(([y, x]) => [y + 1, x + 25]));
  for (let n = 1; n <= 10; n++) {
    for (let i = 0; i < 4; i++) board.step();
    for (let y = 0; y < 80; y++)
      for (let x = 0; x < 80; x++) {
        const want = glider.some(([gy, gx]) => gy + 1 + n === y && gx + 25 + n === x) ? 2 : 0;
        if (board.get(y, x) !== want) assert.fail(`after ${4 * n} generations: cell (${y}, ${x}) is ${board.get(y, x)}`);
      }
  }
  assert.deepEqual(board.population, [0, 5]);
});

test('an enemy neighbour blocks a birth; enemy neighbours do not count for survival', () => {
  // Three cells of player 1 around (1, 1) would give it a birth.
  const free = new Board(6, 6);
  free.place(1, [[0, 0], [0, 1], [0, 2]]);
  free.step();
  assert.equal(free.get(1, 1), 1);

  const blocked = new Board(6, 6);
  blocked.place(1, [[0, 0], [0, 1], [0, 2]]);
  blocked.place(2, [[2, 1]]);
  blocked.step();
  assert.equal(blocked.get(1, 1), 0);

  // A lone player-1 cell among three enemy cells still dies of loneliness.
  const lonely = new Board(6, 6);
  lonely.place(1, [[2, 2]]);
  lonely.place(2, [[1, 1], [1, 2], [1, 3]]);
  lonely.step();
  assert.equal(lonely.get(2, 2), 0);
});

test('popcount counts the bits of a 32-bit word', () => {
  assert.equal(popcount(0), 0);
  assert.equal(popcount(-1), 32);
  assert.equal(popcount(0x80000001 | 0), 2);
  assert.equal(popcount(0x0f0f0f0f), 16);
});

test('a replay seeks backwards and forwards through keyframes to the same boards', () => {
  const random = rng(99);
  const width = 70;
  const height = 50;
  const generations = 300;
  const moves = [];
  for (let t = 0; t < generations; t++) {
    const m1 = t % 7 === 3 ? { forfeit: 'timeout', detail: 'x' } : randomCells(random, width, height, 20);
    moves.push([m1, randomCells(random, width, height, 20)]);
  }
  const header = { width, height };
  // Straight through, with the reference, every generation's board remembered.
  const naive = new NaiveBoard(width, height);
  const boards = [naive.cells.slice()];
  for (const [m1, m2] of moves) {
    if (Array.isArray(m1)) naive.place(1, m1);
    naive.place(2, m2);
    naive.step();
    boards.push(naive.cells.slice());
  }
  const replay = new Replay(header, moves, generations);
  assert.equal(replay.interval, 64);
  for (const g of [300, 0, 129, 128, 5, 250, 64, 63, 299, 1]) {
    replay.seek(g);
    assert.equal(replay.generation, g);
    naive.cells = boards[g];
    assertSame(replay.board, naive, `seek to ${g}`);
  }
  assert.equal(replay.keyframes.length, 5);
});
