// The annals replay viewer: reads the game's data from the page (queries/pictures/viewer.py writes it), draws the board at
// any position, and moves by event, turn, phase, key moment, coordinate, timeline or address (#turn:5/attack).
// Position c is the board after c events (0: before any event); event i is the (i+1)-th position's event.
(function () {
  "use strict";
  const D = JSON.parse(document.getElementById("annals-data").textContent);
  const N = D.events.length;
  const K = D.keyframe_every;
  const $ = (id) => document.getElementById(id);
  const board = $("board"), slider = $("slider"), where = $("where"), cursor = $("cursor");
  const turns = D.events.map((e) => e[0]);
  const steps = D.events.map((e) => D.steps[e[1]]);
  const kinds = D.events.map((e) => D.kinds[e[2]]);
  const keys = [...new Set(D.marks.map((m) => m[0]))].sort((a, b) => a - b);
  let cur = -1, shownCoord = "";
  const SYMBOL = { inaccuracy: "?!", mistake: "?", blunder: "??" };  // the review's marks, as chess annotators write them
  const past = [];

  // ------------------------------------------------------------------ boards
  function applyDiff(prev, d) {
    const sep = d.indexOf(-1);
    const drop = new Set(d.slice(0, sep));
    const out = drop.size ? prev.filter((_, i) => !drop.has(i)) : prev.slice();
    for (let k = sep + 1; k < d.length; k += 2) out.splice(d[k], 0, d[k + 1]);
    return out;
  }
  // Every position's list of lines, rebuilt once when the page opens (the file keeps every 32nd whole and the
  // others as diffs, to stay small): a move then looks its list up.
  const lists = new Array(N + 1);
  for (let c = 0, list = null; c <= N; c++) {
    list = c % K === 0 ? D.boards[c] : applyDiff(list, D.boards[c]);
    lists[c] = list;
  }
  function listAt(count) { return lists[count]; }
  function svgAt(count) { return listAt(count).map((i) => D.lines[i]).join("\n"); }

  // The board in the page: an <svg> (its first and last lines) whose children are the other lines' elements. A
  // move keeps the elements of lines both boards share and parses only the new lines; a new line that draws the
  // same thing as a line going away (the same card instance, the same pile or counter of the same side, the same
  // panel) patches that line's element in place, only the attributes and text that differ, instead of replacing
  // it. So the browser restyles and lays out what changed (a card's wounds, a pile's count), not the whole board,
  // nor even the whole card.
  let shownList = [], shownNodes = [], svgRoot = null;
  const scratch = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  const lineKeys = new Array(D.lines.length);
  const IDENTITY = /\bdata-(card|zone|side|counter|panel|power|back)="([^"]*)"/g;
  function keyOf(line) {
    // what a line draws: its tag and identifying data attributes (for a card, its instance alone); a line
    // without any, its opening tag
    let k = lineKeys[line];
    if (k !== undefined) return k;
    const text = D.lines[line], open = text.slice(0, text.indexOf(">"));
    const card = /\bdata-card="([^"]*)"/.exec(open);
    if (card) k = "card " + card[1];
    else {
      const ids = open.match(IDENTITY);
      k = ids ? open.slice(0, open.search(/\s/)) + " " + ids.join(" ") : open;
    }
    lineKeys[line] = k;
    return k;
  }
  // Each line is parsed once, the first time a board shows it; the board gets copies of that element.
  const parsed = new Array(D.lines.length);
  function parseLines(lines) {
    const todo = lines.filter((line) => parsed[line] === undefined);
    if (todo.length) {
      scratch.innerHTML = todo.map((line) => D.lines[line]).join("");
      Array.from(scratch.children).forEach((node, k) => { parsed[todo[k]] = focusable(node); });
    }
  }
  // A card on the board takes the keyboard's focus (Tab), which shows its text as hovering does.
  function focusable(node) {
    if (node.nodeType === 1) {
      if (node.hasAttribute("data-card")) node.setAttribute("tabindex", "0");
      for (const el of node.querySelectorAll("[data-card]")) el.setAttribute("tabindex", "0");
    }
    return node;
  }
  function patch(node, fresh) {
    // make node equal to fresh (the parsed new line, left as it is): attributes, then children pairwise; a part
    // equal already is left alone
    if (node.isEqualNode(fresh)) return;
    if (node.nodeType === 3 && fresh.nodeType === 3) { node.nodeValue = fresh.nodeValue; return; }
    if (node.nodeType !== 1 || node.nodeName !== fresh.nodeName) { node.replaceWith(fresh.cloneNode(true)); return; }
    for (const name of node.getAttributeNames()) if (!fresh.hasAttribute(name)) node.removeAttribute(name);
    for (const name of fresh.getAttributeNames()) {
      const value = fresh.getAttribute(name);
      if (node.getAttribute(name) !== value) node.setAttribute(name, value);
    }
    const olds = node.childNodes, news = fresh.childNodes;
    while (olds.length > news.length) node.lastChild.remove();
    for (let k = 0; k < news.length; k++) {
      if (k < olds.length) patch(olds[k], news[k]);
      else node.appendChild(news[k].cloneNode(true));
    }
  }
  function draw(count) {
    const list = listAt(count);
    const n = list.length;
    if (!svgRoot || D.lines[list[0]] !== D.lines[shownList[0]]) {
      board.innerHTML = svgAt(count);
      svgRoot = focusable(board.firstElementChild);
      // The board's box is sized by the SVG's proportions, not by its content (CSS contain: strict), so a move
      // lays out the board alone and not the page around it.
      const box = svgRoot.viewBox.baseVal;
      if (box && box.width && box.height) board.style.setProperty("--board-ratio", `${box.width} / ${box.height}`);
      shownList = list;
      shownNodes = [null, ...svgRoot.children, null];  // aligned with the lines: the first and last are the root
      return;
    }
    const spare = new Map();
    for (let i = 1; i < shownList.length - 1; i++) {
      const line = shownList[i];
      if (!spare.has(line)) spare.set(line, []);
      spare.get(line).push(shownNodes[i]);
    }
    const nodes = new Array(n);
    const fresh = [];
    for (let i = 1; i < n - 1; i++) {
      const pool = spare.get(list[i]);
      if (pool && pool.length) nodes[i] = pool.shift();
      else fresh.push(i);
    }
    if (fresh.length) {
      const going = new Map();  // the elements of lines going away, by what they draw
      for (const [line, pool] of spare) {
        for (const node of pool) {
          const k = keyOf(line);
          if (!going.has(k)) going.set(k, []);
          going.get(k).push(node);
        }
      }
      spare.clear();
      parseLines(fresh.map((i) => list[i]));
      for (const i of fresh) {
        const made = parsed[list[i]], pool = going.get(keyOf(list[i]));
        const old = pool && pool.shift();
        if (old && old.nodeName === made.nodeName) {
          patch(old, made);
          nodes[i] = old;
        } else {
          if (old) pool.unshift(old);
          nodes[i] = made.cloneNode(true);
        }
      }
      for (const pool of going.values()) for (const node of pool) node.remove();
    }
    for (const pool of spare.values()) for (const node of pool) node.remove();
    let ref = svgRoot.firstElementChild;
    for (let i = 1; i < n - 1; i++) {
      const node = nodes[i];
      if (node === ref) ref = ref.nextElementSibling;
      else svgRoot.insertBefore(node, ref);
    }
    shownList = list;
    shownNodes = nodes;
  }

  // ------------------------------------------------------------------ coordinates (as queries/positions/timeline.py)
  function bad(msg) { const e = new Error(msg); e.name = "CoordinateError"; return e; }
  function int(text, coordinate) {
    if (!/^-?\d+$/.test(text)) throw bad(`${JSON.stringify(coordinate)}: ${JSON.stringify(text)} is not a whole number`);
    return parseInt(text, 10);
  }
  function firstStep(lo, hi, step, coordinate) {
    for (let i = lo; i < hi; i++) if (steps[i] === step || steps[i].startsWith(step + ".")) return i;
    throw bad(`${JSON.stringify(coordinate)}: no event at step ${JSON.stringify(step)} there`);
  }
  function resolve(coordinate) {
    const text = coordinate.trim();
    if (text === "start") return 0;
    if (text === "end") return N;
    const parts = text.split("/");
    if (parts.length > 2) throw bad(`coordinate ${JSON.stringify(coordinate)} has more than one '/'`);
    let [head, arg] = split(parts[0]);
    if (!arg) throw bad(`coordinate ${JSON.stringify(coordinate)} needs NAME:VALUE, e.g. event:120, turn:5, damage:2`);
    let lo = 0, hi = N;
    if (head === "event") {
      const n = int(arg, coordinate);
      if (n < 0 || n >= N) throw bad(`event ${n} does not exist; this game has events 0..${N - 1}`);
      if (parts.length > 1) throw bad(`event:${n} takes no '/...' part`);
      return n + 1;
    }
    if (head === "turn") {
      const t = int(arg, coordinate);
      lo = turns.indexOf(t);
      if (lo < 0) throw bad(`turn ${t} does not occur; this game has turns 0..${Math.max(0, ...turns)}`);
      hi = lo;
      while (hi < N && turns[hi] <= t) hi++;
      if (parts.length === 1) return lo + 1;
      [head, arg] = split(parts[1]);
      if (!arg) return firstStep(lo, hi, parts[1], coordinate) + 1;
    } else if (parts.length > 1) {
      throw bad(`only turn:T may be followed by '/...' (got ${JSON.stringify(coordinate)})`);
    }
    if (head === "step") return firstStep(lo, hi, arg, coordinate) + 1;
    const kind = D.aliases[head] || head;
    const k = int(arg, coordinate);
    let seen = 0;
    for (let i = lo; i < hi; i++) if (kinds[i] === kind && ++seen === k) return i + 1;
    throw bad(`${JSON.stringify(coordinate)}: found ${seen} event(s) of kind ${JSON.stringify(kind)} there, not ${k}`);
  }
  function split(part) {
    const i = part.indexOf(":");
    return i < 0 ? [part, ""] : [part.slice(0, i), part.slice(i + 1)];
  }
  // turn 0 is the setup to a person (engine.names.turn_said); the coordinates (turn:0) keep the number
  function turnSaid(turn) { return turn > 0 ? `turn ${turn}` : "setup"; }
  function coordinateOf(count) { return count === 0 ? "start" : `event:${count - 1}`; }

  // ------------------------------------------------------------------ moving
  const items = [];
  function go(count, opts) {
    opts = opts || {};
    count = Math.max(0, Math.min(N, count | 0));
    if (opts.jump && count !== cur && cur >= 0) { past.push(cur); $("back").disabled = false; }
    if (count !== cur) {
      draw(count);
      if (cur > 0) items[cur - 1].classList.remove("now");
      if (count > 0) items[count - 1].classList.add("now");
      if (!opts.noScroll) scrollSoon();
      slider.value = String(count);
      cursor.style.left = (N ? (100 * count) / N : 0) + "%";
      cur = count;
      showNotes(count);
      markTurn(count);
      tellTurns(count);
      tellResult(count);
      showReview(count);
    }
    shownCoord = opts.coordinate || coordinateOf(count);
    const e = count > 0 ? D.events[count - 1] : null;
    where.textContent = e
      ? `${shownCoord} · after event ${count - 1} of ${N - 1} · ${turnSaid(e[0])} · ${D.step_words[D.step_at[count]]}`
      : `start · before any event (${N} events)`;
    if (opts.fromHash) hashPending = null;  // the address is already this moment's
    else { hashPending = shownCoord; soon(); }
  }
  // The event list's scroll follows in the next frame, and the address at most every 100 ms, once however many
  // moves happened before (dragging, key repeat): each costs more than the rest of a move (scrollIntoView lays
  // the page out, history.replaceState talks to the browser).
  let turnScrollPending = false;
  let framePending = false, scrollPending = false, hashPending = null, hashTimer = 0, hashAt = -1e9;
  function afterMoves() {
    framePending = false;
    if (scrollPending) scrollList();
    if (turnScrollPending) { turnScrollPending = false; if (turnNow >= 0) turnItems[turnNow].scrollIntoView({ block: "nearest" }); }
    if (hashPending !== null && !hashTimer) hashTimer = setTimeout(writeHash, Math.max(0, hashAt + 100 - performance.now()));
  }
  function writeHash() {
    hashTimer = 0;
    if (hashPending === null) return;
    history.replaceState(null, "", "#" + hashPending);
    hashPending = null;
    hashAt = performance.now();
  }
  function soon() {
    if (!framePending) { framePending = true; requestAnimationFrame(afterMoves); }
  }
  function scrollList() {
    scrollPending = false;
    if (cur > 0) items[cur - 1].scrollIntoView({ block: "nearest" });
  }
  function scrollSoon() { scrollPending = true; soon(); }
  function jumpTo(list, dir) {
    if (dir > 0) { const n = list.find((p) => p > cur); if (n !== undefined) go(n, { jump: true }); }
    else { let p; for (const x of list) { if (x < cur) p = x; else break; } if (p !== undefined) go(p, { jump: true }); }
  }
  function back() {
    if (!past.length) return;
    go(past.pop());
    $("back").disabled = past.length === 0;
  }
  function goCoordinate(text, fromHash) {
    try {
      const count = resolve(text);
      $("coord-error").textContent = "";
      go(count, { jump: true, coordinate: text.trim(), fromHash: fromHash });
      return true;
    } catch (err) {
      $("coord-error").textContent = err.message;
      return false;
    }
  }

  // ------------------------------------------------------------------ notes
  const notesAt = new Map();
  for (const [pos, at, author, text] of D.notes) {
    if (!notesAt.has(pos)) notesAt.set(pos, []);
    notesAt.get(pos).push({ at, author, text });
  }
  let notesShown = false;
  function showNotes(count) {
    const box = $("note-box"), here = notesAt.get(count);
    if (!here && !notesShown) return;  // nothing to show, nothing shown: leave the page as it is
    notesShown = !!here;
    box.hidden = !here;
    box.replaceChildren(...(here || []).map((n) => {
      const p = document.createElement("p");
      p.textContent = `✎ ${n.author ? n.author + ": " : ""}${n.text} (${n.at})`;
      return p;
    }));
  }

  // ------------------------------------------------------------------ building the page
  const g = D.game;
  const rulesetName = { miras9: "Miras 9", morana: "MORANA" }[g.ruleset] || g.ruleset;
  $("title").textContent = `${rulesetName} · game ${g.game_id} · ${g.view} view · ${g.players.join(" vs ")}`;
  // The result is told once the position shown reaches the game's end, as the Turns list tells a turn, or when the
  // person asks ("show the result", which holds): from the first event it was a spoiler for a commentator or a
  // player rewatching. It stays in the page's data, for whoever jumps to the end.
  const resultBox = $("result"), resultAsk = $("show-result");
  let resultAsked = false;
  function resultTold(count) { return resultAsked || count >= N; }  // the header and the review graph alike
  function tellResult(count) {
    const told = !!g.result && resultTold(count);
    resultBox.textContent = told ? g.result : "";
    resultBox.hidden = !told;
    resultAsk.hidden = told || !g.result;
  }
  resultAsk.addEventListener("click", () => { resultAsked = true; tellResult(cur); showReview(cur); });
  slider.max = String(N);
  // The event list in blocks of ROWS rows, each its own <ol>: once the page has measured a block, a block out of
  // sight is skipped (content-visibility: auto, at its measured size), so a move restyles, lays out and paints the
  // rows near the one it marks, not the whole list.
  const ROWS = 40, list = $("events"), blocks = [];
  let block = null;
  D.events.forEach((e, i) => {
    if (i % ROWS === 0) blocks.push((block = list.appendChild(document.createElement("ol"))));
    const li = document.createElement("li");
    li.dataset.n = String(i);
    const t = document.createElement("span");
    t.className = "t";
    t.textContent = `#${i} · ${turnSaid(e[0])}, ${D.step_words[D.step_at[i + 1]]} · `;
    li.append(t, e[4]);
    li.addEventListener("click", () => go(i + 1, { jump: true, noScroll: true }));
    items.push(li);
    block.append(li);
  });
  function skipFarBlocks() {
    const heights = blocks.map((b) => b.getBoundingClientRect().height);  // one layout, before any block is skipped
    blocks.forEach((b, k) => {
      b.style.containIntrinsicSize = `auto ${heights[k]}px`;
      b.classList.add("far");
    });
  }
  const marks = $("marks");
  for (const [pos, mark, label] of D.marks) {
    const s = document.createElement("span");
    s.className = mark;
    s.style.left = (N ? (100 * pos) / N : 0) + "%";
    s.title = label;
    marks.append(s);
  }
  const notes = $("notes");
  for (const [pos, at, author, text] of D.notes) {
    const li = document.createElement("li");
    li.textContent = `${at}: ${author ? author + ": " : ""}${text}`;
    li.addEventListener("click", () => go(pos, { jump: true, coordinate: at }));
    notes.append(li);
  }
  if (!D.notes.length) notes.append(Object.assign(document.createElement("li"), { textContent: "none" }));
  const jumps = $("jumps");
  for (const [name, positions] of Object.entries(D.jumps)) {
    if (!positions.length) continue;
    const label = document.createElement("span");
    label.textContent = name;
    const prev = Object.assign(document.createElement("button"), { textContent: "◀", title: `previous ${name}` });
    const next = Object.assign(document.createElement("button"), { textContent: "▶", title: `next ${name}` });
    prev.dataset.jump = next.dataset.jump = name;
    prev.addEventListener("click", () => jumpTo(positions, -1));
    next.addEventListener("click", () => jumpTo(positions, 1));
    jumps.append(label, prev, next);
  }

  // ------------------------------------------------------------------ turns: one line each, the current one marked
  // A turn's line says what happened in it, so it is told once the position shown has passed the turn's last event:
  // watched from the start, the list names the turns ahead (each a place to jump to) but not what they hold, a
  // spoiler for a commentator or a player rewatching. The turn under way says so; its events are in the list below.
  const turnItems = [], turnAt = D.turns.map((t) => t[1]);
  const turnEnd = turnAt.map((_, k) => (k + 1 < turnAt.length ? turnAt[k + 1] - 1 : N));  // its last event applied
  const turnShown = [];  // each line's state as drawn: "told", "now" (under way) or "ahead"
  let turnNow = -1;
  function turnHead(turn) { return turn ? `Turn ${turn}` : "Setup"; }
  function tellTurns(count) {
    let told = 0, hi = turnEnd.length;  // the turns whose last event is applied: a prefix of the list
    while (told < hi) { const mid = (told + hi) >> 1; if (turnEnd[mid] <= count) told = mid + 1; else hi = mid; }
    turnItems.forEach((li, k) => {
      const state = k < told ? "told" : k === turnNow ? "now" : "ahead";
      if (turnShown[k] === state) return;
      turnShown[k] = state;
      const [turn, , line] = D.turns[k];
      li.textContent = state === "told" ? line : state === "now" ? `${turnHead(turn)} — under way` : turnHead(turn);
      li.classList.toggle("ahead", state === "ahead");
    });
  }
  D.turns.forEach(([turn, pos], k) => {
    const li = document.createElement("li");
    li.textContent = turnHead(turn);
    li.tabIndex = 0;
    li.dataset.turn = String(turn);
    li.title = `go to ${turn ? "turn " + turn : "the setup"}`;
    const goThere = () => go(pos, { jump: true });
    li.addEventListener("click", goThere);
    li.addEventListener("keydown", (ev) => { if (ev.key === "Enter") { ev.preventDefault(); ev.stopPropagation(); goThere(); } });
    turnItems.push(li);
    $("turns").append(li);
  });
  function markTurn(count) {
    let lo = 0, hi = turnAt.length - 1, k = -1;
    while (lo <= hi) { const mid = (lo + hi) >> 1; if (turnAt[mid] <= count) { k = mid; lo = mid + 1; } else hi = mid - 1; }
    if (k === turnNow) return;
    if (turnNow >= 0) turnItems[turnNow].classList.remove("now");
    if (k >= 0) turnItems[k].classList.add("now");
    turnNow = k;
    turnScrollPending = true;
  }

  // ------------------------------------------------------------------ the legend
  for (const [swatch, meaning] of D.legend) {
    const li = document.createElement("li");
    if (swatch.startsWith("mark:")) {
      const box = document.createElement("span"), name = swatch.slice(5);
      box.className = "mark";
      if (SYMBOL[name]) box.append(Object.assign(document.createElement("span"), { className: "gm " + name, textContent: SYMBOL[name] }));
      else box.append(Object.assign(document.createElement("span"), { className: name }));
      li.append(box);
    } else {
      li.insertAdjacentHTML("beforeend", swatch);  // drawn by queries/pictures/legend.py with the board's classes
    }
    li.append(Object.assign(document.createElement("span"), { textContent: meaning }));
    $("legend-list").append(li);
  }

  // A narrow window (under 1200 px: the board beside the side column leaves the legend one column) opens with the
  // legend folded to its title, so the page fits; a click on "Legend" (or Enter on it) unfolds it.
  if (innerWidth < 1200) $("legend").open = false;

  // ------------------------------------------------------------------ a card's text on hover and focus
  const tip = $("card-tip");
  function cardOf(target) {
    const el = target instanceof Element ? target.closest("[data-name]") : null;
    return el && board.contains(el) && D.cards[el.getAttribute("data-name")] ? el : null;
  }
  function showTip(el, x, y) {
    const name = el.getAttribute("data-name");
    $("card-name").textContent = name;
    $("card-text").textContent = D.cards[name];
    tip.hidden = false;
    const w = tip.offsetWidth, h = tip.offsetHeight;
    tip.style.left = Math.max(4, Math.min(x + 14, innerWidth - w - 8)) + "px";
    tip.style.top = (y + 16 + h > innerHeight - 4 ? Math.max(4, y - h - 8) : y + 16) + "px";
  }
  function hideTip() { tip.hidden = true; }
  board.addEventListener("mouseover", (ev) => { const el = cardOf(ev.target); if (el) showTip(el, ev.clientX, ev.clientY); else hideTip(); });
  board.addEventListener("mousemove", (ev) => { if (!tip.hidden && cardOf(ev.target)) showTip(cardOf(ev.target), ev.clientX, ev.clientY); });
  board.addEventListener("mouseleave", hideTip);
  board.addEventListener("focusin", (ev) => {
    const el = cardOf(ev.target);
    if (!el) return hideTip();
    const r = el.getBoundingClientRect();
    showTip(el, r.left, r.bottom - 10);
  });
  board.addEventListener("focusout", hideTip);

  // ------------------------------------------------------------------ the decision review: graph, marks, words
  // D.review (queries/pictures/reviewgraph.py): the reviewed decisions this view may show, each at the position
  // where it was asked, with the graph seat's winning chance before it and the decision in words.
  // The graph keeps the result back as the header does (tellResult): until the position reaches the end or the
  // person asks for the result, it is drawn up to the position shown, since its last points (100% or 0% at the
  // end) say who won. The marks of decisions ahead stay, so M and a click still go to them: that a player errs
  // later says nothing of who wins. But they stand on the middle line and say only the turn, whose and the class,
  // since their height and their words' chances would tell who is ahead then.
  const R = D.review, reviewAt = new Map(), mistakes = [], reviewMarks = new Map(), markButtons = [];
  let reviewShownAt = -2, graphArea = null, graphLine = null, graphShown = "";
  function pct(x) { return (N ? (100 * x) / N : 0) + "%"; }
  function height(chance) { return 6 + 88 * (1 - chance); }  // the graph's y of a chance (in %, room for the marks)
  if (R) {
    $("review").hidden = false;
    $("review-said").textContent = R.said;
    for (const r of R.points) {
      if (!reviewAt.has(r.at)) reviewAt.set(r.at, []);
      reviewAt.get(r.at).push(r);
      if (SYMBOL[r.verdict] && mistakes[mistakes.length - 1] !== r.at) mistakes.push(r.at);
    }
    if (!R.points.length) $("graph").hidden = $("review-bar").hidden = true;
    else drawGraph();
  }
  function drawGraph() {
    const svg = $("graph-svg"), NS = "http://www.w3.org/2000/svg", W = Math.max(N, 1);
    svg.setAttribute("viewBox", `0 0 ${W} 100`);
    const add = (tag, attrs) => { const el = document.createElementNS(NS, tag); for (const k in attrs) el.setAttribute(k, attrs[k]); svg.append(el); return el; };
    graphArea = add("path", { class: `area p${R.seat}` });
    add("line", { x1: 0, x2: W, y1: 50, y2: 50, class: "mid" });
    graphLine = add("path", { class: "line" });
    const box = $("graph-marks");
    for (const r of R.points) {
      if (!SYMBOL[r.verdict]) continue;
      const b = document.createElement("button");
      b.className = r.verdict;
      b.textContent = SYMBOL[r.verdict];
      b.style.left = pct(r.at);
      b.style.top = height(r.chance) + "%";
      b.dataset.at = String(r.at);
      b.addEventListener("click", (ev) => { ev.stopPropagation(); go(r.at, { jump: true }); });
      b.addEventListener("mouseenter", () => showReviewTip(b, b.getAttribute("aria-label")));
      b.addEventListener("mouseleave", hideReviewTip);
      b.addEventListener("focus", () => showReviewTip(b, b.getAttribute("aria-label")));
      b.addEventListener("blur", hideReviewTip);
      if (!reviewMarks.has(r.at)) reviewMarks.set(r.at, []);
      reviewMarks.get(r.at).push(b);
      markButtons.push([b, r]);
      box.append(b);
    }
    const graph = $("graph");
    graph.addEventListener("pointerdown", (ev) => {
      if (ev.target instanceof HTMLButtonElement) return;
      const rect = graph.getBoundingClientRect();
      go(Math.round(((ev.clientX - rect.left) / rect.width) * N), { jump: true });
    });
  }
  const reviewTip = $("review-tip");
  function showReviewTip(el, text) {
    reviewTip.textContent = text;
    reviewTip.hidden = false;
    const r = el.getBoundingClientRect(), w = reviewTip.offsetWidth, h = reviewTip.offsetHeight;
    reviewTip.style.left = Math.max(4, Math.min(r.left, innerWidth - w - 8)) + "px";
    reviewTip.style.top = (r.bottom + 6 + h > innerHeight - 4 ? Math.max(4, r.top - h - 6) : r.bottom + 6) + "px";
  }
  function hideReviewTip() { reviewTip.hidden = true; }
  // The graph and its marks as far as the position shown, or whole once the result is told (see above).
  function drawGraphUpTo(count) {
    const told = resultTold(count), W = Math.max(N, 1);
    const upto = told ? W : count, key = told ? "all" : String(count);
    if (key === graphShown) return;
    graphShown = key;
    const pts = R.points.filter((r) => told || r.at <= count).map((r) => [r.at, height(r.chance)]);
    if (told && R.end !== null) pts.push([N, height(R.end)]);
    let d = "";
    if (pts.length) {
      const line = [[0, pts[0][1]], ...pts];
      if (!told || R.end === null) line.push([upto, pts[pts.length - 1][1]]);  // level to the position shown
      d = line.map(([x, y], k) => `${k ? "L" : "M"}${x} ${y}`).join(" ");
    }
    graphLine.setAttribute("d", d);
    graphArea.setAttribute("d", d ? `${d} L${upto} 100 L0 100 Z` : "");
    for (const [b, r] of markButtons) {
      const ahead = !told && r.at > count;
      b.toggleAttribute("data-ahead", ahead);
      b.style.top = (ahead ? 50 : height(r.chance)) + "%";
      b.setAttribute("aria-label", ahead ? `${r.mark}: ahead; go there to read it` : r.line);
    }
    const who = g.players[R.seat], marked = `${mistakes.length} marked decision${mistakes.length === 1 ? "" : "s"}`;
    const said = (c) => `${Math.round(c * 100)}%`;
    if (told) {
      const first = R.points[0].chance, last = R.end !== null ? R.end : R.points[R.points.length - 1].chance;
      $("graph-svg").setAttribute("aria-label", `${who}'s winning chance over the game, from ${said(first)} at the first reviewed decision to ${said(last)} at the end; ${marked}`);
    } else {
      const reached = R.points.filter((r) => r.at <= count);
      const now = reached.length ? `${said(reached[reached.length - 1].chance)} at the last reviewed decision reached` : "no reviewed decision reached yet";
      $("graph-svg").setAttribute("aria-label", `${who}'s winning chance up to the position shown: ${now}; the rest is drawn at the end, or with "show the result"; ${marked}`);
    }
  }
  // The words of the decision(s) asked where the viewer stands, and the cursor on the graph.
  function showReview(count) {
    if (!R || !R.points.length) return;
    $("graph-cursor").style.left = pct(count);
    drawGraphUpTo(count);
    // no marked decision ahead (or behind): the button says so by being off, as M (Shift+M) then does nothing
    if (mistakes.length) {
      $("next-mistake").disabled = !mistakes.some((p) => p > count);
      $("prev-mistake").disabled = !mistakes.some((p) => p < count);
    }
    const here = reviewAt.get(count);
    const at = here ? count : -1;
    if (at === reviewShownAt) return;
    for (const b of reviewMarks.get(reviewShownAt) || []) b.classList.remove("now");
    for (const b of reviewMarks.get(at) || []) b.classList.add("now");
    reviewShownAt = at;
    const box = $("review-box");
    const worst = here ? here.reduce((w, r) => (r.loss > w.loss ? r : w)) : null;
    box.className = worst && SYMBOL[worst.verdict] ? worst.verdict : "";
    box.textContent = here
      ? here.map((r) => r.line).join(" · ")
      : mistakes.length
        ? `${mistakes.length} marked decision${mistakes.length === 1 ? "" : "s"} on the graph: M goes to the next, Shift+M to the previous.`
        : "No inaccuracy, mistake or blunder in this review.";
  }
  function jumpMistake(dir) {
    if (!mistakes.length) return;
    if (mistakes.some((p) => (dir > 0 ? p > cur : p < cur))) return jumpTo(mistakes, dir);
    // the key pressed past the last (before the first): say so rather than do nothing
    const box = $("review-box");
    box.className = "";
    box.textContent = dir > 0
      ? "No marked decision after this moment: Shift+M goes back to the previous one."
      : "No marked decision before this moment: M goes to the next one.";
    for (const b of reviewMarks.get(reviewShownAt) || []) b.classList.remove("now");
    reviewShownAt = -2;  // the next move says its decision again
  }
  $("next-mistake").onclick = () => jumpMistake(1);
  $("prev-mistake").onclick = () => jumpMistake(-1);
  if (R && !mistakes.length) $("next-mistake").disabled = $("prev-mistake").disabled = true;

  // ------------------------------------------------------------------ autoplay
  const playButton = $("play"), speed = $("speed");
  let timer = 0;
  function step() {
    if (speed.value === "turn") {
      const n = D.jumps.turn.find((p) => p > cur);
      go(n === undefined ? N : n);
    } else go(cur + 1);
    if (cur >= N) pause();
  }
  function schedule() {
    clearInterval(timer);
    timer = setInterval(step, speed.value === "turn" ? 2000 : 1000 / Number(speed.value));
  }
  function play() {
    if (cur >= N) go(0, { jump: true });
    schedule();
    playButton.textContent = "❚❚ pause";
    playButton.setAttribute("aria-pressed", "true");
  }
  function pause() {
    clearInterval(timer);
    timer = 0;
    playButton.textContent = "▶ play";
    playButton.setAttribute("aria-pressed", "false");
  }
  function toggle() { if (timer) pause(); else play(); }
  function faster(by) {
    speed.selectedIndex = Math.max(0, Math.min(speed.options.length - 1, speed.selectedIndex + by));
    if (timer) schedule();
  }
  playButton.onclick = toggle;
  speed.addEventListener("change", () => { if (timer) schedule(); });

  // ------------------------------------------------------------------ controls, timeline, keys, address
  $("first").onclick = () => go(0, { jump: true });
  $("last").onclick = () => go(N, { jump: true });
  $("prev").onclick = () => go(cur - 1);
  $("next").onclick = () => go(cur + 1);
  $("prev-turn").onclick = () => jumpTo(D.jumps.turn, -1);
  $("next-turn").onclick = () => jumpTo(D.jumps.turn, 1);
  $("prev-key").onclick = () => jumpTo(keys, -1);
  $("next-key").onclick = () => jumpTo(keys, 1);
  $("back").onclick = back;
  slider.addEventListener("input", () => go(parseInt(slider.value, 10), { noScroll: false }));
  $("goto").addEventListener("submit", (ev) => { ev.preventDefault(); goCoordinate($("coord").value, false); });
  const tl = $("timeline");
  let dragging = false;
  function fromPointer(ev) {
    const r = tl.getBoundingClientRect();
    return Math.round(((ev.clientX - r.left) / r.width) * N);
  }
  tl.addEventListener("pointerdown", (ev) => {
    dragging = true;
    tl.setPointerCapture(ev.pointerId);
    go(fromPointer(ev), { jump: true });
  });
  tl.addEventListener("pointermove", (ev) => { if (dragging) go(fromPointer(ev)); });
  tl.addEventListener("pointerup", () => { dragging = false; });
  document.addEventListener("keydown", (ev) => {
    if (ev.target instanceof HTMLInputElement && ev.target.type === "text") return;
    const k = ev.key;
    if (k === " " && (ev.target instanceof HTMLButtonElement || ev.target instanceof HTMLSelectElement)) return;
    if (k === "ArrowRight") ev.shiftKey ? jumpTo(keys, 1) : go(cur + 1);
    else if (k === "ArrowLeft") ev.shiftKey ? jumpTo(keys, -1) : go(cur - 1);
    else if (k === "ArrowDown" || k === "PageDown") jumpTo(D.jumps.turn, 1);
    else if (k === "ArrowUp" || k === "PageUp") jumpTo(D.jumps.turn, -1);
    else if (k === "Home") go(0, { jump: true });
    else if (k === "End") go(N, { jump: true });
    else if (k === "b" || k === "B") back();
    else if (k === "g" || k === "G") $("coord").focus();
    else if (k === " ") toggle();
    else if (k === "+" || k === "=") faster(1);
    else if (k === "-" || k === "−") faster(-1);
    else if ((k === "m" || k === "M") && R) jumpMistake(ev.shiftKey ? -1 : 1);
    else if (k === "Escape") { hideTip(); hideReviewTip(); }
    else return;
    ev.preventDefault();
  });
  window.addEventListener("hashchange", () => {
    const h = decodeURIComponent(location.hash.slice(1));
    if (h && h !== shownCoord) goCoordinate(h, true);
  });

  // For tests and benchmarks: move and time the move inside the page.
  window.annalsViewer = {
    N: N,
    go: go,
    resolve: resolve,
    position: () => cur,
    playing: () => timer !== 0,
    coordinate: () => shownCoord,
    boardText: (count) => svgAt(count),
    mistakes: () => mistakes.slice(),  // the positions of the reviewed decisions the graph marks  // the file's SVG text of a position's board, as a fresh draw parses it
    // the move, then the style and layout it causes (forced here, so the time counts them; painting is not)
    timeMove: (count) => {
      const t0 = performance.now();
      go(count);
      void document.body.offsetHeight;
      return performance.now() - t0;
    },
    // the event list's scroll to the current event, which a move leaves to the next frame
    timeScroll: () => {
      const t0 = performance.now();
      scrollList();
      void document.body.offsetHeight;
      return performance.now() - t0;
    },
  };

  skipFarBlocks();
  const start = decodeURIComponent(location.hash.slice(1));
  go(0, { fromHash: true });
  if (start) goCoordinate(start, true);
})();
