// The browser client of a live table: one WebSocket, the protocol of annals.schemas.protocol (JSON messages,
// one or more per frame, one per line). Nothing is loaded from elsewhere: this file, board.js, style.css and
// index.html are all the page needs.
//
// Play on the board: each option names the board elements it refers to (card, target, where), so a click on a
// card, a lane, a Site or a pile is mapped to the options that name it (board.js). Answers that name nothing on
// the board (pass, confirm, seal) are the buttons of the action bar. Questions with one answer are answered by
// the table (the settings below, sent in the socket's address); one whose options are all copies of one choice
// is answered by this page the same way (ruling R-CORE-11). Cards a question offers that the board does not show
// (a Miras 9 starting Site, still in the deck) are listed above the board, their text on hover or tap.

import { Picker, placesOf } from "./board.js";

const $ = (id) => document.getElementById(id);
const LOG_KEPT = 400;

const path = window.location.pathname.split("/");
const tableId = path[1] === "play" ? path[2] : "";
const token = new URLSearchParams(window.location.search).get("token") || "";
// opened from an event player's own page (me.js): the match goes on there, and an event game has no rematch
const fromMatch = new URLSearchParams(window.location.search).has("match");
const state = { hello: null, decide: null, clock: [], clockAt: 0, over: null, socket: null, tries: 0, events: 0 };
const cards = new Map(); // instance -> {name, text}: what the seat has been shown
const stored = JSON.parse(localStorage.getItem("annals-settings") || "null");
const settings = stored || { automatic: true, auto_pass: true, stops: [] };
const picker = new Picker(sendAnswer, showHint);

function text(tag, content, cls) {
  const node = document.createElement(tag);
  node.textContent = content;
  if (cls) node.className = cls;
  return node;
}

function status(message, cls) {
  const node = $("status");
  node.textContent = message;
  node.className = cls || "";
}

function who(seat) {
  const p = state.hello && state.hello.players[seat];
  return p ? p.name : `player ${seat}`;
}

function learn(list) {
  for (const c of list || []) cards.set(c.instance, { name: c.name, text: c.text });
}

function showHello(hello) {
  state.hello = hello;
  learn(hello.cards);
  const you = hello.seat >= 0 ? `you are ${who(hello.seat)}` : "you are watching";
  picker.players = hello.players.map((p) => p.name);
  const players = hello.players.map((p) => `${p.name} (${p.deck})`).join(" against ");
  $("title").textContent = `${hello.ruleset === "miras9" ? "Miras 9" : "MORANA"} · ${players} · ${you}`;
  state.clock = hello.clock_ms.slice();
  state.clockAt = performance.now();
  if (hello.seat < 0) { $("leave").hidden = true; $("settings").hidden = true; }
  // a new table asks nothing until every player has sat down (no clock runs meanwhile): say so, not a blank line
  else if (!hello.resumed_at && !state.decide) {
    state.waiting = true;
    $("question").textContent = "Waiting for every player to sit down: the game and the clocks start then.";
  }
}

function showEvent(message) {
  learn(message.cards);
  if (state.waiting) { state.waiting = false; $("question").textContent = ""; } // the game has begun
  if (!message.text) return; // a change by nothing: no line
  state.events += 1;
  const log = $("log");
  const li = text("li", "");
  li.append(text("span", String(state.events), "n"), text("span", message.text));
  log.prepend(li);
  while (log.children.length > LOG_KEPT) log.lastChild.remove();
  narrate(message.text);
}

let narrationQueue = [];
function narrate(line) {
  narrationQueue.push(line);
  if (narrationQueue.length === 1) setTimeout(() => {
    $("narration").textContent = narrationQueue.slice(-6).join(". ");
    narrationQueue = [];
  }, 150);
}

function showBoard(board) {
  state.deciding = board.deciding ?? -1; // the seat the table waits for (showWaiting): its clock runs (tick)
  if (board.clock_ms && board.clock_ms.length) { state.clock = board.clock_ms.slice(); state.clockAt = performance.now(); }
  const area = $("board");
  for (const z of board.zones) learn(z.cards);
  if (board.svg) {
    area.innerHTML = board.svg; // drawn by the server from this seat's own view
    const svg = area.querySelector("svg");
    if (svg) { svg.setAttribute("role", "group"); svg.setAttribute("aria-label", "the board"); }
  } else {
    area.replaceChildren(text("p", "The board is drawn by the server; this ruleset has none.", "muted"));
  }
  picker.mark(area);
  const hand = $("hand");
  hand.replaceChildren();
  const mine = state.hello ? `p${state.hello.seat}` : "";
  for (const z of board.zones.filter((x) => x.zone === "hand" && x.side === mine)) {
    for (const c of z.cards) {
      const li = text("li", c.name);
      li.dataset.card = c.instance;
      li.append(text("div", c.text, "text"));
      hand.append(li);
    }
  }
}

