// sgs serve: the page. It shows what the server sends and sends back the index of the option
// chosen: the engine decides what is legal, never the page (docs/web.md).
"use strict";

const $ = (id) => document.getElementById(id);
const S = { setup: null, texts: { cards: {}, skills: {}, heroes: {}, kingdoms: {}, roles: {} },
            socket: null, question: null, chosen: null, replay: null };
window.sgsState = S;

// ------------------------------------------------------------------ text helpers
function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// Escaped text, each 【NAME】 a term with a hover text, red suits red.
function rich(text) {
  return esc(text)
    .replace(/【([^】]+)】/g, (m, name) => `<span class="term" data-term="${name}">【${name}】</span>`)
    .replace(/[♥♦]/g, (s) => `<span class="red">${s}</span>`);
}

function heroTip(name) {
  const hero = S.texts.heroes[name];
  if (!hero) return "";
  const kingdom = S.texts.kingdoms[hero.kingdom] || hero.kingdom;
  const skills = hero.skills.map((s) => `【${s}】${(S.texts.skills[s] || {}).text || ""}`);
  return [`${name}　${kingdom}　體力 ${hero.hp}　${hero.gender === "female" ? "女" : "男"}`, ...skills].join("\n");
}

// The hover text of a name: a card, a skill or a hero (a card variant 【名·國】 falls back on 【名】).
function termTip(name) {
  const card = S.texts.cards[name] || S.texts.cards[name.split("·")[0]];
  if (card) return `【${name}】（${card.type}）\n${card.text}`;
  const skill = S.texts.skills[name];
  if (skill) return `【${name}】${skill.tags.length ? "（" + skill.tags.join("、") + "）" : ""}\n${skill.text}`;
  return heroTip(name);
}

function showTip(event) {
  const el = event.target.closest("[data-term],[data-hero]");
  const tip = $("tip");
  if (!el) { tip.classList.add("hidden"); return; }
  const text = el.dataset.term ? termTip(el.dataset.term) : heroTip(el.dataset.hero);
  if (!text) { tip.classList.add("hidden"); return; }
  tip.textContent = text;
  tip.classList.remove("hidden");
  const x = Math.min(event.clientX + 14, window.innerWidth - tip.offsetWidth - 8);
  const y = event.clientY + 18 + tip.offsetHeight > window.innerHeight ? event.clientY - tip.offsetHeight - 10 : event.clientY + 18;
  tip.style.left = `${Math.max(4, x)}px`;
  tip.style.top = `${Math.max(4, y)}px`;
}

function sideName(side) {
  if (side === null || side === undefined || side === "") return "?";
  return S.texts.roles[side] || S.texts.kingdoms[side] || side;
}

async function getJSON(url, options) {
  const response = await fetch(url, options);
  const text = await response.text();
  let data = null;
  try { data = JSON.parse(text); } catch (e) { data = null; }
  if (!response.ok) throw new Error((data && data.error) || `${response.status} ${response.statusText}: ${text}`);
  return data;
}

function dataURL(text, type) {
  return `data:${type};charset=utf-8,${encodeURIComponent(text)}`;
}

// ------------------------------------------------------------------ the table
function hpPips(p) {
  if (!p.max_hp) return "";
  const shown = Math.max(0, p.hp);
  if (p.max_hp > 8) return `<span class="hp">體力 ${p.hp}/${p.max_hp}</span>`;
  const pips = Array.from({ length: p.max_hp }, (_, i) => `<i class="${i < shown ? "on" : "off"}"></i>`).join("");
  return `<span class="hp" title="體力 ${p.hp}/${p.max_hp}">${pips}<small>${p.hp}/${p.max_hp}</small></span>`;
}

