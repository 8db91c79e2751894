// The two-player Game of Life of docs/rules.md (rules ppcg2016-1) and the replay of a recorded
// game with keyframes. A classic script: the viewer page concatenates it before viewer.js, and
// node loads it through module.exports (runner/report/tests/browser/life.test.mjs).
const GolLife = (() => {
  'use strict';

  const MAX_SIDE = 4096;

  function popcount(v) {
    v -= (v >>> 1) & 0x55555555;
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
    return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
  }

  // A player's next word from the rows' sums (RowSums: low and high bits of each count) above,
  // here and below, its live cells `c` and `free`, the cells where it may be born. Counted over
  // the 3x3 block including the cell itself: a live cell with 2 or 3 neighbours has 3 or 4 here,
  // an empty cell with 3 has 3.
  function nextWord(l1, l2, l3, h1, h2, h3, c, free) {
    const x = l1 ^ l2;
    const bit0 = x ^ l3;
    const carry = (l1 & l2) | (l3 & x);
    const p = h1 ^ h2;
    const q = h3 ^ carry;
    const twos = p ^ q;
    const fours = (h1 & h2) ^ (h3 & carry) ^ (p & q);
    return (bit0 & twos & ~fours & (c | free)) | (c & ~bit0 & ~twos & fours);
  }

  // One input row's horizontal sums for both players: for each cell, the count (lo, hi bits) of
  // live cells among itself and its left and right neighbours, and whether any of them is live.
  // Words outside [lo, hi) are zero, so the vertical pass reads them without bounds checks.
  class RowSums {
    constructor(words) {
      this.loA = new Int32Array(words);
      this.hiA = new Int32Array(words);
      this.orA = new Int32Array(words);
      this.loB = new Int32Array(words);
      this.hiB = new Int32Array(words);
      this.orB = new Int32Array(words);
      this.lo = 0;
      this.hi = 0;
    }

    clear() {
      if (this.lo >= this.hi) return;
      for (const a of [this.loA, this.hiA, this.orA, this.loB, this.hiB, this.orB]) a.fill(0, this.lo, this.hi);
      this.lo = this.hi = 0;
    }

    // Sums of row y of planes a and b (words per row `words`) over its live words [from, to),
    // which reach one word further on each side.
    load(a, b, y, words, from, to) {
      this.clear();
      if (from >= to) return;
      const lo = Math.max(0, from - 1);
      const hi = Math.min(words, to + 1);
      const base = y * words;
      let pa = lo > 0 ? a[base + lo - 1] : 0;
      let pb = lo > 0 ? b[base + lo - 1] : 0;
      let wa = a[base + lo];
      let wb = b[base + lo];
      for (let k = lo; k < hi; k++) {
        const last = k + 1 >= words;
        const na = last ? 0 : a[base + k + 1];
        const nb = last ? 0 : b[base + k + 1];
        // Bit i of a word is column 32k + i: a cell's west neighbour is bit i - 1.
        const westA = (wa << 1) | (pa >>> 31);
        const eastA = (wa >>> 1) | (na << 31);
        const westB = (wb << 1) | (pb >>> 31);
        const eastB = (wb >>> 1) | (nb << 31);
        const xa = westA ^ wa;
        const xb = westB ^ wb;
        this.loA[k] = xa ^ eastA;
        this.hiA[k] = (westA & wa) | (eastA & xa);
        this.orA[k] = westA | wa | eastA;
        this.loB[k] = xb ^ eastB;
        this.hiB[k] = (westB & wb) | (eastB & xb);
        this.orB[k] = westB | wb | eastB;
        pa = wa;
        pb = wb;
        wa = na;
        wb = nb;
      }
      this.lo = lo;
      this.hi = hi;
    }
  }

  // A board of width x height cells, 32 cells a word, one bit plane per player. Each row keeps
  // the range of its words that may be live, so a step skips empty rows and the empty ends of
  // rows along with their neighbours. An empty row's range is [words, 0): min and max widen it.
  class Board {
    constructor(width, height) {
      if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 ||
          width > MAX_SIDE || height > MAX_SIDE)
        throw new RangeError(`a board is 1..${MAX_SIDE} cells a side, not ${width}x${height}`);
      this.width = width;
      this.height = height;
      this.words = (width + 31) >>> 5;
      this.lastMask = width % 32 === 0 ? -1 : (1 << (width % 32)) - 1;
      this.a = new Int32Array(this.words * height);
      this.b = new Int32Array(this.words * height);
      this.rowLo = new Int32Array(height).fill(this.words);
      this.rowHi = new Int32Array(height);
      // The buffers the next step writes, swapped with the current ones afterwards.
      this.nextA = new Int32Array(this.words * height);
      this.nextB = new Int32Array(this.words * height);
      this.nextLo = new Int32Array(height);
      this.nextHi = new Int32Array(height);
      this.sums = [new RowSums(this.words), new RowSums(this.words), new RowSums(this.words)];
      this.population = [0, 0];
    }

    // 0 for an empty cell or one off the board, else the player (1 or 2) whose cell it is.
    get(y, x) {
      if (y < 0 || y >= this.height || x < 0 || x >= this.width) return 0;
      const i = y * this.words + (x >>> 5);
      const bit = 1 << (x & 31);
      if (this.a[i] & bit) return 1;
      if (this.b[i] & bit) return 2;
      return 0;
    }

    // Brings the [y, x] cells alive for `player`; cells off the board or already live are
    // skipped, as the runner does.
    place(player, cells) {
      const plane = player === 1 ? this.a : this.b;
      for (const cell of cells) {
        const y = cell[0];
        const x = cell[1];
        if (!Number.isInteger(y) || !Number.isInteger(x)) continue;
        if (y < 0 || y >= this.height || x < 0 || x >= this.width || this.get(y, x) !== 0) continue;
        const k = x >>> 5;
        plane[y * this.words + k] |= 1 << (x & 31);
        this.population[player - 1]++;
        this.rowLo[y] = Math.min(this.rowLo[y], k);
        this.rowHi[y] = Math.max(this.rowHi[y], k + 1);
      }
    }

    // One generation of the whole board at once.
    step() {
      const { words, height, a, b, nextA, nextB, nextLo, nextHi, rowLo, rowHi } = this;
      const sums = this.sums;
      for (const s of sums) s.clear();
      // sums[(r + 3) % 3] holds row r; row -1 is off the board and stays empty.
      sums[0].load(a, b, 0, words, rowLo[0], rowHi[0]);
      let popA = 0;
      let popB = 0;
      for (let y = 0; y < height; y++) {
        const below = sums[(y + 1) % 3];
        if (y + 1 < height) below.load(a, b, y + 1, words, rowLo[y + 1], rowHi[y + 1]);
        else below.clear();
        const above = sums[(y + 2) % 3];
        const here = sums[y % 3];
        const base = y * words;
        if (nextLo[y] < nextHi[y]) {
          nextA.fill(0, base + nextLo[y], base + nextHi[y]);
          nextB.fill(0, base + nextLo[y], base + nextHi[y]);
        }
        let lo = words;
        let hi = 0;
        for (const s of [above, here, below]) {
          if (s.lo < s.hi) {
            lo = Math.min(lo, s.lo);
            hi = Math.max(hi, s.hi);
          }
        }
        let first = words;
        let last = -1;
        for (let k = lo; k < hi; k++) {
          const i = base + k;
          const ca = a[i];
          const cb = b[i];
          // Any live cell of a player in the block: it blocks the other player's births there
          // (and an enemy cell in the middle is no empty cell to be born in).
          const anyA = above.orA[k] | here.orA[k] | below.orA[k];
          const anyB = above.orB[k] | here.orB[k] | below.orB[k];
          let na = nextWord(above.loA[k], here.loA[k], below.loA[k], above.hiA[k], here.hiA[k], below.hiA[k], ca, ~anyB);
          let nb = nextWord(above.loB[k], here.loB[k], below.loB[k], above.hiB[k], here.hiB[k], below.hiB[k], cb, ~anyA);
          if (k === words - 1) {
            na &= this.lastMask;
            nb &= this.lastMask;
          }
          nextA[i] = na;
          nextB[i] = nb;
          if (na | nb) {
            if (first === words) first = k;
            last = k;
            if (na) popA += popcount(na);
            if (nb) popB += popcount(nb);
          }
        }
        nextLo[y] = first;
        nextHi[y] = last + 1;
      }
      this.a = nextA;
      this.b = nextB;
      this.nextA = a;
      this.nextB = b;
      this.rowLo = nextLo;
      this.rowHi = nextHi;
      this.nextLo = rowLo;
      this.nextHi = rowHi;
      this.population = [popA, popB];
    }

    // The live words of each row, copied: compact for sparse boards.
    snapshot() {
      let size = 0;
      for (let y = 0; y < this.height; y++) size += Math.max(0, this.rowHi[y] - this.rowLo[y]);
      const a = new Int32Array(size);
      const b = new Int32Array(size);
      let at = 0;
      for (let y = 0; y < this.height; y++) {
        const n = this.rowHi[y] - this.rowLo[y];
        if (n <= 0) continue;
        const from = y * this.words + this.rowLo[y];
        a.set(this.a.subarray(from, from + n), at);
        b.set(this.b.subarray(from, from + n), at);
        at += n;
      }
      return { a, b, rowLo: this.rowLo.slice(), rowHi: this.rowHi.slice(), population: this.population.slice() };
    }

    restore(snap) {
      this.a.fill(0);
      this.b.fill(0);
      let at = 0;
      for (let y = 0; y < this.height; y++) {
        const n = snap.rowHi[y] - snap.rowLo[y];
        if (n <= 0) continue;
        const to = y * this.words + snap.rowLo[y];
        this.a.set(snap.a.subarray(at, at + n), to);
        this.b.set(snap.b.subarray(at, at + n), to);
        at += n;
      }
      this.rowLo.set(snap.rowLo);
      this.rowHi.set(snap.rowHi);
      this.population = snap.population.slice();
    }
  }

  // Keyframes are kept every `interval` generations, at most about this many bytes of them for
  // a board that is full everywhere (sparse boards take less).
  const KEYFRAME_BUDGET = 256 * 1024 * 1024;
  const MIN_INTERVAL = 64;

  function keyframeInterval(board, generations) {
    const bytes = board.words * board.height * 8;
    return Math.max(MIN_INTERVAL, Math.ceil((generations * bytes) / KEYFRAME_BUDGET));
  }

  // A recorded game (the viewer's game data) played on a Board. Tick t places seat 1's move,
  // then seat 2's, then computes generation t + 1. Forfeited turns place nothing.
  class Replay {
    constructor(header, moves, generations) {
      this.board = new Board(header.width, header.height);
      this.moves = moves;
      this.generations = generations;
      this.generation = 0;
      this.interval = keyframeInterval(this.board, generations);
      this.keyframes = [this.board.snapshot()];
    }

    // The next generation, keeping a keyframe when it is due.
    advance() {
      const tick = this.moves[this.generation];
      for (let seat = 1; seat <= 2; seat++) {
        const move = tick[seat - 1];
        if (Array.isArray(move)) this.board.place(seat, move);
      }
      this.board.step();
      this.generation++;
      if (this.generation === this.keyframes.length * this.interval) this.keyframes.push(this.board.snapshot());
    }

    // Moves to the best starting point for reaching generation g by advancing: the latest
    // keyframe at or before g, unless the board is already between it and g.
    rewindFor(g) {
      const i = Math.min(Math.floor(g / this.interval), this.keyframes.length - 1);
      const at = i * this.interval;
      if (this.generation > g || this.generation < at) {
        this.board.restore(this.keyframes[i]);
        this.generation = at;
      }
    }

    // Reaches generation g at once (the viewer spreads long walks over frames instead).
    seek(g) {
      this.rewindFor(g);
      while (this.generation < g) this.advance();
    }
  }

  return { Board, Replay, popcount, MAX_SIDE };
})();

if (typeof module !== 'undefined') module.exports = GolLife;
