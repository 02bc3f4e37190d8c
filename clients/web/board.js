// Clicks on the board as answers. Each option of a question names the board elements it refers to (protocol 3:
// card, target, where). An option is a short sequence of picks: the card it acts with, then the card it aims at,
// then the place it goes (whichever it names). A click on the board is read as the set of things it hit
// (placesOf); the options whose next pick is among them stay in play. When one option is complete it is sent;
// when several complete options cannot be told apart by the board, a chooser lists them.

const PILES = new Set(["echo", "deck", "resource", "used", "hand"]);

// What a click on `node` points at: "card:1004", "lane:0:exterior", "lane:exterior", "site:2", "site", "pile:deck".
export function placesOf(node) {
  const places = [];
  for (let el = node; el && el.getAttribute; el = el.parentNode) {
    const card = el.getAttribute("data-card");
    if (card) places.push(`card:${card}`);
    const zone = el.getAttribute("data-zone");
    if (zone) {
      const parts = zone.split(":");
      if (parts.length === 3) {
        places.push(`lane:${parts[1]}:${parts[2]}`, `lane:${parts[2]}`);
        if (parts[0] === "site") places.push("site", zone);
      } else if (parts.length === 2 && parts[0] === "site") places.push(zone);
      else if (PILES.has(zone)) places.push(`pile:${zone}:${el.getAttribute("data-side")}`);
    }
    const lane = el.getAttribute("data-lane");
    if (lane) places.push(`lane:${lane}`);
    const site = el.getAttribute("data-site");
    if (site) places.push(`site:${site}`);
    if (el.getAttribute("data-counter") === "echo") places.push(`pile:echo:${el.getAttribute("data-side")}`);
    if (el.tagName && el.tagName.toLowerCase() === "svg") break;
  }
  return places;
}

// The picks of an option, each a list of the places that make it. A card the board does not show (a starting
// Site still in the deck) is no pick: the option is told apart by what remains, or by the chooser.
function picks(option, present, seat) {
  const out = [];
  const shown = (card) => !present || present.has(`card:${card}`);
  const copies = [option.card, ...(option.alike || [])].filter((c) => c && shown(c)); // one choice, any copy
  if (copies.length) out.push(copies.map((c) => `card:${c}`));
  if (option.target && shown(option.target)) out.push([`card:${option.target}`]);
  else if (option.kind === "AddAttacker") out.push(["site"]); // the defender's Site position
  const where = option.where || "";
  if (where && !(option.card && PILES.has(where))) {
    if (PILES.has(where)) out.push([`pile:${where}:${seat}`]); // the asked seat's own pile
    else if (where.startsWith("lane:")) {
      const parts = where.split(":");
      out.push(parts.length === 3 ? [where, `lane:${parts[2]}`] : [where]);
    } else out.push([where]);
  }
  return out;
}

export class Picker {
  constructor(send, hint) {
    this.sendAnswer = send;
    this.say = hint;
    this.decide = null;
    this.chosen = 0; // picks made so far
    this.alive = [];
    this.present = null; // every place the board shows
    this.players = []; // the seats' names (the hello message's), for what a screen reader says of a place
  }

  picks(option) {
    return picks(option, this.present, this.decide ? this.decide.player : -1);
  }

  set(decide, board) {
    this.decide = decide;
    this.chosen = 0;
    this.present = shownOn(board);
    this.alive = decide ? decide.options.filter((o) => this.picks(o).length) : [];
    this.chooser(null);
    this.mark(board);
  }

  plain() {
    return this.decide ? this.decide.options.filter((o) => !this.picks(o).length) : [];
  }

  cancel(board) {
    if (this.decide) this.set(this.decide, board);
    this.say(this.hint());
  }

  next() {
    // the places that make the next pick of an option still in play
    const places = new Set();
    for (const option of this.alive) {
      const p = this.picks(option)[this.chosen];
      if (p) p.forEach((x) => places.add(x));
    }
    return places;
  }