// A seat's hero: a hero's name, or the 國戰 generals (a "" general is face down: a card back;
// one's own face-down general is named, dimmed: the others do not see it).
function heroHTML(p) {
  if (p.generals && p.generals.length) {
    return p.generals.map((g, i) => {
      if (!g) return `<span class="back" title="face down">暗</span>`;
      const hidden = p.shown && p.shown.length && !p.shown[i];
      return `<span class="hero${hidden ? " unshown" : ""}" data-hero="${esc(g)}"`
        + `${hidden ? ' title="face down: only you see it"' : ""}>${esc(g)}</span>`;
    }).join("");
  }
  if (!p.name) return `<span class="back" title="no hero yet">？</span>`;
  return `<span class="hero" data-hero="${esc(p.hero || p.name)}">${esc(p.name)}</span>`;
}

function tagList(items, cls) {
  return items.map((c) => `<span class="${cls}">${rich(c)}</span>`).join("");
}

// A card on a seat, compact: 【名】♥K as 名♥K (the name still hovers for its text).
function compactList(items, cls) {
  return items.map((c) => {
    const m = /^【([^】]+)】(.*)$/.exec(c);
    const body = m ? `<span class="term" data-term="${esc(m[1])}">${esc(m[1])}</span>${rich(m[2])}` : rich(c);
    return `<span class="${cls}" title="${esc(c)}">${body}</span>`;
  }).join("");
}

const MANY = 6; // more seats than this: smaller seats of a fixed height, the full view's hands below the table

function seatHTML(p, table, viewer) {
  const flags = [];
  if (p.chained) flags.push(`<span class="flag chained">連環</span>`);
  if (p.turned) flags.push(`<span class="flag turned">翻面</span>`);
  for (const [name, n] of Object.entries(p.marks || {})) flags.push(`<span class="flag mark">${rich(name)} ${n}</span>`);
  const piles = (p.piles || []).map((pile) => `<span class="pile" title="${esc(pile.cards.join(" "))}">${rich(pile.name)}×${pile.count}${
    pile.cards.length ? "：" + pile.cards.map(rich).join(" ") : ""}</span>`).join("");
  const range = p.distance === null || p.distance === undefined ? ""
    : `<span class="dist ${p.in_range ? "in" : ""}" title="distance from your seat${p.in_range ? ", in your attack range" : ""}">距${p.distance}${p.in_range ? " ⚔" : ""}</span>`;
  const hand = p.hand && table.players.length <= MANY ? `<div class="seat-hand">${compactList(p.hand, "card small")}</div>` : "";
  const classes = ["seat", `k-${p.kingdom || "none"}`];
  if (!p.alive) classes.push("dead");
  if (p.seat === table.current) classes.push("current");
  if (viewer !== null && viewer !== undefined && p.seat === viewer) classes.push("me");
  return `<div class="${classes.join(" ")}" data-seat="${p.seat + 1}">
    <div class="seat-top"><span class="num">${p.seat + 1}</span><span class="heroes">${heroHTML(p)}</span>
      <span class="side" title="side as known">${esc(sideName(p.side))}</span></div>
    <div class="seat-mid"><span class="kingdom">${esc(S.texts.kingdoms[p.kingdom] || "")}</span>${hpPips(p)}<span class="count" title="cards in hand">手${p.hand_count}</span>${range}</div>
    <div class="equips">${compactList(p.equips || [], "equip")}</div>
    <div class="judge">${compactList(p.judge || [], "judgecard")}</div>
    <div class="flags">${flags.join("")}${piles}</div>${hand}
    ${p.alive ? "" : `<div class="dead-mark">陣亡</div>`}
  </div>`;
}

// The seats on an ellipse around the centre, the viewer at the bottom.
function placeSeats(board, count, bottom) {
  const seats = board.querySelectorAll(".seat");
  const w = board.clientWidth, h = board.clientHeight;
  const sw = seats[0] ? seats[0].offsetWidth : 160;
  const sh = Math.max(96, ...Array.from(seats, (el) => el.offsetHeight));
  const rx = (w - sw) / 2, ry = (h - sh) / 2;
  seats.forEach((el, i) => {
    const a = Math.PI / 2 - (2 * Math.PI * ((i - bottom + count) % count)) / count;
    el.style.left = `${w / 2 + rx * Math.cos(a) - sw / 2}px`;
    el.style.top = `${h / 2 + ry * Math.sin(a) - sh / 2}px`;
  });
}

