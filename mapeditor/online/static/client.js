// The browser side of an online game: draws what the host sends and proposes the actions it
// offers. The host's engine decides; this page never judges a move itself.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const game = decodeURIComponent(location.pathname.split("/").pop());
const token = new URLSearchParams(location.hash.slice(1)).get("t") || "";
const $ = (id) => document.getElementById(id);

let ws = null;
let welcome = null;
let state = null;
let rotation = 0;
let pending = null; // [x, y, r, spots] of a placed-but-not-sent tile (the meeple step)
let zoom = 1;
let retry = 0;
let receivedAt = 0; // when the last state came (move clocks count down from it)

function el(tag, attrs, parent) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function html(tag, text, parent, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  if (cls) e.className = cls;
  if (parent) parent.appendChild(e);
  return e;
}

function status(text, bad) {
  $("status").textContent = text;
  $("status").className = bad ? "bad" : "";
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(`${scheme}//${location.host}/ws/${encodeURIComponent(game)}`);
  ws.onopen = () => {
    retry = 0;
    status("connected");
    ws.send(JSON.stringify({ type: "join", token }));
  };
  ws.onmessage = (ev) => receive(JSON.parse(ev.data));
  ws.onclose = () => {
    status("disconnected — reconnecting…", true);
    retry = Math.min(retry + 1, 10);
    setTimeout(connect, 500 * retry);
  };
}

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

let played = false; // a play was sent and not yet answered

function play(action) {
  pending = null;
  played = true;
  send({ type: "play", seen: state.actions, action });
}

function receive(msg) {
  if (msg.type === "welcome") {
    welcome = msg;
    $("title").textContent = msg.map ? `Carcassonne Maps — ${msg.map.name}` : "Carcassonne";
    document.body.dataset.seat = msg.seat;
  } else if (msg.type === "state") {
    receivedAt = Date.now();
    const moved = !state || state.actions !== msg.actions;
    state = msg;
    if (moved) {
      pending = null;
      fitRotation();
    }
    render();
  } else if (msg.type === "error") {
    $("hint").textContent = msg.message;
    if (played) send({ type: "sync" }); // the play was refused: show the position as it is
  }
  played = false;
}

function mine() {
  return state && state.moves && !state.over;
}

function placementsAt(r) {
  return mine() ? state.moves.placements.filter((p) => p[2] === r) : [];
}

function fitRotation() {
  // keep the player's rotation when the new tile fits that way, else the first that fits
  if (!mine() || state.phase !== "place") return;
  if (placementsAt(rotation).length) return;
  for (const r of [0, 90, 180, 270]) {
    if (placementsAt(r).length) { rotation = r; return; }
  }
}

function rotate(dir) {
  if (pending) {
    // in the meeple step: turn the tile on its square to the next rotation that fits there
    const [x, y] = pending;
    for (let i = 1; i <= 4; i++) {
      const r = (pending[2] + 90 * dir * i + 720) % 360;
      const p = state.moves.placements.find((q) => q[0] === x && q[1] === y && q[2] === r);
      if (p) { rotation = r; pending = p; break; }
    }
  } else {
    rotation = (rotation + 90 * dir + 360) % 360;
  }
  render();
}

function clickSquare(p) {
  if (!p[3].length) {
    play({ type: "place", x: p[0], y: p[1], rotation: p[2], meeple: null });
    return;
  }
  pending = p;
  render();
}

function bounds() {
  if (welcome && welcome.map) return [0, 0, welcome.map.width, welcome.map.height];
  const xs = state.tiles.map((t) => t[0]);
  const ys = state.tiles.map((t) => t[1]);
  return [Math.min(...xs) - 2, Math.min(...ys) - 2, Math.max(...xs) + 3, Math.max(...ys) + 3];
}

