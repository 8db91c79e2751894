// The replay viewer: reads the game data the runner wrote into the page, rebuilds every board
// with GolLife (life.js) and draws the board, the chart of live cells and the forfeits. Bot
// names and forfeit details are hostile text: they only ever reach the DOM as text.
(() => {
  'use strict';

  const FRAME_BUDGET_MS = 12;
  const MAX_CELL_PX = 64;
  const GRID_FROM_PX = 8;
  // Each forfeit reason in words (docs/replay.md), shown before the runner's detail.
  const FORFEITS = new Map([
    ['timeout', 'no reply within the time limit'],
    ['signal', 'killed by a signal'],
    ['exit_status', 'exited with an error status'],
    ['output_cap', 'printed more than the output cap'],
    ['not_json', 'the reply was not JSON'],
    ['not_pairs', 'the reply was not a list of [y, x] pairs'],
    ['non_integer', 'a coordinate was not a whole number'],
    ['too_many_cells', 'more than 30 cells'],
    ['could_not_start', 'the program could not be started'],
    ['board_too_large', 'the board was too large to deliver'],
    ['protocol', 'broke the line protocol'],
    ['gave_up', 'restarted too often and sits the game out'],
    ['resource_limit', 'hit a resource limit'],
    ['disconnected', 'was disconnected from the arena, and lost'],
    ['time_bank', 'its time bank for the game was spent: not run'],
  ]);

  const $ = (id) => document.getElementById(id);
  const dpr = () => window.devicePixelRatio || 1;
  const isPair = (c) => Array.isArray(c) && c.length === 2 && Number.isInteger(c[0]) && Number.isInteger(c[1]);

  class DataError extends Error {}

  function readData() {
    const element = $('game-data');
    if (!element) throw new DataError('the page holds no game data');
    let data;
    try {
      data = JSON.parse(element.textContent);
    } catch (e) {
      throw new DataError(`the game data is not JSON (${e.message})`);
    }
    validate(data);
    return data;
  }

  function isMove(move) {
    if (Array.isArray(move)) return move.every(isPair);
    return move !== null && typeof move === 'object' && typeof move.forfeit === 'string';
  }

  // Everything the viewer relies on, so a damaged page says what is wrong instead of failing
  // half way through a game.
  function validate(data) {
    const fail = (what) => { throw new DataError(`the game data is not a replay: ${what}`); };
    if (data === null || typeof data !== 'object') fail('it is not an object');
    const { header, moves, result } = data;
    if (header === null || typeof header !== 'object') fail('it has no header');
    for (const side of ['width', 'height']) {
      const n = header[side];
      if (!Number.isInteger(n) || n < 1 || n > GolLife.MAX_SIDE) fail(`the ${side} is not a whole number from 1 to ${GolLife.MAX_SIDE}`);
    }
    if (!Array.isArray(header.bots) || header.bots.length !== 2) fail('it does not name two bots');
    if (!Array.isArray(moves)) fail('it has no list of moves');
    moves.forEach((tick, t) => {
      if (!Array.isArray(tick) || tick.length !== 2 || !isMove(tick[0]) || !isMove(tick[1]))
        fail(`tick ${t} is not a pair of moves`);
    });
    if (result === null || typeof result !== 'object') fail('it has no result');
    const n = result.generations;
    if (!Number.isInteger(n) || n < 0 || n > moves.length) fail(`its ${moves.length} ticks do not make ${n} generations`);
  }

  // The runner's count for each generation 1..N, or null when the page does not hold them all.
  function runnerCounts({ counts, result }) {
    return Array.isArray(counts) && counts.length === result.generations && counts.every(isPair) ? counts : null;
  }

  function botName(header, seat) {
    const bot = header.bots.find((b) => b && b.seat === seat) || header.bots[seat - 1];
    return bot && bot.name !== undefined ? String(bot.name) : `seat ${seat}`;
  }

  // The result as a sentence, and in a few words for the page's title.
  function describeResult(result, names) {
    const n = result.generations;
    const cells = Array.isArray(result.cells) ? result.cells : [];
    const forfeits = Array.isArray(result.forfeits) ? result.forfeits : [0, 0];
    const w = result.winner;
    let text;
    let short;
    if (w === 1 || w === 2) {
      const how = result.reason === 'extinction' ? `by extinction at generation ${n}`
        : result.reason === 'forfeit' ? `by forfeit at generation ${n}, the other side disconnected`
        : result.reason === 'clock' ? `on cells when the clock ran out, after ${n} generations`
        : `on cells after ${n} generations`;
      text = `${names[w - 1]} (seat ${w}) wins ${how}: ${cells[w - 1]} cells to ${cells[2 - w]}.`;
      short = `${names[w - 1]} wins ${cells.join('-')}`;
    } else {
      text = `Draw after ${n} generations: ${cells[0]} cells to ${cells[1]}.`;
      short = `draw ${cells.join('-')}`;
    }
    if (forfeits[0] || forfeits[1]) text += ` Forfeited turns: ${forfeits[0]} (seat 1), ${forfeits[1]} (seat 2).`;
    return { text, short };
  }

  // A league's game links back to the leaderboard. Only an address relative to the page is
  // taken, so the data cannot make a link to another scheme (javascript:).
  function linkBack(address) {
    if (typeof address !== 'string' || address === '' || /^[a-z][a-z0-9+.-]*:|^[/\\]{2}/i.test(address)) return;
    const link = document.createElement('a');
    link.id = 'back';
    link.className = 'back';
    link.href = address;
    link.textContent = '\u2190 League table';
    document.querySelector('header.top').prepend(link);
  }

  // The page's colours from its style sheet (viewer.css: hex, but the grid's), so board and chart
  // match the names.
  function palette() {
    const style = getComputedStyle(document.documentElement);
    const names = ['seat1', 'seat2', 'board', 'outside', 'grid', 'muted', 'placed'];
    return Object.fromEntries(names.map((name) => [name, style.getPropertyValue(`--${name}`).trim()]));
  }

  // "#rrggbb" as one ImageData pixel read through a Uint32Array (little-endian: ABGR).
  function pixel(hex) {
    const n = parseInt(hex.slice(1), 16);
    return (0xff000000 | ((n & 0xff) << 16) | (n & 0xff00) | ((n >>> 16) & 0xff)) >>> 0;
  }

  function canvasSize(canvas) {
    const width = Math.max(1, Math.round(canvas.clientWidth * dpr()));
    const height = Math.max(1, Math.round(canvas.clientHeight * dpr()));
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
    }
  }

  // The visible cells at one pixel a cell, drawn scaled without smoothing. Zoomed out below a
  // pixel a cell, one pixel stands for a block of cells and is lit by any live cell in it, so
  // nothing disappears. `scale` is canvas pixels per cell; (ox, oy) is where the board's corner
  // lands.
  class BoardView {
    constructor(canvas, board, colors) {
      this.canvas = canvas;
      this.context = canvas.getContext('2d');
      this.board = board;
      this.colors = colors;
      this.ink = { empty: pixel(colors.board), seat1: pixel(colors.seat1), seat2: pixel(colors.seat2) };
      this.region = document.createElement('canvas');
      this.regionContext = this.region.getContext('2d');
      this.image = null;
      this.pixels = null;
      this.scale = 1;
      this.ox = 0;
      this.oy = 0;
      this.fitted = true;
      this.placed = [];
    }

    fitScale() {
      return Math.min(this.canvas.width / this.board.width, this.canvas.height / this.board.height);
    }

    resize() {
      canvasSize(this.canvas);
      if (this.fitted) this.fit();
      else this.clampPan();
    }

    fit() {
      const { width, height } = this.canvas;
      // Whole pixels a cell when they are large enough to see, so every cell is the same size.
      const scale = this.fitScale();
      this.scale = scale >= 2 ? Math.floor(scale) : scale;
      this.ox = (width - this.board.width * this.scale) / 2;
      this.oy = (height - this.board.height * this.scale) / 2;
      this.fitted = true;
    }

    // Zooms keeping the board point under canvas pixel (px, py) where it is.
    zoomAt(px, py, factor) {
      const scale = Math.min(MAX_CELL_PX, Math.max(this.fitScale() / 2, this.scale * factor));
      this.ox = px - ((px - this.ox) * scale) / this.scale;
      this.oy = py - ((py - this.oy) * scale) / this.scale;
      this.scale = scale;
      this.fitted = false;
      this.clampPan();
    }

    panBy(dx, dy) {
      this.ox += dx;
      this.oy += dy;
      this.fitted = false;
      this.clampPan();
    }

    // Keeps a margin of the board in sight, so it cannot be dragged away and lost.
    clampPan() {
      const margin = Math.min(64, this.canvas.width / 4, this.canvas.height / 4);
      const w = this.board.width * this.scale;
      const h = this.board.height * this.scale;
      this.ox = Math.min(this.canvas.width - margin, Math.max(margin - w, this.ox));
      this.oy = Math.min(this.canvas.height - margin, Math.max(margin - h, this.oy));
    }

    draw() {
      const { context: ctx, canvas, board, scale, ox, oy } = this;
      ctx.fillStyle = this.colors.outside;
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      const x0 = Math.max(0, Math.floor(-ox / scale));
      const y0 = Math.max(0, Math.floor(-oy / scale));
      const x1 = Math.min(board.width, Math.ceil((canvas.width - ox) / scale));
      const y1 = Math.min(board.height, Math.ceil((canvas.height - oy) / scale));
      if (x0 >= x1 || y0 >= y1) return;
      const block = scale < 1 ? Math.ceil(1 / scale) : 1;
      const w = Math.ceil((x1 - x0) / block);
      const h = Math.ceil((y1 - y0) / block);
      if (!this.image || this.image.width !== w || this.image.height !== h) {
        this.image = new ImageData(w, h);
        this.pixels = new Uint32Array(this.image.data.buffer);
        this.region.width = w;
        this.region.height = h;
      }
      this.paint(x0, y0, x1, y1, block);
      this.regionContext.putImageData(this.image, 0, 0);
      ctx.imageSmoothingEnabled = false;
      const size = block * scale;
      ctx.drawImage(this.region, 0, 0, w, h, ox + x0 * scale, oy + y0 * scale, w * size, h * size);
      if (scale >= GRID_FROM_PX) this.drawGrid(x0, y0, x1, y1);
      this.drawPlaced();
    }

    // The board cell [y, x] under canvas pixel (px, py), or null off the board.
    cellAt(px, py) {
      const x = Math.floor((px - this.ox) / this.scale);
      const y = Math.floor((py - this.oy) / this.scale);
      return x >= 0 && x < this.board.width && y >= 0 && y < this.board.height ? [y, x] : null;
    }

    // An outline round each cell placed in the shown generation's turn (`placed`: lists of
    // [y, x]), at least a few pixels wide so it shows on a zoomed-out board too. The canvas's
    // data-placed says how many were drawn.
    drawPlaced() {
      const { context: ctx, scale, ox, oy, board } = this;
      const size = Math.max(scale, 5 * dpr());
      let drawn = 0;
      ctx.beginPath();
      for (const cells of this.placed) {
        for (const [y, x] of cells) {
          if (!(y >= 0 && y < board.height && x >= 0 && x < board.width)) continue;
          const left = Math.round(ox + (x + 0.5) * scale - size / 2);
          const top = Math.round(oy + (y + 0.5) * scale - size / 2);
          ctx.rect(left + 0.5, top + 0.5, Math.round(size) - 1, Math.round(size) - 1);
          drawn++;
        }
      }
      ctx.strokeStyle = this.colors.placed;
      ctx.lineWidth = 1;
      ctx.stroke();
      this.canvas.dataset.placed = String(drawn);
    }

    // Fills the pixels of cells [x0, x1) x [y0, y1), `block` cells a side to a pixel, from the
    // bit planes, visiting only the live words of each row.
    paint(x0, y0, x1, y1, block) {
      const { pixels, ink } = this;
      const w = this.image.width;
      const { words, a, b, rowLo, rowHi } = this.board;
      pixels.fill(ink.empty);
      const firstWord = x0 >>> 5;
      const lastWord = (x1 - 1) >>> 5;
      for (let y = y0; y < y1; y++) {
        const from = Math.max(firstWord, rowLo[y]);
        const to = Math.min(lastWord + 1, rowHi[y]);
        const out = Math.floor((y - y0) / block) * w;
        for (let k = from; k < to; k++) {
          const wa = a[y * words + k];
          let live = wa | b[y * words + k];
          while (live) {
            const low = live & -live;
            live ^= low;
            const x = (k << 5) + 31 - Math.clz32(low);
            if (x >= x0 && x < x1) pixels[out + Math.floor((x - x0) / block)] = wa & low ? ink.seat1 : ink.seat2;
          }
        }
      }
    }

    drawGrid(x0, y0, x1, y1) {
      const { context: ctx, scale, ox, oy } = this;
      ctx.beginPath();
      for (let x = x0; x <= x1; x++) {
        const px = Math.round(ox + x * scale) + 0.5;
        ctx.moveTo(px, oy + y0 * scale);
        ctx.lineTo(px, oy + y1 * scale);
      }
      for (let y = y0; y <= y1; y++) {
        const py = Math.round(oy + y * scale) + 0.5;
        ctx.moveTo(ox + x0 * scale, py);
        ctx.lineTo(ox + x1 * scale, py);
      }
      ctx.strokeStyle = this.colors.grid;
      ctx.lineWidth = 1;
      ctx.stroke();
    }
  }

  // Both seats' live cells over the game, from the runner's counts, with the shown generation
  // marked. The lines are drawn once per size into a cache; each frame adds the marker.
  class Chart {
    constructor(canvas, counts, generations, colors) {
      this.canvas = canvas;
      this.context = canvas.getContext('2d');
      this.counts = counts;
      this.generations = generations;
      this.colors = colors;
      this.cache = document.createElement('canvas');
    }

    x(g) {
      return this.generations === 0 ? 0 : (g / this.generations) * this.canvas.width;
    }

    generationAt(clientX) {
      const rect = this.canvas.getBoundingClientRect();
      const f = rect.width > 0 ? (clientX - rect.left) / rect.width : 0;
      return Math.round(Math.min(1, Math.max(0, f)) * this.generations);
    }

    resize() {
      canvasSize(this.canvas);
      this.cache.width = this.canvas.width;
      this.cache.height = this.canvas.height;
      this.drawLines(this.cache.getContext('2d'));
    }

    drawLines(ctx) {
      const { width, height } = this.cache;
      ctx.clearRect(0, 0, width, height);
      if (!this.counts) return;
      const pad = Math.round(6 * dpr());
      const top = this.counts.reduce((m, c) => Math.max(m, c[0], c[1]), 1);
      const y = (n) => height - pad - (n / top) * (height - 2 * pad);
      ctx.lineWidth = Math.max(1, Math.round(dpr()));
      ctx.lineJoin = 'round';
      for (const seat of [0, 1]) {
        ctx.beginPath();
        ctx.moveTo(this.x(0), y(0));
        this.counts.forEach((c, i) => ctx.lineTo(this.x(i + 1), y(c[seat])));
        ctx.strokeStyle = seat === 0 ? this.colors.seat1 : this.colors.seat2;
        ctx.stroke();
      }
      ctx.fillStyle = this.colors.muted;
      ctx.font = `${Math.round(11 * dpr())}px system-ui, sans-serif`;
      ctx.textBaseline = 'top';
      ctx.fillText(`${top} cells`, pad, pad / 2);
    }

    draw(generation) {
      const ctx = this.context;
      ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
      ctx.drawImage(this.cache, 0, 0);
      const x = Math.min(this.canvas.width - 1, Math.round(this.x(generation))) + 0.5;
      ctx.beginPath();
      ctx.moveTo(x, 0);
      ctx.lineTo(x, this.canvas.height);
      ctx.strokeStyle = '#ffffff';
      ctx.lineWidth = 1;
      ctx.stroke();
    }
  }

  // "no reply within the time limit (timeout): detail", the detail being the bot's text.
  function forfeitWords(move) {
    const reason = String(move.forfeit);
    const words = FORFEITS.get(reason);
    const detail = move.detail === undefined || move.detail === '' ? '' : `: ${String(move.detail)}`;
    return `${words === undefined ? reason : `${words} (${reason})`}${detail}`;
  }

  // Every forfeited turn as a mark on the timeline, between the generations before and after its
  // tick, and as a line of text; either jumps to the turn's generation when clicked. The lines of
  // the shown generation's turn are marked current and repeated under the board. A turn is named
  // by its tick t (the tick_id its bot was sent, as runner replay --board takes it): its moves are
  // made on generation t's board and make generation t+1 (docs/replay.md).
  class ForfeitList {
    constructor(section, list, line, timeline, moves, generations, names, seek) {
      this.line = line;
      this.byTick = new Map();
      const marks = document.createDocumentFragment();
      moves.slice(0, generations).forEach((tick, t) => {
        tick.forEach((move, i) => {
          if (Array.isArray(move)) return;
          const seat = i + 1;
          const mark = document.createElement('span');
          mark.className = 'forfeit-mark';
          mark.dataset.tick = String(t);
          mark.dataset.seat = String(seat);
          mark.setAttribute('title', `tick ${t}, seat ${seat}: ${String(move.forfeit)}: ${move.detail === undefined ? '' : String(move.detail)}`);
          mark.style.left = `${((t + 0.5) / generations) * 100}%`;
          const item = document.createElement('li');
          item.className = `seat${seat}`;
          item.dataset.tick = String(t);
          item.textContent = `Tick ${t}: seat ${seat} (${names[i]}) forfeited: ${forfeitWords(move)}`;
          for (const element of [mark, item]) element.addEventListener('click', () => seek(t + 1));
          marks.appendChild(mark);
          list.appendChild(item);
          if (!this.byTick.has(t)) this.byTick.set(t, []);
          this.byTick.get(t).push(item);
        });
      });
      timeline.appendChild(marks);
      section.hidden = this.byTick.size === 0;
      this.shown = null;
    }

    show(generation) {
      const tick = generation - 1;
      if (tick === this.shown) return;
      for (const item of this.byTick.get(this.shown) || []) item.classList.remove('current');
      const items = this.byTick.get(tick) || [];
      for (const item of items) item.classList.add('current');
      this.line.textContent = items.map((item) => item.textContent).join('\n');
      this.line.hidden = items.length === 0;
      this.shown = tick;
    }
  }

  // Compares each generation the page computes with the runner's count of it.
  class Agreement {
    constructor(element, counts, generations) {
      this.element = element;
      this.counts = counts;
      this.generations = generations;
      this.checked = 0;
      this.mismatch = null;
    }

    check(generation, population) {
      if (!this.counts) return;
      const want = this.counts[generation - 1];
      if (population[0] !== want[0] || population[1] !== want[1]) {
        if (!this.mismatch || generation < this.mismatch.generation)
          this.mismatch = { generation, page: population.slice(), runner: want.slice() };
      }
      this.checked = Math.max(this.checked, generation);
    }

    // The element's state (its style's) and words.
    status() {
      if (!this.counts) return ['unavailable', 'The page holds no counts from the runner to check against'];
      if (this.mismatch) {
        const { generation, page, runner } = this.mismatch;
        return ['mismatch', `MISMATCH at generation ${generation}: page ${page[0]}-${page[1]}, runner ${runner[0]}-${runner[1]}`];
      }
      if (this.generations === 0) return ['ok', 'JS engine agrees with the runner (no generations)'];
      if (this.checked === 0) return ['pending', 'Not checked yet'];
      return ['ok', this.checked === this.generations
        ? `JS engine agrees with the runner on all ${this.generations} generations`
        : `JS engine agrees with the runner (generations 1 to ${this.checked} of ${this.generations} checked)`];
    }

    show() {
      const [state, text] = this.status();
      if (this.element.dataset.state !== state) this.element.dataset.state = state;
      if (this.element.textContent !== text) this.element.textContent = text;
    }
  }

  // The generation the page opens on: the one its address names (`#37`), else the first with a
  // live cell (by the runner's counts, else the first turn that placed cells), not an empty board.
  function openingGeneration(moves, counts, last) {
    const named = /^#(\d+)$/.exec(window.location.hash);
    if (named) return Math.min(last, Number(named[1]));
    if (counts) {
      const g = counts.findIndex((c) => c[0] + c[1] > 0);
      return g < 0 ? 0 : g + 1;
    }
    const tick = moves.findIndex((m) => m.some((seat) => Array.isArray(seat) && seat.length > 0));
    return tick < 0 ? 0 : Math.min(last, tick + 1);
  }

  function start(data) {
    const { header, moves, result } = data;
    const last = result.generations;
    const names = [botName(header, 1), botName(header, 2)];
    const counts = runnerCounts(data);
    const colors = palette();
    const replay = new GolLife.Replay(header, moves, last);
    const view = new BoardView($('board'), replay.board, colors);
    const chart = new Chart($('chart'), counts, last, colors);
    const agreement = new Agreement($('agreement'), counts, last);
    const seekInput = $('seek');
    const playButton = $('play');
    const speedInput = $('speed');
    const forfeits = new ForfeitList($('forfeits'), $('forfeit-list'), $('turn-forfeits'), $('timeline'), moves, last,
      names, seek);

    for (const [i, name] of names.entries()) Object.assign($(`name${i + 1}`), { textContent: name, title: name });
    const outcome = describeResult(result, names);
    document.title = `${names[0]} vs ${names[1]}: ${outcome.short} — Game of Life replay`;
    linkBack(data.leaderboard);
    $('result').textContent = outcome.text;
    $('last-generation').textContent = String(last);
    seekInput.max = String(last);

    // `target` is the generation to show; frames walk the replay towards it within a time
    // budget, so long jumps and fast play never freeze the page.
    let target = 0;
    let playing = false;
    let carry = 0;
    let lastTime = null;
    let frameRequested = false;

    const speed = () => (speedInput.value === 'max' ? Infinity : Number(speedInput.value) || 1);

    function request() {
      if (frameRequested) return;
      frameRequested = true;
      requestAnimationFrame(frame);
    }

    function setPlaying(on) {
      if (on && replay.generation >= last && target >= last) target = 0;
      // Play goes on from a jump still under way, not from the board it left.
      if (on && !playing) replay.rewindFor(target);
      if (!on && playing) target = replay.generation;
      playing = on;
      carry = 0;
      lastTime = null;
      playButton.textContent = on ? 'Pause' : 'Play';
      playButton.setAttribute('aria-pressed', String(on));
      request();
    }

    function seek(g) {
      setPlaying(false);
      target = Math.min(last, Math.max(0, Math.round(g)));
      request();
    }

    function advanceTarget(now) {
      const dt = lastTime === null ? 0 : Math.min(250, now - lastTime);
      lastTime = now;
      const rate = speed();
      if (rate === Infinity) {
        target = last;
        return;
      }
      // Behind (a slow board): let the engine catch up rather than pile up generations.
      if (replay.generation < target) return;
      carry += (dt * rate) / 1000;
      const steps = Math.floor(carry);
      carry -= steps;
      target = Math.min(last, target + steps);
    }

    function catchUp(deadline) {
      if (replay.generation === target) return;
      // Playing shows the generations in turn; only a jump may start from a keyframe.
      if (!playing || target < replay.generation) replay.rewindFor(target);
      while (replay.generation < target) {
        replay.advance();
        agreement.check(replay.generation, replay.board.population);
        if (performance.now() >= deadline) break;
      }
    }

    function render() {
      const g = replay.generation;
      view.placed = g > 0 ? moves[g - 1].filter(Array.isArray) : [];
      view.draw();
      forfeits.show(g);
      chart.draw(replay.generation);
      $('generation').textContent = String(replay.generation);
      $('turn-tick').textContent = g > 0 ? `, after tick ${g - 1}` : '';
      $('cells1').textContent = String(replay.board.population[0]);
      $('cells2').textContent = String(replay.board.population[1]);
      seekInput.value = String(playing ? replay.generation : target);
      agreement.show();
    }

    function frame(now) {
      frameRequested = false;
      const deadline = performance.now() + FRAME_BUDGET_MS;
      if (playing) advanceTarget(now);
      catchUp(deadline);
      if (playing && replay.generation >= last) setPlaying(false);
      render();
      if (playing || replay.generation !== target) request();
    }

    // Each control's key, and its button.
    const controls = {
      ' ': ['play', () => setPlaying(!playing)],
      ArrowLeft: ['step-back', () => seek(target - 1)],
      ArrowRight: ['step-forward', () => seek(target + 1)],
      Home: ['to-start', () => seek(0)],
      End: ['to-end', () => seek(last)],
    };
    for (const [id, action] of Object.values(controls)) $(id).addEventListener('click', action);
    seekInput.addEventListener('input', () => seek(Number(seekInput.value)));
    speedInput.addEventListener('change', () => {
      if (playing) {
        target = replay.generation;
        carry = 0;
      }
      request();
    });

    const centre = () => [view.canvas.width / 2, view.canvas.height / 2];
    $('zoom-in').addEventListener('click', () => { view.zoomAt(...centre(), 1.5); request(); });
    $('zoom-out').addEventListener('click', () => { view.zoomAt(...centre(), 1 / 1.5); request(); });
    $('zoom-fit').addEventListener('click', () => { view.fit(); request(); });
    listenToBoard(view, $('coords'), request);

    const chartCanvas = chart.canvas;
    chartCanvas.addEventListener('pointerdown', (e) => {
      chartCanvas.setPointerCapture(e.pointerId);
      seek(chart.generationAt(e.clientX));
    });
    chartCanvas.addEventListener('pointermove', (e) => {
      if (e.buttons & 1) seek(chart.generationAt(e.clientX));
    });

    window.addEventListener('keydown', (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.target instanceof Element && e.target.closest('input, select, textarea')) return;
      const control = controls[e.key];
      if (!control) return;
      e.preventDefault();
      control[1]();
    });

    const resize = () => {
      view.resize();
      chart.resize();
      request();
    };
    new ResizeObserver(resize).observe(view.canvas);
    new ResizeObserver(resize).observe(chartCanvas);
    // An address with another generation (#N typed, or a link followed) shows that one.
    window.addEventListener('hashchange', () => {
      const named = /^#(\d+)$/.exec(window.location.hash);
      if (named) seek(Number(named[1]));
    });

    target = openingGeneration(moves, counts, last);
    resize();
    render();
  }

  // Dragging pans; the wheel zooms around the pointer; `coords` shows the [y, x] of the cell under
  // the pointer, as bots name cells.
  function listenToBoard(view, coords, request) {
    const canvas = view.canvas;
    let drag = null;
    // The canvas pixel under the pointer.
    const at = (e) => {
      const rect = canvas.getBoundingClientRect();
      return [(e.clientX - rect.left) * dpr(), (e.clientY - rect.top) * dpr()];
    };
    canvas.addEventListener('pointerdown', (e) => {
      canvas.setPointerCapture(e.pointerId);
      drag = { x: e.clientX, y: e.clientY };
      canvas.classList.add('dragging');
    });
    canvas.addEventListener('pointermove', (e) => {
      if (drag) {
        view.panBy((e.clientX - drag.x) * dpr(), (e.clientY - drag.y) * dpr());
        drag = { x: e.clientX, y: e.clientY };
        request();
      }
      const cell = view.cellAt(...at(e));
      coords.textContent = cell ? `(${cell[0]}, ${cell[1]})` : '';
      coords.hidden = !cell;
    });
    const end = () => {
      drag = null;
      canvas.classList.remove('dragging');
    };
    canvas.addEventListener('pointerup', end);
    canvas.addEventListener('pointercancel', end);
    canvas.addEventListener('pointerleave', () => { coords.hidden = true; });
    canvas.addEventListener('wheel', (e) => {
      e.preventDefault();
      const lines = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
      view.zoomAt(...at(e), Math.exp(-e.deltaY * lines * 0.0015));
      request();
    }, { passive: false });
  }

  try {
    start(readData());
    document.body.dataset.ready = '1';
  } catch (e) {
    if (!(e instanceof DataError)) throw e;
    const element = $('error');
    element.textContent = `This replay cannot be shown: ${e.message}`;
    element.hidden = false;
    document.querySelector('main').hidden = true;
    document.body.dataset.ready = 'error';
  }
})();