function centreHTML(table, extra) {
  const resolving = (table.resolving || []).map((r) => `<div>${rich("【" + r.card + "】")} ${r.user + 1}號位${
    r.at === null || r.at === undefined ? "" : " → " + (r.at + 1) + "號位"}</div>`).join("");
  const discard = (table.discard || []).slice(-8).map((c) => `<span class="card small">${rich(c)}</span>`).join("");
  return `<div class="centre">
    <div class="turn">第${table.turn}回合　${table.current + 1}號位的回合</div>
    <div>牌堆 <b id="deck-count">${table.deck}</b>　棄牌堆 ${table.discard_count}${
      table.seat !== null && table.attack_range ? `　攻擊範圍 <b>${table.attack_range}</b>` : ""}</div>
    ${resolving ? `<div class="resolving"><span class="muted">resolving</span>${resolving}</div>` : ""}
    <div class="discard"><span class="muted">last discards</span> ${discard || "—"}</div>
    ${extra || ""}
  </div>`;
}

function renderTable(board, table, viewer, extra) {
  const me = viewer === null || viewer === undefined ? 0 : viewer;
  board.innerHTML = table.players.map((p) => seatHTML(p, table, viewer)).join("") + centreHTML(table, extra);
  board.classList.toggle("many", table.players.length > MANY);
  board.classList.toggle("crowded", table.players.length > 10);
  placeSeats(board, table.players.length, me);
}

// The option a hand card stands for: the option that is the card, else the one option naming it
// (使用【閃】♦2); -1 when none or several do.
function handOption(card, options) {
  const exact = options.indexOf(card);
  if (exact >= 0) return exact;
  const naming = options.map((o, i) => (o.includes(card) ? i : -1)).filter((i) => i >= 0);
  return naming.length === 1 ? naming[0] : -1;
}

function renderHand(box, cards, options) {
  box.innerHTML = cards.length ? cards.map((c) => {
    const index = options ? handOption(c, options) : -1;
    return `<span class="card${index >= 0 ? " playable" : ""}" data-option="${index}">${rich(c)}</span>`;
  }).join("") : `<span class="muted">—</span>`;
}

function appendLog(box, lines) {
  if (!lines || !lines.length) return;
  const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 30;
  // a blank line is one this seat may not read: kept (the lines stay counted), not shown
  box.insertAdjacentHTML("beforeend", lines.map((l) => `<div class="line${l.trim() ? "" : " blank"}">${rich(l)}</div>`).join(""));
  if (atEnd || box.dataset.follow !== "no") box.scrollTop = box.scrollHeight;
}

function setLog(box, lines) {
  box.innerHTML = "";
  appendLog(box, lines);
}

// ------------------------------------------------------------------ play
function playForm() {
  const f = $("play-form");
  const seed = $("play-seed").value.trim();
  return { ruleset: $("play-ruleset").value, players: Number($("play-players").value), seat: Number($("play-seat").value),
           seed: seed === "" ? null : Number(seed), agents: $("play-agents").value };
}