function meeple(g, x, y, colour, upgraded) {
  const s = 0.34;
  const t = `translate(${x - s / 2} ${y - s / 2}) scale(${s})`;
  if (upgraded) el("ellipse", { cx: x, cy: y + s * 0.45, rx: s * 0.7, ry: s * 0.22, fill: "#f5c400", stroke: "#5a4300", "stroke-width": 0.02 }, g);
  const m = el("g", { transform: t, fill: colour, stroke: "#222", "stroke-width": 0.05 }, g);
  el("polygon", { points: ".36,.30 .10,.40 .02,.50 .08,.56 .32,.54 .16,.94 .19,1 .41,1 .5,.76 .59,1 .81,1 .84,.94 .68,.54 .92,.56 .98,.50 .90,.40 .64,.30" }, m);
  el("circle", { cx: 0.5, cy: 0.19, r: 0.17 }, m);
}

// a mark or resource the state names without its kind: grey, a chip, its id
const unknownKind = (id) => ({ name: id, colour: "#9a9a9a", icon: "chip" });

function icon(parent, kind, x, y, size) {
  // the rule language's icons, by name, from the host's sprite (engine/rules/data/icons.py)
  const u = el("use", { href: `/static/icons.svg#icon-${kind.icon}`, x, y, width: size, height: size, color: kind.colour }, parent);
  el("title", {}, u).textContent = kind.name;
  return u;
}

function drawMarks(svg) {
  const taken = new Set(state.tiles.map((t) => `${t[0]},${t[1]}`));
  const g = el("g", { id: "marks" }, svg);
  // a state without the designer's keys (a host from before them) has no marks or resources
  for (const [x, y, id] of state.marks ?? []) {
    const kind = state.mark_kinds?.[id] || unknownKind(id);
    const m = el("g", { "data-mark": `${x},${y}`, "data-mark-id": id }, g);
    el("rect", { x: x + 0.06, y: y + 0.06, width: 0.88, height: 0.88, rx: 0.08, fill: kind.colour, "fill-opacity": taken.has(`${x},${y}`) ? 0 : 0.35, stroke: kind.colour, "stroke-width": 0.05 }, m);
    // under a tile the icon moves to the corner, so the tile stays readable
    if (taken.has(`${x},${y}`)) icon(m, kind, x + 0.04, y + 0.04, 0.34);
    else icon(m, kind, x + 0.25, y + 0.25, 0.5);
  }
}

function render() {
  if (!state || !welcome) return;
  renderBoard();
  renderPanel();
}

