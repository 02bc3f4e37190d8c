// A player's page: who they are and the game they are to play now; a link to its table when it is ready.
const token = new URLSearchParams(location.search).get("token") || "";

async function refresh() {
  const got = await fetch(`/api/me?token=${encodeURIComponent(token)}`);
  const view = await got.json();
  const who = document.getElementById("who");
  const next = document.getElementById("next");
  if (!got.ok) {
    who.textContent = view.error;
    return;
  }
  who.textContent = `${view.name}`;
  if (!view.table || view.result) {
    next.textContent = view.result
      ? `Round ${view.round}, table ${view.at}: your match is over: ${view.result}.`
      : "No game of yours is waiting: wait for the next pairing.";
    return;
  }
  const href = `/play/${view.table}?match=1&token=${encodeURIComponent(token)}`; // match: its game-over leads back here
  next.replaceChildren(`Round ${view.round}, table ${view.at}, game ${view.game} against ${view.opponent}: `);
  const a = document.createElement("a");
  a.href = href;
  a.textContent = "play it";
  next.append(a);
}

refresh();
setInterval(refresh, 2000);