function startGame(event) {
  if (event) event.preventDefault();
  if (S.socket) S.socket.close();
  $("play-refused").textContent = "";
  $("over").classList.add("hidden");
  $("play-log").innerHTML = "";
  $("play-board").innerHTML = "";
  S.question = null;
  window.sgsLastOver = null;
  const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/play`);
  S.socket = socket;
  window.sgsSocket = socket;
  socket.onopen = () => socket.send(JSON.stringify(playForm()));
  socket.onmessage = (m) => onMessage(JSON.parse(m.data));
  socket.onclose = () => { if (S.socket === socket) setStatus(window.sgsLastOver ? "game over" : "disconnected"); };
  setStatus("starting…");
}

function setStatus(text) { $("status").textContent = text; }

function onMessage(m) {
  window.sgsMessages = (window.sgsMessages || []).concat([m.type]);
  if (m.type === "started") {
    S.seat = m.seat;
    setStatus(`playing ${m.ruleset}, ${m.players} players, you are seat ${m.seat + 1}`);
  } else if (m.type === "question") {
    S.table = m.table;
    renderTable($("play-board"), m.table, m.table.seat);
    appendLog($("play-log"), m.log);
    showQuestion(m.question);
  } else if (m.type === "over") {
    S.question = null;
    renderTable($("play-board"), m.table, m.table.seat);
    renderHand($("play-hand"), m.table.hand, null);
    appendLog($("play-log"), m.log);
    showOver(m);
  } else if (m.type === "refused") {
    $("play-refused").textContent = `refused: ${m.why}`;
    window.sgsLastRefused = m.why;
  } else if (m.type === "error") {
    $("play-refused").textContent = `error: ${m.error}`;
    setStatus("the game stopped on an error");
  }
}

function optionHTML(q, label, i) {
  let body = rich(label);
  if (q.kind === "hero" && S.texts.heroes[label]) {
    const h = S.texts.heroes[label];
    const skills = h.skills.map((s) => `<div class="skill">${rich("【" + s + "】")} ${esc((S.texts.skills[s] || {}).text || "")}</div>`).join("");
    body = `<b data-hero="${esc(label)}">${esc(label)}</b> <span class="kingdom k-${h.kingdom}">${esc(S.texts.kingdoms[h.kingdom] || h.kingdom)}</span> 體力${h.hp}${skills}`;
  }
  return `<button type="button" class="option${q.kind === "hero" ? " hero-option" : ""}${i === q.cancel ? " cancel-option" : ""}" data-index="${i}">${body}</button>`;
}

function showQuestion(q) {
  S.question = q;
  S.chosen = q.options.length === 1 ? 0 : null;
  const box = $("question");
  box.innerHTML = `<div class="prompt">${rich(q.prompt)}</div>
    <div class="options">${q.options.map((label, i) => optionHTML(q, label, i)).join("")}</div>
    <div class="answer-bar"><button type="button" id="confirm" disabled>Confirm</button>
    ${q.cancel === null ? "" : `<button type="button" id="cancel">Cancel: ${rich(q.options[q.cancel])}</button>`}</div>`;
  box.querySelectorAll(".option").forEach((b) => b.addEventListener("click", () => choose(Number(b.dataset.index))));
  $("confirm").addEventListener("click", () => answer(S.chosen));
  if (q.cancel !== null) $("cancel").addEventListener("click", () => answer(q.cancel));
  renderHand($("play-hand"), S.table.hand, q.options);
  $("play-hand-count").textContent = `(${S.table.hand.length})`;
  choose(S.chosen);
}

function choose(index) {
  S.chosen = index;
  document.querySelectorAll("#question .option").forEach((b) => b.classList.toggle("chosen", Number(b.dataset.index) === index));
  document.querySelectorAll("#play-hand .card").forEach((c) => c.classList.toggle("chosen", Number(c.dataset.option) === index && index !== null));
  const confirm = $("confirm");
  if (confirm) confirm.disabled = index === null;
}

function answer(index) {
  if (!S.question || index === null || !S.socket) return;
  $("play-refused").textContent = "";
  S.socket.send(JSON.stringify({ type: "answer", question: S.question.id, index }));
  $("question").innerHTML = `<div class="muted">waiting for the table…</div>`;
  S.question = null;
  renderHand($("play-hand"), S.table.hand, null);
}

function showOver(m) {
  window.sgsLastOver = m;
  const box = $("over");
  const winner = S.texts.roles[m.winner] || S.texts.kingdoms[m.winner] || m.winner;
  const sides = m.sides.map((s, i) => `<span class="side-of">${i + 1}號位 ${esc(sideName(s))}</span>`).join("");
  const session = JSON.stringify(m.session, null, 1) + "\n";
  const name = `sgs-${m.session.ruleset}-${m.session.seed}.json`;
  box.innerHTML = `<div class="winner">Winner: <b id="winner">${esc(winner || "none")}</b></div>
    <div>${rich(m.reason || "")}${m.error ? `<div class="refused">error: ${esc(m.error)}</div>` : ""}</div>
    <div>after ${m.turns} turns, seed <b>${m.session.seed}</b></div>
    <div class="sides">${sides}</div>
    <div class="answer-bar"><a id="save-game" class="button" download="${esc(name)}" href="${dataURL(session, "application/json")}">Save game</a>
    <button type="button" id="replay-this">Replay this game</button></div>`;
  box.classList.remove("hidden");
  $("question").innerHTML = `<div class="muted">The game is over.</div>`;
  $("replay-this").addEventListener("click", () => {
    showTab("replay");
    openReplay({ source: "session", text: session }, null);
  });
  setStatus("game over");
}

// ------------------------------------------------------------------ replay
async function openReplay(body, link, at, view) {
  $("replay-refused").textContent = "";
  setStatus("opening the replay…");
  try {
    const r = await getJSON("/api/replays", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    S.replay = { ...r, link, step: 0, view: view || "full" };
    window.sgsReplay = S.replay;
    $("replay-controls").classList.remove("hidden");
    $("replay-title").textContent = r.title;
    $("rp-slider").max = String(r.steps.length - 1);
    $("rp-view").innerHTML = `<option value="full">Full view</option>` +
      Array.from({ length: r.players }, (_, i) => `<option value="${i + 1}">seat ${i + 1}'s view</option>`).join("");
    $("rp-view").value = S.replay.view;
    $("rp-skeleton-box").classList.add("hidden");
    $("rp-link").classList.toggle("hidden", !link);
    if (!link) history.replaceState(null, "", location.pathname); // an uploaded file has no link
    await goTo(at || 0);
  } catch (error) {
    $("replay-refused").textContent = `refused: ${error.message}`;
    setStatus("");
  }
}