function renderBoard() {
  const svg = $("board");
  const [x0, y0, x1, y1] = bounds();
  const w = x1 - x0, h = y1 - y0;
  svg.setAttribute("viewBox", `${x0} ${y0} ${w} ${h}`);
  const scroll = $("board-scroll");
  const fit = Math.max(8, Math.min(scroll.clientWidth / w, scroll.clientHeight / h));
  svg.setAttribute("width", Math.round(w * fit * zoom));
  svg.setAttribute("height", Math.round(h * fit * zoom));
  svg.replaceChildren();
  if (welcome.map) {
    el("image", { href: `/g/${game}/map.png`, x: 0, y: 0, width: w, height: h, preserveAspectRatio: "none" }, svg);
  }
  const tiles = el("g", { id: "tiles" }, svg);
  for (const [x, y, id, r] of state.tiles) {
    el("image", { href: welcome.tiles + id + ".png", x, y, width: 1, height: 1, transform: `rotate(${r} ${x + 0.5} ${y + 0.5})` }, tiles);
  }
  drawMarks(svg);
  if (state.last) el("rect", { class: "last", x: state.last[0] + 0.03, y: state.last[1] + 0.03, width: 0.94, height: 0.94 }, svg);
  for (const [x, y, colour, value] of state.chips) {
    const c = el("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.2, fill: colour, stroke: "#1e1e1e", "stroke-width": 0.03 }, svg);
    c.setAttribute("data-chip", `${x},${y}`);
    if (value !== null) { const t = el("text", { x: x + 0.5, y: y + 0.5, class: "chip-value" }, svg); t.textContent = value; }
  }
  for (const [x, y, count] of state.stacks) {
    el("rect", { x: x + 0.15, y: y + 0.15, width: 0.7, height: 0.7, fill: "#d9c79a", stroke: "#5b4a32", "stroke-width": 0.03 }, svg);
    const t = el("text", { x: x + 0.5, y: y + 0.5, class: "chip-value", fill: "#000" }, svg);
    t.textContent = count;
  }
  for (const [p, x, y, up] of state.meeples) meeple(svg, x, y, state.players[p].colour, up);
  if (!mine()) return;
  const overlay = el("g", { id: "overlay" }, svg);
  if (pending) {
    const [x, y, r, spots] = pending;
    el("image", { href: welcome.tiles + state.tile + ".png", x, y, width: 1, height: 1, class: "pending", transform: `rotate(${r} ${x + 0.5} ${y + 0.5})` }, overlay);
    for (const [loc, u, v, role] of spots) {
      const c = el("circle", { class: "spot", cx: x + u, cy: y + v, r: 0.13, "data-spot": loc }, overlay);
      el("title", {}, c).textContent = `${role} (${loc})`;
      c.addEventListener("click", () => play({ type: "place", x, y, rotation: r, meeple: loc }));
    }
    return;
  }
  if (state.phase === "place") {
    const here = new Set();
    for (const p of placementsAt(rotation)) {
      here.add(`${p[0]},${p[1]}`);
      const s = el("rect", { class: "legal", x: p[0], y: p[1], width: 1, height: 1, "data-sq": `${p[0]},${p[1]}` }, overlay);
      s.addEventListener("click", () => clickSquare(p));
    }
    for (const p of state.moves.placements) {
      const k = `${p[0]},${p[1]}`;
      if (here.has(k)) continue;
      here.add(k);
      el("rect", { class: "fits-other", x: p[0] + 0.05, y: p[1] + 0.05, width: 0.9, height: 0.9 }, overlay);
    }
  }
  state.moves.actions.forEach((a, i) => {
    if (!a.square) return;
    const [x, y] = a.square;
    const c = el("circle", { class: "target", cx: x + 0.5, cy: y + 0.5, r: 0.3, "data-target": i }, overlay);
    el("title", {}, c).textContent = a.label;
    c.addEventListener("click", () => play(a.action));
  });
}

function renderPanel() {
  const me = state.you;
  // a rule may ask another player for a choice inside the turn: name the one who acts
  const p = state.players[state.decider ?? state.to_move];
  const turn = $("turn");
  if (state.over) {
    turn.textContent = "Game over — " + state.winners.map((w) => state.players[w].name).join(" and ") + " won";
    turn.className = "";
  } else if (mine()) {
    turn.textContent =
      state.decider !== undefined && state.decider !== state.to_move
        ? `${p.name}, your choice in ${state.players[state.to_move].name}'s turn`
        : `${p.name}, your turn: ` + (pending ? "place a meeple or not" : state.phase_words);
    turn.className = "mine";
  } else {
    turn.textContent = `${p.name} to play` + (p.stand_in ? " (a bot stands in)" : "");
    turn.className = "";
  }
  document.body.dataset.mine = mine() ? "1" : "0";
  document.body.dataset.actions = state.actions;
  const img = $("tile");
  if (state.tile && !state.over) {
    img.hidden = false;
    img.src = welcome.tiles + state.tile + ".png";
    img.style.transform = `rotate(${pending ? pending[2] : rotation}deg)`;
  } else {
    img.hidden = true;
  }
  $("tiles-left").textContent = `${state.tiles_left} tiles left`;
  const acts = $("actions");
  acts.replaceChildren();
  if (mine()) {
    if (pending) {
      const [x, y, r, spots] = pending;
      for (const [loc, , , role] of spots) {
        const s = html("button", `${role} (${loc})`, acts);
        s.dataset.spotButton = loc;
        s.onclick = () => play({ type: "place", x, y, rotation: r, meeple: loc });
      }
      const b = html("button", "No meeple", acts);
      b.id = "no-meeple";
      b.onclick = () => play({ type: "place", x: pending[0], y: pending[1], rotation: pending[2], meeple: null });
      const c = html("button", "Pick the tile up again", acts);
      c.id = "pick-up";
      c.onclick = () => { pending = null; render(); };
    } else {
      state.moves.actions.forEach((a, i) => {
        const b = html("button", a.label, acts);
        b.dataset.action = i;
        b.onclick = () => play(a.action);
      });
    }
  }
  const body = $("scores").tBodies[0];
  body.replaceChildren();
  state.players.forEach((pl, i) => {
    const acting = state.decider ?? state.to_move;
    const tr = html("tr", null, body, i === acting && !state.over ? "to-move" : "");
    const name = html("td", null, tr);
    const sw = html("span", null, name, "swatch");
    sw.style.background = pl.colour;
    name.append(" " + pl.name + (i === me ? " (you)" : ""));
    if (pl.kind !== "human") name.append(` — ${pl.kind} bot`);
    else if (!pl.here) html("span", " away", name, "away");
    if (pl.stand_in) html("span", " (bot stands in)", name, "away");
    if (pl.held.length) html("div", "chips: " + pl.held.map(([c, v]) => `${c} ${v}`).join(", "), name, "held");
    if (pl.resources?.length) {
      const res = html("div", null, name, "held resources");
      for (const [id, count] of pl.resources) {
        const kind = state.resource_kinds?.[id] || unknownKind(id);
        const r = html("span", null, res, "resource");
        r.dataset.resource = id;
        const pic = el("svg", { viewBox: "0 0 1 1", width: 16, height: 16 }, r);
        icon(pic, kind, 0, 0, 1);
        r.append(` ${kind.name} ${count}`);
      }
    }
    if (pl.clock !== null) html("div", null, name, "held clock").dataset.until = receivedAt + pl.clock * 1000;
    html("td", `${pl.score}`, tr).className = "score";
    html("td", `${pl.meeples} meeples`, tr);
  });
  const log = $("log");
  const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
  log.replaceChildren();
  for (const line of state.log) html("li", line.replace(/^★ /, "★ "), log, line.startsWith("★") ? "score" : "");
  if (atEnd) log.scrollTop = log.scrollHeight;
  const chat = $("chat");
  chat.replaceChildren();
  for (const c of state.chat) html("li", `${c.from}: ${c.text}`, chat);
  chat.scrollTop = chat.scrollHeight;
  tickClocks();
  $("chat-form").hidden = me < 0; // spectators only watch
  if (!mine()) $("hint").textContent = me < 0 ? "watching" : "";
  else if (pending) $("hint").textContent = "Choose a meeple spot (a circle or a button), or No meeple";
  else if (state.phase === "place") {
    $("hint").textContent = placementsAt(rotation).length
      ? "Click a highlighted square to place the tile"
      : "The tile fits nowhere at this rotation: turn it";
  }
}

function tickClocks() {
  for (const c of document.querySelectorAll(".clock")) {
    c.textContent = "clock: " + formatTime(Math.max(0, (Number(c.dataset.until) - Date.now()) / 1000));
  }
}

function formatTime(s) {
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
  return h ? `${h} h ${m} min` : `${m} min ${Math.floor(s % 60)} s`;
}

$("rotate-left").onclick = () => rotate(-1);
$("rotate-right").onclick = () => rotate(1);
$("zoom-in").onclick = () => { zoom = Math.min(6, zoom * 1.25); render(); };
$("zoom-out").onclick = () => { zoom = Math.max(0.5, zoom / 1.25); render(); };
$("chat-form").onsubmit = (ev) => {
  ev.preventDefault();
  const text = $("chat-text").value.trim();
  if (text) send({ type: "chat", text });
  $("chat-text").value = "";
};
document.addEventListener("keydown", (ev) => {
  if (ev.target.tagName === "INPUT") return;
  if (ev.key === "r" || ev.key === "R") rotate(ev.shiftKey ? -1 : 1);
  if (ev.key === "Escape" && pending) { pending = null; render(); }
});
window.addEventListener("resize", render);
setInterval(tickClocks, 1000);
connect();
