// The organiser's desk: the round's tables and their state, paper results, the round clock, drops and standings.
// Reads /api/desk every second; every act is a POST to /api/desk/ACT with the organiser's token, and a refusal
// shows its named error at the top of the page.
import { fill, standings, roundLine, clockText } from "./eventview.js";

const token = new URLSearchParams(location.search).get("token") || "";
const auth = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };

function showError(text) {
  const box = document.getElementById("error");
  box.textContent = text || "";
  box.hidden = !text;
}

async function act(what, body = {}) {
  const got = await fetch(`/api/desk/${what}`, { method: "POST", headers: auth, body: JSON.stringify(body) });
  const answer = await got.json();
  showError(got.ok ? "" : answer.error);
  await refresh();
  return got.ok;
}

function button(label, testid, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  b.dataset.testid = testid;
  b.addEventListener("click", onClick);
  return b;
}

function stateCell(t) {
  const span = document.createElement("span");
  span.className = `state-${t.state.replace(/ .*/, "")}`;
  span.textContent = t.error ? `${t.state}: ${t.error}` : t.paper ? "finished (paper)" : t.state;
  span.dataset.testid = `state-${t.table}`;
  return span;
}

function resultCell(t) {
  if (t.state !== "paper") return document.createTextNode(t.result ? `${t.result}${t.winner ? ` · ${t.winner} wins` : ` · ${t.named || "drawn"}`}` : "");
  const form = document.createElement("form");
  const input = document.createElement("input");
  input.placeholder = "2-1 or ID";
  input.dataset.testid = `result-${t.table}`;
  input.setAttribute("aria-label", `result of table ${t.table}, games won by ${t.a} first, or ID for an intentional draw`);
  form.append(input, button("Enter", `enter-${t.table}`, () => form.requestSubmit()));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    act("result", { table: t.table, result: input.value.trim() });
  });
  return form;
}

function actions(t) {
  const span = document.createElement("span");
  if (t.state === "waiting" || t.state === "failed") {
    span.append(button("Play on paper", `paper-${t.table}`, () => act("paper", { table: t.table })));
  }
  return span;
}

function watch(t) {
  if (!t.spectate) return document.createTextNode("");
  const a = document.createElement("a");
  a.href = t.spectate;
  a.target = "_blank";
  a.textContent = "spectate";
  return a;
}

let editing = false; // a result being typed is not redrawn under the organiser's fingers

async function refresh() {
  if (editing) return;
  const got = await fetch("/api/desk", { headers: auth });
  const view = await got.json();
  if (!got.ok) {
    showError(view.error);
    return;
  }
  document.getElementById("title").textContent = `${view.event} · organiser's desk`;
  document.getElementById("round").textContent = roundLine(view);
  document.getElementById("left").textContent = !view.round ? "no round" : view.complete ? "every result is in" :
    view.ended ? "time called" : clockText(view.seconds_left);
  fill(document.getElementById("tables"), view.tables.map((t) => [t.table, t.a, t.b, stateCell(t), resultCell(t), watch(t), actions(t)]));
  standings(document.getElementById("standings"), view.standings);
  const players = document.getElementById("players");
  players.replaceChildren(...view.players.map((p) => {
    const li = document.createElement("li");
    const link = document.createElement("a");
    link.href = p.link;
    link.textContent = "personal link";
    li.append(`${p.name} (${p.id}) `, link);
    if (p.dropped) li.append(" — dropped");
    else li.append(" ", button("Drop", `drop-${p.id}`, () => act("drop", { player: p.id, reason: "dropped at the desk" })));
    return li;
  }));
}

document.getElementById("start").addEventListener("click", () =>
  act("clock", { action: "start", minutes: Number(document.getElementById("minutes").value) }));
document.getElementById("end").addEventListener("click", () => act("clock", { action: "end" }));
document.getElementById("pair").addEventListener("click", () => act("pair"));
document.addEventListener("focusin", (e) => { editing = e.target instanceof HTMLInputElement && e.target.closest("#tables") !== null; });
document.addEventListener("focusout", () => { editing = false; });

refresh();
setInterval(refresh, 1000);