function showHint(message) {
  $("hint").textContent = message;
}

function sendAnswer(option, asked = true) {
  const decide = state.decide;
  if (!decide) return;
  if (!connected()) { // the answer would be lost while the question stayed cleared: keep it, to answer once back
    status("not sent: the connection is lost; reconnecting… (answer again once it is back)", "error");
    return;
  }
  if (asked && option.confirm && !window.confirm(`${option.text}: this cannot be taken back. Sure?`)) return;
  send({ type: "answer", choose: option.index, decision: decide.decision });
  state.decide = null;
  picker.set(null, $("board"));
  $("actions").replaceChildren();
  $("options").replaceChildren();
  $("offer").replaceChildren();
  $("offer").hidden = true;
  showHint("");
  // "sent…" only for what the person sent: an answer the page gave for them keeps its line (answerCopies)
  if (asked) $("question").textContent = "sent…";
}

// A question whose options are all copies of one choice has one answer for the person (ruling R-CORE-11): the
// page answers it as a lone question is answered, and says so in the log. It waits a cover delay first, as the
// table does for a hidden lone pass (engine.forced.COVER_S): copies in a hidden hand must not show by the timing.
const COVER_MS = [400, 1600];
function answerCopies(decide) {
  const option = decide.options[0];
  const li = text("li", "", "auto");
  li.append(text("span", "·", "n"), text("span", `Answered for you: ${option.text} (copies of one card: the only answer)`));
  $("log").prepend(li);
  $("question").textContent = `${decide.question}: answered for you (copies of one card)`;
  document.body.dataset.copiesAnswered = String((Number(document.body.dataset.copiesAnswered) || 0) + 1);
  const delay = COVER_MS[0] + Math.random() * (COVER_MS[1] - COVER_MS[0]);
  setTimeout(() => { if (state.decide === decide) sendAnswer(option, false); }, delay);
}

// The cards a question offers that the board does not show, each once: a name to hover or tap for its text,
// where the choice is made (clicking a lane alone did not say which Sites were offered).
function showOffer(decide) {
  const box = $("offer");
  box.replaceChildren();
  const onBoard = new Set([...$("board").querySelectorAll("[data-card]")].map((el) => Number(el.dataset.card)));
  const offered = [...new Set(decide.options.map((o) => o.card))].filter((c) => c && !onBoard.has(c) && cards.has(c));
  box.hidden = !offered.length;
  if (!offered.length) return;
  box.append(text("span", "On offer: ", "muted"));
  for (const instance of offered) {
    const item = text("button", cards.get(instance).name, "offered");
    item.type = "button";
    item.dataset.card = instance;
    box.append(item);
  }
}

// Options that are the same for this seat (copies of a card: protocol's same_as, ruling R-CORE-10) are one
// choice: the first is shown and answered; a click on any copy picks it (`alike`, the copies' cards).
function choices(decide) {
  const shown = decide.options.filter((o) => !(o.same_as >= 0)).map((o) => ({ ...o, alike: [] }));
  const byIndex = new Map(shown.map((o) => [o.index, o]));
  for (const o of decide.options) {
    const first = o.same_as >= 0 && byIndex.get(o.same_as);
    if (first && o.card && o.card !== first.card) first.alike.push(o.card);
  }
  return { ...decide, options: shown };
}

function showDecide(message) {
  const decide = choices(message);
  state.clock = decide.clock_ms.slice();
  state.clockAt = performance.now();
  if (!state.hello || decide.player !== state.hello.seat) {
    $("question").textContent = `${who(decide.player)} is deciding…`;
    return;
  }
  state.decide = decide;
  $("question").classList.remove("thinking");
  if (decide.options.length === 1 && message.options.length > 1 && settings.automatic && !decide.stop) {
    answerCopies(decide);
    return;
  }
  state.asked = (state.asked || 0) + 1;
  document.body.dataset.asked = String(state.asked);
  if (decide.options.length === 1) document.body.dataset.lone = String((Number(document.body.dataset.lone) || 0) + 1);
  $("question").textContent = decide.question + (decide.stop ? ` (your stop: ${decide.stop.replace("_", " ")})` : "");
  picker.set(decide, $("board"));
  showOffer(decide);
  const actions = $("actions");
  actions.replaceChildren();
  picker.plain().forEach((option, k) => {
    const button = text("button", option.text, option.confirm ? "confirm" : "");
    button.type = "button";
    button.dataset.kind = option.kind;
    button.dataset.index = option.index;
    button.title = k < 9 ? `key ${k + 1}` : "";
    button.addEventListener("click", () => sendAnswer(option));
    actions.append(button);
  });
  const list = $("options"); // every option, for the keyboard and screen readers
  list.replaceChildren();
  for (const option of decide.options) {
    const button = text("button", option.text + (option.confirm ? " (final)" : ""), option.confirm ? "confirm" : "");
    button.type = "button";
    button.dataset.index = option.index;
    button.addEventListener("click", () => sendAnswer(option));
    list.append(button);
  }
  showHint(picker.hint());
}