async function goTo(step) {
  const r = S.replay;
  if (!r) return;
  step = Math.max(0, Math.min(step, r.steps.length - 1));
  const token = (r.token = (r.token || 0) + 1);
  try {
    const m = await getJSON(`/api/replays/${r.id}/${step}?view=${r.view}`);
    if (token !== r.token) return; // a later step was asked for meanwhile
    r.step = m.step;
    r.moment = m;
    const viewer = r.view === "full" ? null : Number(r.view) - 1;
    renderTable($("replay-board"), m.table, viewer);
    if (viewer !== null) renderHand($("replay-hand"), m.table.hand, null);
    else $("replay-hand").innerHTML = m.table.players.map((p) => `<div class="hand-of"><b>${p.seat + 1}號位</b> ${
      (p.hand || []).map((c) => `<span class="card small">${rich(c)}</span>`).join(" ") || "—"}</div>`).join("");
    $("replay-hand").classList.toggle("hands", viewer === null);
    // the full view of a small table has the hands on the seats
    $("replay-hand").parentElement.classList.toggle("hidden", viewer === null && m.table.players.length <= MANY);
    $("replay-hand-title").textContent = viewer === null ? "Every seat's hand" : `Seat ${viewer + 1}'s hand`;
    setLog($("replay-log"), m.log);
    showDetail(m.detail, m.log);
    $("rp-slider").value = String(m.step);
    const turn = r.steps[m.step].turn;
    // steps are numbered from 0, as in the link and the ruling skeleton's title
    $("rp-where").textContent = `step ${m.step} of 0–${r.steps.length - 1} · turn ${turn}`;
    if (r.link) {
      const url = `${location.pathname}?${new URLSearchParams({ ...r.link, step: String(m.step), view: r.view })}`;
      history.replaceState(null, "", url);
      $("rp-link").href = url;
    }
    setStatus(r.title);
  } catch (error) {
    $("replay-refused").textContent = `error: ${error.message}`;
  }
}

