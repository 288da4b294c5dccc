// The arena viewer's page: plain JavaScript, no library, nothing from the internet.
"use strict";
const $ = (id) => document.getElementById(id);
const state = { tab: "content", changes: -1, content: null, replay: null, event: 0, asked: -1 };

async function getJSON(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(await r.text());
  return r.json();
}
async function getText(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(await r.text());
  return r.text();
}
// Every POST carries X-Arena: a page of another site cannot send it.
async function postRaw(url) {
  const r = await fetch(url, { method: "POST", headers: { "X-Arena": "1" } });
  if (!r.ok) throw new Error(await r.text());
  return r;
}
async function post(url) { return (await postRaw(url)).json(); }
async function postText(url) { return (await postRaw(url)).text(); }
function fill(select, items, keep) {
  const old = keep ? select.value : "";
  select.innerHTML = "";
  for (const it of items) {
    const o = document.createElement("option");
    o.value = it.id;
    o.textContent = it.name && it.name !== it.id ? `${it.name} (${it.id})` : it.id;
    select.appendChild(o);
  }
  if (old && items.some((i) => i.id === old)) select.value = old;
}
function showError(where, e) { where.textContent = String(e.message || e); }

// ---- tabs
function showTab(tab) {
  state.tab = tab;
  for (const s of document.querySelectorAll(".tab")) s.hidden = s.id !== `tab-${tab}`;
  for (const b of document.querySelectorAll("nav button")) b.classList.toggle("on", b.dataset.tab === tab);
  if (location.hash !== `#${tab}`) history.replaceState(null, "", `#${tab}`);
  redraw();
}
for (const b of document.querySelectorAll("nav button")) b.onclick = () => showTab(b.dataset.tab);

function redraw() {
  if (state.tab === "map") drawMap();
  if (state.tab === "replay") drawReplay();
}

// ---- content
async function loadContent() {
  const c = await getJSON("/api/content");
  state.content = c;
  const lists = $("content-lists");
  lists.innerHTML = "";
  const section = (title, items, onclick) => {
    const h = document.createElement("h3");
    h.textContent = `${title} (${items.length})`;
    const ul = document.createElement("ul");
    for (const it of items) {
      const li = document.createElement("li");
      if (onclick) {
        const a = document.createElement("a");
        a.textContent = it.label;
        a.onclick = () => onclick(it);
        li.appendChild(a);
      } else li.textContent = it.label;
      ul.appendChild(li);
    }
    lists.append(h, ul);
  };
  for (const p of c.packs) {
    section(`Pack ${p.id} ${p.version}`, p.files.map((f) => ({ label: f, pack: p.id, path: f })), showSource);
  }
  const named = (xs) => xs.map((x) => ({ label: `${x.name} (${x.id})`, id: x.id }));
  section("Maps", named(c.maps), (m) => { $("map-id").value = m.id; showTab("map"); });
  section("Scenarios", named(c.scenarios), null);
  section("Setups", named(c.setups), null);
  section("Characters", named(c.characters), null);
  section("Tactics", named(c.tactics), null);
  fill($("map-id"), c.maps.concat(c.scenarios), true);
  fill($("replay-setup"), c.setups.concat(c.scenarios), true);
  fill($("play-setup"), c.setups.concat(c.scenarios), true);
  fill($("balance-scenario"), c.scenarios.concat(c.setups), true);
  fill($("replay-name"), c.replays.map((r) => ({ id: r })), true);
  fill($("balance-report"), c.charts.map((r) => ({ id: r })), true);
}
async function showSource(f) {
  $("source-name").textContent = `${f.pack}: ${f.path}`;
  try {
    $("source").textContent = await getText(`/api/source?pack=${encodeURIComponent(f.pack)}&path=${encodeURIComponent(f.path)}`);
  } catch (e) { showError($("source"), e); }
}

