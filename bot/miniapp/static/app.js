/* Tavola's live table. Display only: every rule (legal steps, what may be pressed) comes
   from the server, which plays each action through the bot's own pipeline. */
"use strict";
(function () {
  const tg = window.Telegram && window.Telegram.WebApp;
  const initData = tg ? tg.initData || "" : "";
  const query = new URLSearchParams(location.search);
  const tableRef = query.get("table") ||
    (tg && tg.initDataUnsafe && tg.initDataUnsafe.start_param) || "";
  const NS = "http://www.w3.org/2000/svg";
  const W = 640, H = 440, M = 10, SIDE = 44, BAR = 40, PW = 40, R = 18, PLEN = 170;
  const FIELD_X = M + SIDE, FIELD_TOP = M + 6, FIELD_BOTTOM = H - M - 6;
  const svg = document.getElementById("board");
  let T = {}, C = {}, S = null, selected = null, drag = null, chain = Promise.resolve();
  let clockOffset = 0, movesVersion = -1;

  const rgb = (c) => `rgb(${c[0]},${c[1]},${c[2]})`;
  const $ = (id) => document.getElementById(id);
  const fmt = (s, v) => s.replace(/\{(\w+)\}/g, (_, k) => v[k]);

  function el(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    (parent || svg).appendChild(e);
    return e;
  }

  /* Board numbering: the bottom side's own, 1 bottom right .. 12 bottom left,
     13 top left .. 24 top right; 25 the bar, 0 the tray (borne off). */
  function column(p) { return p <= 12 ? 12 - p : p - 13; }
  function pointX(p) { const c = column(p); return FIELD_X + c * PW + (c >= 6 ? BAR : 0); }
  function isTop(p) { return p >= 13; }
  function slotY(p, i) {
    const k = Math.min(i, 4);
    return isTop(p) ? FIELD_TOP + R + k * 2 * R : FIELD_BOTTOM - R - k * 2 * R;
  }
  const BAR_X = FIELD_X + 6 * PW;
  const TRAY_X = FIELD_X + 12 * PW + BAR + 4;

  function applyTheme() {
    if (!tg || !tg.themeParams) return;
    const root = document.documentElement.style;
    for (const [k, v] of Object.entries(tg.themeParams)) {
      root.setProperty(`--tg-theme-${k.replace(/_/g, "-")}`, v);
    }
  }

  function checker(x, y, side, cls, parent) {
    const fill = side === "white" ? C.white_checker : C.black_checker;
    const rim = side === "white" ? C.white_rim : C.black_rim;
    return el("circle", { cx: x, cy: y, r: R - 1, fill: rgb(fill), stroke: rgb(rim),
      "stroke-width": 2, class: cls || "checker", "data-side": side }, parent);
  }

  function drawFrame() {
    el("rect", { x: 0, y: 0, width: W, height: H, rx: 10, fill: rgb(C.wood) });
    el("rect", { x: FIELD_X, y: M, width: 6 * PW, height: H - 2 * M, fill: rgb(C.felt) });
    el("rect", { x: BAR_X + BAR, y: M, width: 6 * PW, height: H - 2 * M, fill: rgb(C.felt) });
    el("rect", { x: BAR_X, y: M, width: BAR, height: H - 2 * M, fill: rgb(C.wood_dark),
      "data-point": 25, class: "bar" });
    for (const top of [true, false]) {
      el("rect", { x: TRAY_X, y: top ? M : H / 2 + 4, width: SIDE - 8, height: H / 2 - M - 4,
        rx: 4, fill: rgb(C.tray), "data-point": top ? -1 : 0, class: "tray" });
    }
    for (let p = 1; p <= 24; p++) {
      const x = pointX(p), top = isTop(p);
      const base = top ? M : H - M, tip = top ? M + PLEN : H - M - PLEN;
      el("polygon", { points: `${x},${base} ${x + PW},${base} ${x + PW / 2},${tip}`,
        fill: rgb(p % 2 ? C.point_b : C.point_a), class: "tri" });
      el("text", { x: x + PW / 2, y: top ? M + PLEN + 14 : H - M - PLEN - 6, "font-size": 10,
        "text-anchor": "middle", fill: rgb(C.label), opacity: 0.7 }).textContent = p;
    }
  }

  function drawCheckers() {
    for (let p = 1; p <= 24; p++) {
      const [n, side] = S.points[p];
      for (let i = 0; i < Math.min(n, 5); i++) {
        checker(pointX(p) + PW / 2, slotY(p, i), side, "checker");
      }
      if (n > 5) {
        el("text", { x: pointX(p) + PW / 2, y: slotY(p, 4) + 5, "font-size": 15, "font-weight": 700,
          "text-anchor": "middle", fill: side === "white" ? "#222" : "#eee" }).textContent = n;
      }
    }
    S.players.forEach((pl, i) => {  // i 0: bottom, 1: top
      for (let k = 0; k < Math.min(pl.bar, 4); k++) {
        checker(BAR_X + BAR / 2, i === 0 ? H / 2 + 30 + k * 2 * R : H / 2 - 30 - k * 2 * R, pl.side);
      }
      if (pl.bar > 1) el("text", { x: BAR_X + BAR / 2, y: i === 0 ? H / 2 + 18 : H / 2 - 12,
        "font-size": 12, "text-anchor": "middle", fill: "#fff" }).textContent = pl.bar;
      const ty = i === 0 ? H - M - 8 : M + 8;
      for (let k = 0; k < pl.off; k++) {
        el("rect", { x: TRAY_X + 3, y: i === 0 ? ty - k * 12 - 10 : ty + k * 12, width: SIDE - 14,
          height: 10, rx: 2, fill: rgb(pl.side === "white" ? C.white_checker : C.black_checker),
          stroke: rgb(pl.side === "white" ? C.white_rim : C.black_rim), "pointer-events": "none" });
      }
    });
  }

  function drawLastPlay() {
    for (const st of S.last) {
      const p = st.to;
      if (p < 1 || p > 24) continue;
      el("circle", { cx: pointX(p) + PW / 2, cy: isTop(p) ? FIELD_TOP + R : FIELD_BOTTOM - R,
        r: R + 2, fill: "none", stroke: rgb(st.hit ? C.hit : C.accent), "stroke-width": 2,
        "stroke-dasharray": "4 3", class: "last", "pointer-events": "none" });
    }
  }

  function drawDice() {
    const n = S.dice.length, size = 34, gap = 8;
    const right = S.turn === S.bottom;  // the mover's dice on their right, as on the PNG
    const cx = right ? BAR_X + BAR + 3 * PW : FIELD_X + 3 * PW;
    let x = cx - (n * size + (n - 1) * gap) / 2;
    for (const d of S.dice) {
      const g = el("g", { class: "die", "data-value": d.value, opacity: d.used ? 0.35 : 1 });
      el("rect", { x, y: H / 2 - size / 2, width: size, height: size, rx: 6, fill: "#fafafa",
        stroke: "#333" }, g);
      const pips = { 1: [[.5, .5]], 2: [[.25, .25], [.75, .75]], 3: [[.25, .25], [.5, .5], [.75, .75]],
        4: [[.25, .25], [.75, .25], [.25, .75], [.75, .75]],
        5: [[.25, .25], [.75, .25], [.5, .5], [.25, .75], [.75, .75]],
        6: [[.25, .25], [.75, .25], [.25, .5], [.75, .5], [.25, .75], [.75, .75]] }[d.value];
      for (const [px, py] of pips) {
        el("circle", { cx: x + px * size, cy: H / 2 - size / 2 + py * size, r: 3.4, fill: "#222" }, g);
      }
      x += size + gap;
    }
  }

  function drawCube() {
    const c = S.cube;
    if (!c) return;
    let y = H / 2;
    const owner = c.offered_by || c.owner;
    if (owner) y = owner === S.bottom ? H - M - 40 : M + 40;
    const x = M + SIDE / 2;
    const g = el("g", { id: "cube", opacity: c.active ? 1 : 0.4 });
    el("rect", { x: x - 17, y: y - 17, width: 34, height: 34, rx: 5, fill: "#f5f0e6",
      stroke: rgb(c.offered_by ? C.accent : C.wood_dark), "stroke-width": c.offered_by ? 4 : 2 }, g);
    el("text", { x, y: y + 7, "font-size": 18, "font-weight": 700, "text-anchor": "middle",
      fill: "#222" }, g).textContent = c.offered_by || c.owner ? c.value : 64;
  }

  function drawBanner() {
    if (!S.banner.length) return;
    const h = 26 * S.banner.length + 16;
    el("rect", { x: FIELD_X + 20, y: H / 2 - h / 2, width: 12 * PW + BAR - 40, height: h, rx: 8,
      fill: rgb(C.info_bg), opacity: 0.92, id: "banner" });
    S.banner.forEach((line, i) => {
      el("text", { x: FIELD_X + 6 * PW + BAR / 2, y: H / 2 - h / 2 + 30 + i * 26, "font-size": 18,
        "text-anchor": "middle", fill: rgb(C.info_text) }).textContent = line;
    });
  }

  function drawHits() {
    for (let p = 0; p <= 25; p++) {
      let attrs;
      if (p >= 1 && p <= 24) {
        attrs = { x: pointX(p), y: isTop(p) ? M : H / 2, width: PW, height: H / 2 - M };
      } else if (p === 25) {
        attrs = { x: BAR_X, y: M, width: BAR, height: H - 2 * M };
      } else {
        attrs = { x: TRAY_X, y: H / 2 + 4, width: SIDE - 8, height: H / 2 - M - 4 };
      }
      el("rect", Object.assign(attrs, { class: "point-hit", "data-point": p }));
    }
  }

  function sources() { return new Set((S && S.legal || []).map((s) => s.from)); }
  function targets(from) { return (S.legal || []).filter((s) => s.from === from); }

  function drawSelection() {
    if (selected === null) return;
    for (const s of targets(selected)) {
      const p = s.to;
      let attrs;
      if (p === 0) attrs = { x: TRAY_X, y: H / 2 + 4, width: SIDE - 8, height: H / 2 - M - 4 };
      else attrs = { x: pointX(p) + 2, y: isTop(p) ? M : H / 2 + 6, width: PW - 4, height: H / 2 - M - 6 };
      el("rect", Object.assign(attrs, { class: "target", "data-target": p, rx: 4,
        "pointer-events": "none" }));
    }
    const [x, y] = topChecker(selected);
    el("circle", { cx: x, cy: y, r: R + 1, fill: "none", class: "source", "pointer-events": "none" });
  }

  function topChecker(p) {
    if (p === 25) return [BAR_X + BAR / 2, H / 2 + 30];
    const n = S.points[p][0];
    return [pointX(p) + PW / 2, slotY(p, Math.max(0, Math.min(n, 5) - 1))];
  }

  function drawBoard() {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    drawFrame();
    drawLastPlay();
    drawCheckers();
    drawDice();
    drawCube();
    drawBanner();
    drawHits();
    drawSelection();
  }

  function strip(id, pl) {
    const box = $(id);
    box.querySelector(".chip").style.background = rgb(pl.side === "white" ? C.white_checker : C.black_checker);
    box.querySelector(".name").textContent = pl.name;
    box.querySelector(".pips").textContent = pl.pips === null ? "" : `${pl.pips} ${T.pips}`;
    box.querySelector(".score").textContent = S.match_length > 1 ? `${T.score} ${pl.score}` : "";
    box.classList.toggle("on-turn", S.turn === pl.side);
  }

  const ACTIONS = ["roll", "double", "take", "drop", "undo", "confirm"];

  function drawControls() {
    const box = $("controls");
    box.textContent = "";
    for (const a of [...ACTIONS, "resign"]) {
      if (!S.can[a]) continue;
      const b = document.createElement("button");
      b.id = `btn-${a}`;
      b.textContent = T[a];
      if (a === "resign" || a === "undo" || a === "drop") b.className = "secondary";
      b.addEventListener("click", () => send(a, []));
      box.appendChild(b);
    }
  }

  function render() {
    document.body.dataset.version = S ? S.version : "";
    if (!S) return;
    if (selected !== null && !sources().has(selected)) selected = null;
    drawBoard();
    strip("bottom-player", S.players[0]);
    strip("top-player", S.players[1]);
    let status = S.status;
    if (S.over) status = T.over;
    else if (S.on_turn) status = T.your_turn;
    else if (S.seat === null) status = `${T.watching} · ${S.status}`;
    $("status").textContent = status;
    drawControls();
    const notes = $("notes");
    notes.textContent = "";
    for (const n of S.notes.slice(-4)) {
      const li = document.createElement("li");
      li.textContent = n;
      notes.appendChild(li);
    }
    clockOffset = S.now * 1000 - Date.now();
    tick();
    if ($("moves-panel").open) loadMoves();
  }

  function tick() {
    const clock = $("clock");
    if (!S || !S.deadline || S.over) { clock.textContent = ""; return; }
    const left = Math.max(0, Math.round(S.deadline - (Date.now() + clockOffset) / 1000));
    const m = Math.floor(left / 60), s = left % 60;
    clock.textContent = `${T.clock} ${m}:${String(s).padStart(2, "0")}`;
    clock.classList.toggle("low", left < 30);
  }

  function say(text, error) {
    const m = $("message");
    m.textContent = text || "";
    m.classList.toggle("error", !!error);
  }

  function adopt(state) {
    if (!state) return;
    if (S && state.game === S.game && state.version < S.version) return;  // an older picture
    S = state;
    render();
  }

  async function api(path, options) {
    const headers = Object.assign({ "X-Telegram-Init-Data": initData }, options && options.headers);
    const r = await fetch(path, Object.assign({}, options, { headers }));
    let body = {};
    try { body = await r.json(); } catch (e) { /* not JSON */ }
    return [r.status, body];
  }

  /* One action at a time, each decided on the version the page shows. */
  function send(action, args) {
    document.body.dataset.busy = "1";  // an action on its way (tests wait for its answer)
    chain = chain.then(async () => {
      if (!S) return;
      const body = JSON.stringify({ table: tableRef, game: S.game, version: S.version, action, args });
      const [status, res] = await api("api/act", { method: "POST", body,
        headers: { "Content-Type": "application/json" } });
      selected = null;
      if (res.state) adopt(res.state); else render();
      if (res.ok) say(action === "resign" ? T.resign_asked : "");
      else say(res.reason || `HTTP ${status}`, true);
      if (tg && tg.HapticFeedback) tg.HapticFeedback.impactOccurred(res.ok ? "light" : "rigid");
    }).catch((e) => say(String(e), true)).finally(() => { delete document.body.dataset.busy; });
    return chain;
  }

  function step(from, to) {
    const s = targets(from).find((t) => t.to === to);
    if (!s) return false;
    send("step", [s.src, s.dst, s.die]);
    return true;
  }

  function pointAt(x, y) {
    const hit = document.elementsFromPoint(x, y).find((e) => e.dataset && e.dataset.point !== undefined);
    return hit ? Number(hit.dataset.point) : null;
  }

  function svgPoint(ev) {
    const pt = svg.createSVGPoint();
    pt.x = ev.clientX; pt.y = ev.clientY;
    return pt.matrixTransform(svg.getScreenCTM().inverse());
  }

  svg.addEventListener("pointerdown", (ev) => {
    if (!S || !S.on_turn) return;
    const p = pointAt(ev.clientX, ev.clientY);
    if (p === null) return;
    if (selected !== null && targets(selected).some((t) => t.to === p)) {
      const from = selected;
      selected = null;
      step(from, p);
      return;
    }
    if (!sources().has(p)) { selected = null; drawBoard(); return; }
    selected = p;
    drawBoard();
    const at = svgPoint(ev);
    const side = S.players[0].side;
    drag = { from: p, ghost: checker(at.x, at.y, side, "ghost"), moved: false, x: ev.clientX, y: ev.clientY };
    svg.setPointerCapture(ev.pointerId);
  });

  svg.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    const at = svgPoint(ev);
    drag.ghost.setAttribute("cx", at.x);
    drag.ghost.setAttribute("cy", at.y);
    if (Math.abs(ev.clientX - drag.x) + Math.abs(ev.clientY - drag.y) > 6) drag.moved = true;
  });

  function endDrag(ev) {
    if (!drag) return;
    const d = drag;
    drag = null;
    d.ghost.remove();
    if (!d.moved) return;  // a tap: the checker stays selected, its destinations lit
    const p = pointAt(ev.clientX, ev.clientY);
    if (p !== null && p !== d.from && step(d.from, p)) { selected = null; return; }
    drawBoard();
  }
  svg.addEventListener("pointerup", endDrag);
  svg.addEventListener("pointercancel", endDrag);

  async function loadMoves() {
    if (!S || movesVersion === S.version) return;
    movesVersion = S.version;
    const [status, res] = await api(`api/moves?table=${encodeURIComponent(tableRef)}&game=${S.game}`);
    if (status !== 200) return;
    const list = $("moves");
    list.textContent = "";
    for (const line of res.moves.length ? res.moves : [T.no_moves]) {
      const li = document.createElement("li");
      li.textContent = line;
      list.appendChild(li);
    }
  }

  function listen() {
    const game = S ? `&game=${S.game}` : "";
    const url = `api/live?table=${encodeURIComponent(tableRef)}${game}&init=${encodeURIComponent(initData)}`;
    const events = new EventSource(url);
    events.addEventListener("state", (ev) => {
      const data = JSON.parse(ev.data);
      if (!data.state) { say(T.no_game, true); return; }
      adopt(data.state);
      const shown = $("message").textContent;
      if (shown === T.offline || shown === T.connecting) say("");  // back on line
    });
    events.onerror = () => { if (events.readyState !== EventSource.OPEN) say(T.offline); };
  }

  async function start() {
    const r = await fetch("api/texts");
    const cat = await r.json();
    T = cat.texts;
    C = cat.theme;
    document.title = T.title;
    $("moves-title").textContent = T.moves;
    $("moves-panel").addEventListener("toggle", loadMoves);
    applyTheme();
    if (tg) {
      tg.ready();
      if (tg.expand) tg.expand();
      if (tg.onEvent) tg.onEvent("themeChanged", applyTheme);
    }
    say(T.connecting);
    const [status, res] = await api(`api/state?table=${encodeURIComponent(tableRef)}`);
    if (status !== 200) { say(res.reason || T.refused, true); document.body.dataset.refused = status; return; }
    adopt(res.state);
    say(S.on_turn ? T.drag_hint : "");
    listen();
    setInterval(tick, 1000);
  }

  start().catch((e) => say(String(e), true));
})();