function showDetail(d, log) {
  const box = $("rp-detail");
  const who = d.seat === null || d.seat === undefined ? "" : `${d.seat + 1}號位`;
  if (d.kind !== "question") {
    const line = log.length ? log[log.length - 1] : "";
    box.innerHTML = `<div class="muted">a line of the log (turn ${d.turn}):</div><div class="prompt">${
      line.trim() ? rich(line) : `<span class="muted">(a line this seat may not read)</span>`}</div>`;
  } else if (d.hidden) {
    box.innerHTML = `<div class="prompt">${who} was asked a question <span class="muted">(hidden from this view)</span></div>`;
  } else {
    const options = d.options.map((o) => `<div class="option${o === d.answer ? " answered" : ""}">${rich(o)}${o === d.answer ? " ✔" : ""}</div>`).join("");
    box.innerHTML = `<div class="prompt">${who}: ${rich(d.prompt)}</div><div class="options">${options}</div>
      <div>answer: <b id="rp-answer">${rich(d.answer)}</b></div>`;
  }
}

function stepBy(kind, direction) {
  const r = S.replay;
  if (!r) return;
  const at = r.step;
  if (kind === "step") return goTo(at + direction);
  let targets;
  if (kind === "question") targets = r.steps.map((s, i) => (s.kind === "question" ? i : -1)).filter((i) => i >= 0);
  else targets = r.turn_starts;
  const found = direction > 0 ? targets.find((i) => i > at) : [...targets].reverse().find((i) => i < at);
  if (found !== undefined) return goTo(found);
  return goTo(direction > 0 ? r.steps.length - 1 : 0);
}

async function showSkeleton() {
  const r = S.replay;
  if (!r) return;
  const box = $("rp-skeleton-box");
  const area = $("rp-skeleton-text");
  box.classList.remove("hidden");
  area.value = "";
  $("rp-skeleton-download").removeAttribute("href"); // no stale text to download while asking
  try {
    const response = await fetch(`/api/replays/${r.id}/${r.step}/ruling`);
    const text = await response.text();
    if (!response.ok) {
      let why = text;
      try { why = JSON.parse(text).error || text; } catch (e) { /* a plain text error */ }
      area.value = `error ${response.status}: ${why}`;
      box.classList.add("error");
      return;
    }
    box.classList.remove("error");
    area.value = text;
    $("rp-skeleton-download").href = dataURL(text, "text/plain");
    $("rp-skeleton-download").download = `step-${r.step}.ruling`;
  } catch (error) {
    area.value = `error: ${error.message}`;
  }
}

function openSeed(event, at, view) {
  if (event) event.preventDefault();
  const link = { replay: "seed", ruleset: $("replay-ruleset").value, players: $("replay-players").value,
                 seed: $("replay-seed").value, agents: $("replay-agents").value };
  return openReplay({ source: "seed", ruleset: link.ruleset, players: Number(link.players), seed: Number(link.seed), agents: link.agents },
                    link, at, view);
}

async function openFile(event) {
  event.preventDefault();
  const file = $("replay-file").files[0];
  if (!file) { $("replay-refused").textContent = "choose a file first"; return; }
  const text = await file.text();
  const body = { source: $("replay-file-kind").value, text };
  if ($("replay-file-title").value) body.title = $("replay-file-title").value;
  return openReplay(body, null);
}

function openServedRuling(event, at, view) {
  if (event) event.preventDefault();
  const [file, title] = JSON.parse($("replay-ruling").value || "[]");
  if (!file) { $("replay-refused").textContent = "no ruling file is served: start sgs serve --rulings PATH"; return; }
  return openReplay({ source: "ruling-file", file, title }, { ruling: file, title }, at, view);
}

// ------------------------------------------------------------------ setup
function fillRulesets(select, players, chosen) {
  select.innerHTML = S.setup.rulesets.map((r) => `<option value="${esc(r.name)}">${esc(r.name)} (${esc(r.mode)})</option>`).join("");
  select.value = chosen || S.setup.ruleset;
  const limit = () => {
    const r = S.setup.rulesets.find((x) => x.name === select.value);
    players.min = r.players[0];
    players.max = r.players[1];
    players.value = String(Math.min(r.players[1], Math.max(r.players[0], Number(players.value) || r.players[0])));
  };
  select.addEventListener("change", limit);
  limit();
}

function showTab(name) {
  document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t.dataset.tab === name));
  document.querySelectorAll(".panel").forEach((p) => p.classList.toggle("active", p.id === name));
}