// ---- map
function boardClicks(board, input, draw) {
  board.onclick = (ev) => {
    const p = ev.target.closest("[data-q]");
    if (!p) return;
    input.value = `${p.dataset.q},${p.dataset.r}`;
    draw();
  };
}
function pictureQuery(coords, from) {
  let q = coords.checked ? "&coords=1" : "";
  if (from.value.trim()) q += `&from=${encodeURIComponent(from.value.trim())}`;
  return q;
}
async function drawMap() {
  const id = $("map-id").value;
  if (!id) return;
  try {
    $("map-board").innerHTML = await getText(`/api/map.svg?id=${encodeURIComponent(id)}${pictureQuery($("map-coords"), $("map-from"))}`);
  } catch (e) { showError($("map-board"), e); }
}
$("map-id").onchange = drawMap;
$("map-coords").onchange = drawMap;
$("map-from").onchange = drawMap;
boardClicks($("map-board"), $("map-from"), drawMap);

// ---- replay
async function openReplay(name) {
  const r = await getJSON(`/api/replay?name=${encodeURIComponent(name)}`);
  state.replay = r;
  state.event = 0;
  const ol = $("narrative");
  ol.innerHTML = "";
  r.events.forEach((line, i) => {
    const li = document.createElement("li");
    li.textContent = line;
    li.onclick = () => step(i);
    ol.appendChild(li);
  });
  $("scrub").max = r.events.length - 1;
  step(0);
}
async function step(n) {
  if (!state.replay) return;
  const last = state.replay.events.length - 1;
  state.event = Math.max(0, Math.min(last, n));
  drawReplay();
}
async function drawReplay() {
  if (!state.replay) return;
  const n = state.event;
  $("scrub").value = n;
  $("event-no").textContent = `event ${n} of ${state.replay.events.length - 1}`;
  const items = $("narrative").children;
  for (let i = 0; i < items.length; i++) {
    items[i].className = i === n ? "now" : i > n ? "later" : "";
  }
  if (items[n]) items[n].scrollIntoView({ block: "nearest" });
  try {
    const svg = await getText(`/api/replay.svg?name=${encodeURIComponent(state.replay.name)}&event=${n}`);
    if (state.event === n) $("replay-board").innerHTML = svg;
  } catch (e) { showError($("replay-board"), e); }
}
$("first").onclick = () => step(0);
$("prev").onclick = () => step(state.event - 1);
$("next").onclick = () => step(state.event + 1);
$("last").onclick = () => step(Infinity);
$("scrub").oninput = () => step(Number($("scrub").value));
$("replay-name").onchange = () => openReplay($("replay-name").value);
$("replay-new").onclick = async () => {
  $("event-no").textContent = "playing…";
  try {
    const r = await post(`/api/replays?setup=${encodeURIComponent($("replay-setup").value)}&seed=${encodeURIComponent($("replay-seed").value)}&seats=${$("replay-seats").value}`);
    await loadContent();
    $("replay-name").value = r.name;
    await openReplay(r.name);
  } catch (e) { showError($("event-no"), e); }
};
document.addEventListener("keydown", (ev) => {
  if (state.tab !== "replay" || ev.target.tagName === "INPUT") return;
  if (ev.key === "ArrowRight") step(state.event + 1);
  if (ev.key === "ArrowLeft") step(state.event - 1);
  if (ev.key === "Home") step(0);
  if (ev.key === "End") step(Infinity);
});

// ---- balance
$("balance-run").onclick = async () => {
  $("balance-note").textContent = "playing…";
  const q = `scenario=${encodeURIComponent($("balance-scenario").value)}&games=${encodeURIComponent($("balance-games").value)}${$("balance-random").checked ? "&random_teams=1" : ""}`;
  try {
    // Plays games: a POST (one batch at a time; leaving the page stops it).
    $("balance-chart").innerHTML = await postText(`/api/balance.svg?${q}`);
    $("balance-note").textContent = "";
  } catch (e) { showError($("balance-note"), e); }
};

