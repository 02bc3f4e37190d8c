// Helpers shared by the desk and the public page: rows of text cells, the standings, the round's line.

export function cell(text) {
  const td = document.createElement("td");
  td.textContent = String(text);
  return td;
}

export function fill(body, rows) {
  body.replaceChildren(...rows.map((cells) => {
    const tr = document.createElement("tr");
    tr.append(...cells.map((c) => (c instanceof Node ? wrap(c) : cell(c))));
    return tr;
  }));
}

function wrap(node) {
  const td = document.createElement("td");
  td.append(node);
  return td;
}

export function standings(body, rows) {
  fill(body, rows.map((s) => [s.rank, s.name, s.points, s.record, s.omw, s.gw]));
  if (!rows.length) {
    const tr = document.createElement("tr");
    tr.className = "empty";
    const td = cell("no results yet");
    td.colSpan = 6;
    tr.append(td);
    body.replaceChildren(tr);
  }
}

export function clockText(seconds) {
  if (seconds === null || seconds === undefined) return "not started";
  const sign = seconds < 0 ? "−" : "";
  const s = Math.abs(seconds);
  return `${sign}${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")} left`;
}

export function roundLine(view) {
  if (!view.round) return "no round paired yet";
  const state = view.finished ? "event over" : view.complete ? "round complete" : view.ended ? "time called" :
    view.started ? clockText(view.seconds_left) : "clock not started";
  return `round ${view.round} (${view.stage}, best of ${view.best_of}) · ${state}`;
}