  hint() {
    if (!this.decide) return "";
    if (!this.alive.length) return "Choose with the buttons.";
    if (this.chosen === 0) return "Click a highlighted card or place on the board, or use the buttons (Esc undoes a pick).";
    return "Now click where it goes: " + this.alive.map((o) => o.text).join(" · ");
  }

  click(places, board) {
    if (!this.decide || !places.length) return;
    const hit = new Set(places);
    let alive = this.alive.filter((o) => (this.picks(o)[this.chosen] || []).some((p) => hit.has(p)));
    if (!alive.length && this.chosen > 0) { // a fresh start: the click begins another option
      this.set(this.decide, board);
      alive = this.alive.filter((o) => (this.picks(o)[0] || []).some((p) => hit.has(p)));
    }
    if (!alive.length) return;
    this.alive = alive;
    this.chosen += 1;
    const done = alive.filter((o) => this.picks(o).length === this.chosen);
    if (done.length === 1 && alive.length === 1) { this.sendAnswer(done[0]); return; }
    if (done.length && done.length === alive.length) { this.chooser(done); this.mark(board); return; }
    this.mark(board);
    this.say(this.hint());
  }

  chooser(options) {
    const box = document.getElementById("chooser");
    if (!box) return;
    box.replaceChildren();
    box.hidden = !options;
    for (const option of options || []) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = option.text;
      button.dataset.index = option.index;
      button.addEventListener("click", () => this.sendAnswer(option));
      box.append(button);
    }
  }

  // Highlight what can be clicked next, and make it reachable by the keyboard.
  mark(board) {
    const svg = board.querySelector("svg");
    if (!svg) return;
    for (const el of svg.querySelectorAll("[data-pick]")) {
      el.removeAttribute("data-pick");
      el.removeAttribute("tabindex");
      el.removeAttribute("role");
      el.classList.remove("pickable", "picked");
    }
    if (!this.decide) return;
    const next = this.next();
    const candidates = svg.querySelectorAll("[data-card], [data-zone], [data-lane], [data-site], [data-counter]");
    for (const el of candidates) {
      const own = placesOf(el).filter((p) => !placesOfParent(el).includes(p));
      if (own.some((p) => next.has(p))) {
        el.setAttribute("data-pick", "1");
        el.setAttribute("tabindex", "0");
        el.setAttribute("role", "button");
        el.setAttribute("aria-label", labelOf(el, this.players));
        el.classList.add("pickable");
      }
    }
  }

  cycle(board) {
    const all = [...board.querySelectorAll("[data-pick]")];
    if (!all.length) return;
    const at = all.indexOf(document.activeElement);
    all[(at + 1) % all.length].focus();
  }
}

// What a screen reader says of a clickable element: a card's name, a lane or Site as the rules name it [M9-025]
// (the Exterior lane, Bo's Interior Site), with the players' names as every other text says them.
const titled = (word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();

function labelOf(el, players = []) {
  const name = el.getAttribute("data-name");
  if (name) return name;
  const lane = el.getAttribute("data-lane");
  if (lane) return `the ${titled(lane)} lane`;
  const site = el.getAttribute("data-site");
  if (site) return `Site ${site}`;
  const zone = el.getAttribute("data-zone") || "";
  const parts = zone.split(":");
  if (parts.length === 3) {
    const who = players[Number(parts[1])] || `player ${Number(parts[1]) + 1}`;
    return `${who}'s ${titled(parts[2])} ${parts[0] === "site" ? "Site" : "lane"}`;
  }
  if (parts.length === 2) return `Site ${parts[1]}`;
  if (el.getAttribute("data-counter") === "echo") return "your Echo";
  return zone ? `your ${zone} pile` : "a place on the board";
}

function shownOn(board) {
  const present = new Set();
  const svg = board && board.querySelector("svg");
  if (svg) for (const el of svg.querySelectorAll("[data-card]")) present.add(`card:${el.getAttribute("data-card")}`);
  return svg ? present : null;
}

function placesOfParent(el) {
  return el.parentNode && el.parentNode.getAttribute ? placesOf(el.parentNode) : [];
}