// A report given with `arena serve --chart FILE`: a forest plot of paired
// differences, a tune's curve, a batch's bars (docs/balance.md § Pictures).
$("balance-show").onclick = async () => {
  const name = $("balance-report").value;
  if (!name) { $("balance-note").textContent = "no report: start the viewer with --chart FILE"; return; }
  try {
    $("balance-chart").innerHTML = await getText(`/api/chart.svg?name=${encodeURIComponent(name)}`);
    $("balance-note").textContent = "";
  } catch (e) { showError($("balance-note"), e); }
};

// ---- play
$("play-start").onclick = async () => {
  state.asked = -1;
  try {
    await post(`/api/play/start?setup=${encodeURIComponent($("play-setup").value)}&seed=${encodeURIComponent($("play-seed").value)}&seat=${$("play-seat").value}&seats=${$("play-seats").value}`);
  } catch (e) { showError($("play-decision"), e); }
};
async function pollPlay() {
  const g = await getJSON("/api/play");
  if (g.asked === state.asked && !g.over) return;
  state.asked = g.asked;
  if (g.board) $("play-board").innerHTML = g.board;
  // An option marker on the board answers its option (the first of a shared one);
  // more than one on a space: the buttons below say which is which.
  $("play-board").querySelectorAll("[data-option]").forEach((m) => {
    const numbers = m.dataset.option.split(",").map(Number);
    m.onclick = () => {
      if (numbers.length === 1) post(`/api/play/answer?index=${numbers[0] - 1}`).catch((e) => showError($("play-decision"), e));
      else $("play-decision").querySelectorAll("button").forEach((b, i) => b.classList.toggle("offered", numbers.includes(i + 1)));
    };
  });
  const ol = $("play-narrative");
  ol.innerHTML = "";
  for (const line of g.narrative.slice(-40)) {
    const li = document.createElement("li");
    li.textContent = line;
    ol.appendChild(li);
  }
  ol.start = Math.max(0, g.narrative.length - 40);
  ol.scrollTop = ol.scrollHeight;
  // The seat's own hand, as cards: name, timing, text (000 § Hand).
  const hand = $("play-hand");
  hand.innerHTML = "";
  for (const c of g.hand || []) {
    const card = document.createElement("div");
    card.className = "card tactic";
    const name = document.createElement("b");
    name.textContent = c.name;
    const timing = document.createElement("i");
    timing.textContent = c.timing;
    const text = document.createElement("p");
    text.textContent = c.text;
    card.append(name, timing, text);
    hand.appendChild(card);
  }
  const box = $("play-decision");
  box.innerHTML = "";
  if (g.error) box.textContent = g.error;
  else if (g.over) box.textContent = "The game is over.";
  else if (g.decision) {
    const d = g.decision;
    const p = document.createElement("div");
    p.className = "prompt";
    p.textContent = `${d.player}${d.character ? ` (${d.character})` : ""}: ${d.prompt}`;
    box.appendChild(p);
    d.options.forEach((o, i) => {
      const b = document.createElement("button");
      b.textContent = `${i + 1}. ${o}`;
      b.onclick = () => post(`/api/play/answer?index=${i}`).catch((e) => showError(box, e));
      box.appendChild(b);
    });
  }
}

// ---- reload when a watched pack is saved
async function pollStatus() {
  try {
    const s = await getJSON("/api/status");
    $("status").textContent = s.generation ? `content generation ${s.generation}` : "no good content yet";
    $("rejected").hidden = !s.rejected;
    $("rejected").textContent = s.rejected ? `The last save was rejected; the last good content stays live.\n\n${s.rejected}` : "";
    if (s.changes !== state.changes) {
      state.changes = s.changes;
      if (s.generation) {
        await loadContent();
        redraw();
      }
    }
  } catch (e) { $("status").textContent = "the viewer is not answering"; }
}
setInterval(pollStatus, 500);
setInterval(() => { if (state.tab === "play") pollPlay().catch(() => {}); }, 400);
pollStatus().then(() => showTab(location.hash.slice(1) || "content"));
