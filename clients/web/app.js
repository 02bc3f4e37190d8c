// The browser client of a live table: one WebSocket, the protocol of annals.schemas.protocol (JSON messages,
// one or more per frame, one per line).
// Nothing is loaded from elsewhere: this file, style.css and index.html are all the page needs.

const $ = (id) => document.getElementById(id);
const LOG_KEPT = 300;

const path = window.location.pathname.split("/");
const tableId = path[1] === "play" ? path[2] : "";
const token = new URLSearchParams(window.location.search).get("token") || "";
const state = { hello: null, decide: null, clock: [], clockAt: 0, over: null, socket: null, tries: 0 };

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

function showHello(hello) {
  state.hello = hello;
  const you = hello.seat >= 0 ? `seat ${hello.seat}` : "spectator";
  const players = hello.players.map((p) => `p${p.seat} ${p.name} (${p.deck})`).join(" vs ");
  $("title").textContent = `${hello.ruleset} · ${players} · you are ${you}`;
  state.clock = hello.clock_ms.slice();
  state.clockAt = performance.now();
  if (hello.seat < 0) $("leave").hidden = true;
}

function showEvent(message) {
  const log = $("log");
  log.prepend(text("li", message.text));
  while (log.children.length > LOG_KEPT) log.lastChild.remove();
}

function showBoard(board) {
  const area = $("board");
  area.replaceChildren();
  if (board.svg) {
    area.innerHTML = board.svg; // drawn by the server from this seat's own view
  } else {
    const table = document.createElement("table");
    table.className = "board";
    const sides = [...new Set(board.zones.map((z) => z.side))].sort();
    const head = document.createElement("tr");
    head.append(text("th", "zone"), ...sides.map((s) => text("th", s)));
    table.append(head);
    const zones = [...new Set(board.zones.map((z) => z.zone))];
    for (const zone of zones) {
      const row = document.createElement("tr");
      row.append(text("th", zone));
      for (const side of sides) {
        const z = board.zones.find((x) => x.zone === zone && x.side === side);
        const cards = z ? (zone === "deck" ? `${z.cards.length} cards` : z.cards.map((c) => c.name).join(", ")) : "";
        row.append(text("td", cards));
      }
      table.append(row);
    }
    area.append(table);
  }
  const counters = Object.entries(board.counters).map(([k, v]) => `${k}=${v}`).join("  ");
  area.append(text("p", `turn ${board.turn}, ${board.step}. ${counters}` + (board.hidden ? ` · ${board.hidden} cards hidden` : ""), "muted"));
  const hand = $("hand");
  hand.replaceChildren();
  const mine = state.hello ? `p${state.hello.seat}` : "";
  for (const z of board.zones.filter((x) => x.zone === "hand" && x.side === mine)) {
    for (const c of z.cards) {
      const li = text("li", c.name);
      li.append(text("div", c.text, "text"));
      hand.append(li);
    }
  }
}

function showDecide(decide) {
  state.decide = decide;
  state.clock = decide.clock_ms.slice();
  state.clockAt = performance.now();
  const area = $("decision");
  area.replaceChildren();
  if (!state.hello || decide.player !== state.hello.seat) {
    area.append(text("p", `p${decide.player} is deciding (${decide.point})…`, "muted"));
    return;
  }
  area.append(text("p", `Your decision: ${decide.point}`));
  for (const option of decide.options) {
    const button = text("button", option.text + (option.confirm ? "  (final)" : ""), option.confirm ? "confirm" : "");
    button.type = "button";
    button.dataset.index = option.index;
    button.dataset.kind = option.kind;
    button.addEventListener("click", () => {
      if (option.confirm && !window.confirm(`${option.text}: this cannot be taken back. Sure?`)) return;
      send({ type: "answer", choose: option.index, decision: decide.decision });
      area.replaceChildren(text("p", "sent…", "muted"));
      state.decide = null;
    });
    area.append(button);
  }
}

function tick() {
  const node = $("clock");
  if (!state.clock.length || !state.clock.some((ms) => ms > 0)) return;
  const asked = state.over ? -1 : (state.decide ? state.decide.player : -1);
  const spent = performance.now() - state.clockAt;
  node.replaceChildren(...state.clock.map((ms, seat) => {
    const left = Math.max(0, seat === asked ? ms - spent : ms);
    const s = Math.floor(left / 1000);
    return text("span", `p${seat} ${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`, seat === asked ? "running" : "");
  }));
}

function send(message) {
  if (state.socket && state.socket.readyState === WebSocket.OPEN) state.socket.send(JSON.stringify(message));
}

function receive(frame) {
  // a frame holds one or more messages, one per line (protocol 2)
  for (const line of frame.split("\n")) if (line) receiveOne(JSON.parse(line));
}

function receiveOne(message) {
  switch (message.type) {
    case "hello": showHello(message); $("log").replaceChildren(); status("connected"); break;
    case "event": showEvent(message); break;
    case "board": showBoard(message); break;
    case "decide": showDecide(message); break;
    case "error": status(`not taken (${message.code}): ${message.message}`, "error"); break;
    case "game_over":
      state.over = message;
      state.decide = null;
      $("decision").replaceChildren(text("p", `Game over: ${message.text}`));
      status(`game over: ${message.text}`, "over");
      document.body.dataset.over = "true";
      break;
    case "close": break;
  }
}

function open() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${window.location.host}/ws/${tableId}?token=${encodeURIComponent(token)}&svg=1`);
  state.socket = socket;
  socket.addEventListener("message", (e) => receive(e.data));
  socket.addEventListener("open", () => { state.tries = 0; });
  socket.addEventListener("close", () => {
    if (state.over) return;
    state.tries += 1;
    if (state.tries > 8) { status("the table cannot be reached (wrong token, or the server is down)", "error"); return; }
    status("connection lost; reconnecting…", "error");
    setTimeout(open, Math.min(250 * 2 ** state.tries, 4000));
  });
}

$("leave").addEventListener("click", () => {
  if (window.confirm("Leave the game? It counts as a concession.")) send({ type: "concede" });
});
setInterval(tick, 250);
if (tableId && token) open(); else status("open this page from a table's address: /play/TABLE?token=TOKEN", "error");
