// The public page: pairings by name and standings, read from /api/event every two seconds (no token anywhere).
import { fill, standings, roundLine } from "./eventview.js";

async function refresh() {
  const got = await fetch("/api/event");
  if (!got.ok) return;
  const view = await got.json();
  document.getElementById("title").textContent = `${view.event} · pairings and standings`;
  document.getElementById("round").textContent = roundLine(view);
  fill(document.getElementById("tables"), view.tables.map((t) => [t.table, t.a, t.b, t.state, t.result || ""]));
  standings(document.getElementById("standings"), view.standings);
}

refresh();
setInterval(refresh, 2000);