function wire() {
  document.querySelectorAll(".tab").forEach((t) => t.addEventListener("click", () => showTab(t.dataset.tab)));
  document.addEventListener("mouseover", showTip);
  $("play-form").addEventListener("submit", startGame);
  $("play-players").addEventListener("change", () => { $("play-seat").max = $("play-players").value; });
  $("play-hand").addEventListener("click", (e) => {
    const card = e.target.closest(".card.playable");
    if (card && S.question) choose(Number(card.dataset.option));
  });
  $("replay-seed-form").addEventListener("submit", openSeed);
  $("replay-file-form").addEventListener("submit", openFile);
  $("replay-ruling-form").addEventListener("submit", openServedRuling);
  $("rp-back").addEventListener("click", () => stepBy("step", -1));
  $("rp-forward").addEventListener("click", () => stepBy("step", 1));
  $("rp-q-back").addEventListener("click", () => stepBy("question", -1));
  $("rp-q-forward").addEventListener("click", () => stepBy("question", 1));
  $("rp-turn-back").addEventListener("click", () => stepBy("turn", -1));
  $("rp-turn-forward").addEventListener("click", () => stepBy("turn", 1));
  $("rp-slider").addEventListener("input", () => goTo(Number($("rp-slider").value)));
  $("rp-view").addEventListener("change", () => { S.replay.view = $("rp-view").value; goTo(S.replay.step); });
  $("rp-skeleton").addEventListener("click", showSkeleton);
  document.addEventListener("keydown", (e) => {
    if (!$("replay").classList.contains("active") || e.target.matches("input,textarea,select")) return;
    if (e.key === "ArrowLeft") stepBy("step", -1);
    if (e.key === "ArrowRight") stepBy("step", 1);
  });
  window.addEventListener("resize", () => {
    for (const id of ["play-board", "replay-board"]) {
      const board = $(id);
      const bottom = board.querySelector(".seat.me");
      if (board.querySelector(".seat")) placeSeats(board, board.querySelectorAll(".seat").length, bottom ? Number(bottom.dataset.seat) - 1 : 0);
    }
  });
}

// A URL of a moment (?replay=seed&… or ?ruling=FILE&…) opens that moment.
function restoreMoment() {
  const q = new URLSearchParams(location.search);
  const at = Number(q.get("step") || 0), view = q.get("view") || "full";
  if (q.get("replay") === "seed") {
    showTab("replay");
    $("replay-ruleset").value = q.get("ruleset");
    $("replay-players").value = q.get("players");
    $("replay-seed").value = q.get("seed");
    $("replay-agents").value = q.get("agents") || "random";
    return openSeed(null, at, view);
  }
  if (q.get("ruling")) {
    showTab("replay");
    $("replay-ruling").value = JSON.stringify([q.get("ruling"), q.get("title") || ""]);
    return openReplay({ source: "ruling-file", file: q.get("ruling"), title: q.get("title") || null },
                      { ruling: q.get("ruling"), title: q.get("title") || "" }, at, view);
  }
  return null;
}

async function main() {
  wire();
  [S.setup, S.texts] = await Promise.all([getJSON("/api/setup"), getJSON("/api/texts")]);
  fillRulesets($("play-ruleset"), $("play-players"));
  fillRulesets($("replay-ruleset"), $("replay-players"));
  const agents = S.setup.agents.map((a) => `<option>${esc(a)}</option>`).join("");
  $("play-agents").innerHTML = agents;
  $("play-agents").value = "heuristic";
  $("replay-agents").innerHTML = agents;
  $("replay-agents").value = "random";
  $("play-seat").max = $("play-players").value;
  const rulings = S.setup.rulings.flatMap((f) => f.titles.map((t) => [f.file, t]));
  $("replay-ruling").innerHTML = rulings.length
    ? rulings.map(([f, t]) => `<option value="${esc(JSON.stringify([f, t]))}">${esc(f)}: ${esc(t)}</option>`).join("")
    : `<option value="">(none served: sgs serve --rulings PATH)</option>`;
  window.sgsReady = true;
  await restoreMoment();
}

main().catch((error) => setStatus(`cannot load the table: ${error.message}`));