function gameOver(message) {
  state.over = message;
  state.decide = null;
  picker.set(null, $("board"));
  $("actions").replaceChildren();
  $("options").replaceChildren();
  $("offer").hidden = true;
  $("question").textContent = "";
  const box = $("over");
  box.hidden = false;
  box.replaceChildren(text("h2", `Game over: ${message.text}`));
  const links = document.createElement("p");
  const q = `?token=${encodeURIComponent(token)}`;
  const replay = text("a", "Watch the replay");
  replay.href = `/replay/${tableId}${q}`;
  const log = text("a", "Read the game in words");
  log.href = `/log/${tableId}${q}`;
  links.append(replay, text("span", " · "), log);
  box.append(links);
  if (fromMatch) {
    const next = text("a", "Back to your match: its next game, or its result");
    next.href = `/me?token=${encodeURIComponent(token)}`;
    next.id = "match";
    box.append(next);
  } else if (state.hello && state.hello.seat >= 0) {
    const again = text("button", "Rematch");
    again.type = "button";
    again.id = "rematch";
    again.addEventListener("click", rematch);
    box.append(again);
  }
  status(`game over: ${message.text}`, "over");
  document.body.dataset.over = "true";
  $("leave").hidden = true; // nothing left to concede: the box offers the replay and the rematch instead
  // the result takes the question's place above the board: below it, a laptop's screen did not show it
  $("turnbar").hidden = true;
  box.focus({ preventScroll: true });
  window.scrollTo(0, 0);
}

async function rematch() {
  const answer = await fetch(`/api/rematch/${tableId}?token=${encodeURIComponent(token)}`, { method: "POST" });
  const body = await answer.json();
  if (!answer.ok) { status(body.error || "no rematch", "error"); return; }
  window.location.href = `/play/${body.table}?token=${encodeURIComponent(body.token)}`;
}

function tick() {
  const node = $("clock");
  if (!state.clock.length || !state.clock.some((ms) => ms > 0)) return;
  const asked = state.over ? -1 : (state.decide ? state.decide.player : (state.deciding ?? -1));
  const spent = performance.now() - state.clockAt;
  node.replaceChildren(...state.clock.map((ms, seat) => {
    const left = Math.max(0, seat === asked ? ms - spent : ms);
    const s = Math.floor(left / 1000);
    return text("span", `${who(seat)} ${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`, seat === asked ? "running" : "");
  }));
}

function connected() {
  return Boolean(state.socket && state.socket.readyState === WebSocket.OPEN);
}

function send(message) {
  if (connected()) state.socket.send(JSON.stringify(message));
}

function receive(frame) {
  // a frame holds one or more messages, one per line (protocol 2)
  for (const line of frame.split("\n")) if (line) receiveOne(JSON.parse(line));
  showWaiting();
  tick(); // the clock that runs changes with the frame, not up to a quarter second later
}

// Not asked: say whom the table waits for (the board's `deciding`), not a stale "sent…". The search bot thinks
// up to a second a decision and a MORANA turn has several; its plays come into What happened meanwhile.
// Waited for but not asked: the table answers a question with one answer for this seat (engine.forced: a hidden
// lone pass waits out a cover delay), and the frame with the board would have held the question otherwise.
const ANSWERED_FOR_YOU = "The table answers for you: nothing you hold can be played now (your only answer)";
function showWaiting() {
  const me = state.hello ? state.hello.seat : -1;
  const waited = state.deciding;
  const question = $("question");
  const idle = state.decide || state.over || state.waiting || me < 0 || waited === undefined || waited < 0;
  const mine = !idle && waited === me;
  document.body.dataset.answeredForYou = mine ? "true" : "";
  document.body.dataset.waitingFor = idle || mine ? "" : String(waited);
  if (idle || mine) {
    if (mine) question.textContent = ANSWERED_FOR_YOU;
    if (!state.decide) question.classList.remove("thinking");
    return;
  }
  const player = state.hello.players[waited];
  const bot = player && !["human", "external"].includes(player.agent);
  question.textContent = bot ? `${who(waited)} (the ${player.agent} bot) is thinking…` : `${who(waited)} is deciding…`;
  question.classList.add("thinking");
}

function receiveOne(message) {
  switch (message.type) {
    case "hello": showHello(message); $("log").replaceChildren(); state.events = 0; status("connected"); break;
    case "event": showEvent(message); break;
    case "board": showBoard(message); break;
    case "decide": showDecide(message); break;
    case "error": status(`not taken: ${message.message}`, "error"); break;
    case "game_over": gameOver(message); break;
    case "close": break;
  }
}

function settingsQuery() {
  return `&automatic=${settings.automatic ? 1 : 0}&auto_pass=${settings.auto_pass ? 1 : 0}&stops=${settings.stops.join(",")}`;
}

function open() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  const address = `${scheme}://${window.location.host}/ws/${tableId}?token=${encodeURIComponent(token)}&svg=1${settingsQuery()}`;
  const socket = new WebSocket(address);
  state.socket = socket;
  socket.addEventListener("message", (e) => receive(e.data));
  socket.addEventListener("open", () => { state.tries = 0; });
  socket.addEventListener("close", () => {
    if (state.over) return;
    state.tries += 1;
    // never connected: a wrong token or address, said after a few tries. Connected once: the token is good and the
    // game waits in its log for a server restarted, however long that takes, so keep trying (it gave up at ~24 s)
    if (state.tries > 8 && !state.hello) {
      status("the table cannot be reached (wrong token, or the server is down)", "error");
      return;
    }
    status("connection lost; reconnecting…", "error");
    setTimeout(open, Math.min(250 * 2 ** state.tries, 4000));
  });
}

function setUpSettings() {
  for (const box of document.querySelectorAll("#settings input")) {
    const key = box.dataset.setting;
    box.checked = key.startsWith("stop:") ? settings.stops.includes(key.slice(5)) : Boolean(settings[key]);
    box.addEventListener("change", () => {
      if (key.startsWith("stop:")) {
        const stop = key.slice(5);
        settings.stops = settings.stops.filter((s) => s !== stop).concat(box.checked ? [stop] : []);
      } else settings[key] = box.checked;
      localStorage.setItem("annals-settings", JSON.stringify(settings));
      send({ type: "settings", ...settings });
    });
  }
}

function cardTip(event) {
  const tip = $("tip");
  const node = event.target.closest && event.target.closest("[data-card]");
  const info = node && cards.get(Number(node.dataset.card));
  if (!info) { tip.hidden = true; return; }
  tip.replaceChildren(text("strong", info.name), text("div", info.text || ""));
  tip.hidden = false;
  const box = node.getBoundingClientRect();
  // beside a card on the board or in the hand; below a name in the row "On offer", whose next name it would hide
  const below = Boolean(node.closest("#offer"));
  const left = below ? box.left : box.right + 8;
  tip.style.left = `${Math.min(window.innerWidth - 320, left + window.scrollX)}px`;
  tip.style.top = `${(below ? box.bottom + 6 : box.top) + window.scrollY}px`;
}

$("board").addEventListener("click", (e) => picker.click(placesOf(e.target), $("board")));
$("board").addEventListener("keydown", (e) => {
  if ((e.key === "Enter" || e.key === " ") && e.target.closest("[data-pick]")) {
    e.preventDefault();
    picker.click(placesOf(e.target), $("board"));
  }
});
for (const area of [$("board"), $("hand"), $("offer")]) {
  area.addEventListener("mouseover", cardTip);
  area.addEventListener("focusin", cardTip);
  area.addEventListener("mouseleave", () => { $("tip").hidden = true; });
}
$("hand").addEventListener("click", (e) => {
  const li = e.target.closest("li[data-card]");
  if (li) picker.click([`card:${li.dataset.card}`], $("board"));
});
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT") return;
  const plain = state.decide ? picker.plain() : [];
  if (e.key === "Escape") { picker.cancel($("board")); return; }
  if (/^[1-9]$/.test(e.key) && plain[Number(e.key) - 1]) { sendAnswer(plain[Number(e.key) - 1]); return; }
  const pass = plain.find((o) => ["Pass", "Done"].includes(o.kind));
  if ((e.key === "p" || e.key === "P") && pass) sendAnswer(pass);
  const confirm = plain.find((o) => o.kind === "Confirm");
  if ((e.key === "c" || e.key === "C") && confirm) sendAnswer(confirm);
  if (e.key === "n" || e.key === "N") picker.cycle($("board"));
});
$("leave").addEventListener("click", () => {
  if (window.confirm("Leave the game? It counts as a concession.")) send({ type: "concede" });
});
setUpSettings();
setInterval(tick, 250);
if (tableId && token) open(); else status("open this page from a table's address: /play/TABLE?token=TOKEN", "error");
