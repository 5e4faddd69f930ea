// The dashboard page: live journal (polling /__sim/journal), entry detail with the response body,
// scenarios view, "Try it" form. All data goes into the DOM as text (never as HTML): journal
// values come from any client.
"use strict";
(function () {
  // `serve --admin-token T`: open the page as /__sim/ui/#token=T; the token is kept for this tab
  // (sessionStorage), removed from the address bar and sent as a Bearer header on admin calls.
  const tokenMatch = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (tokenMatch) {
    sessionStorage.setItem("vietmap-sim-admin-token", decodeURIComponent(tokenMatch[1]));
    history.replaceState(null, "", location.pathname + location.search);
  }
  const ADMIN_TOKEN = sessionStorage.getItem("vietmap-sim-admin-token");
  const AUTH_HEADERS = ADMIN_TOKEN ? { "Authorization": "Bearer " + ADMIN_TOKEN } : {};
  window.vietmapSimAdminHeaders = AUTH_HEADERS;
  const ADMIN_HEADERS = Object.assign({ "X-VietMap-Sim-Admin": "1", "Content-Type": "application/json" }, AUTH_HEADERS);
  const MAX_ENTRIES = 5000, MAX_ROWS = 500, POLL_MS = 1000, SHORT_GAP_MS = 300, MAX_PRETTY = 300000;

  // ---------- helpers ----------
  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value == null || value === false) continue;
      if (name === "class") node.className = value;
      else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else if (name === "dataset") Object.assign(node.dataset, value);
      else node.setAttribute(name, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child == null || child === false) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }
  const $ = (id) => document.getElementById(id);
  async function getJSON(path) {
    const response = await fetch(path, { cache: "no-store", headers: AUTH_HEADERS });
    const data = await response.json().catch(() => null);
    if (!response.ok) throw new Error((data && data.error) || response.status + " " + response.statusText);
    return data;
  }
  /** A state-changing admin call: never a "simple" request (X-VietMap-Sim-Admin, JSON type), the tab's token. */
  async function adminSend(method, path, bodyText) {
    const response = await fetch("../" + path, { method, headers: ADMIN_HEADERS, body: bodyText });
    const data = await response.json().catch(() => null);
    if (!response.ok) {
      const error = new Error((data && data.error) || response.status + " " + response.statusText);
      error.problems = data && Array.isArray(data.errors) ? data.errors : [];  // a document's {file, path, reason}s
      throw error;
    }
    return data;
  }
  function adminPost(path, body) { return adminSend("POST", path, JSON.stringify(body || {})); }
  function param(entry, name) {
    const item = (entry.query || []).find((q) => q.name === name);
    return item ? item.value : null;
  }
  function params(entry, name) { return (entry.query || []).filter((q) => q.name === name).map((q) => q.value); }
  function parseLatLng(text) {
    if (!text) return null;
    const parts = String(text).split(",").map((s) => Number(s.trim()));
    return parts.length === 2 && parts.every(Number.isFinite) && Math.abs(parts[0]) <= 90 && Math.abs(parts[1]) <= 180 ? parts : null;
  }
  /**
   * A Directions v5 path's profile and coordinates: `…/directions/v5/mapbox/driving/106.7,10.77;106.69,10.78.json`
   * → { profile: "mapbox/driving", points: [[10.77, 106.7], …] } (lng,lat in the path; bad items dropped).
   */
  function directionsPath(path) {
    const marker = "/directions/v5/";
    const at = String(path || "").indexOf(marker);
    if (at < 0) return { profile: "", points: [] };
    let rest = String(path).slice(at + marker.length).replace(/\/+$/, "");
    try { rest = decodeURIComponent(rest); } catch (_) { /* keep as sent */ }
    const slash = rest.lastIndexOf("/");
    const profile = slash > 0 ? rest.slice(0, slash) : "";
    const list = rest.slice(slash + 1).replace(/\.json$/, "");
    const points = list.split(";").map((item) => {
      const lngLat = item.split(",");
      return lngLat.length === 2 ? parseLatLng(lngLat[1] + "," + lngLat[0]) : null;
    }).filter(Boolean);
    return { profile, points };
  }
  /** The digits of a Directions v5 request's encoded lines: `geometries=polyline` 5, else 6 (polyline6, the default). */
  function directionsPrecision(entry) { return param(entry, "geometries") === "polyline" ? 5 : 6; }
  function clock(iso, withMilliseconds) {
    const d = new Date(iso);
    if (isNaN(d)) return "";
    const pad = (n, w) => String(n).padStart(w || 2, "0");
    return pad(d.getHours()) + ":" + pad(d.getMinutes()) + ":" + pad(d.getSeconds()) + (withMilliseconds ? "." + pad(d.getMilliseconds(), 3) : "");
  }
  function statusClass(status) {
    if (status == null) return "";
    if (status === 0) return "st-0";
    if (status >= 500) return "st-5xx";
    if (status >= 400) return "st-4xx";
    return "st-ok";
  }
  function showError(where, error) {
    where.replaceChildren(el("div", { class: "errors" }, String(error.message || error)));
  }

  // No form here navigates (the CSP forbids inline handlers, so this is done here).
  document.querySelectorAll("form").forEach((form) => form.addEventListener("submit", (event) => event.preventDefault()));

  // ---------- tabs ----------
  let currentTab = "journal";
  function showTab(name) {
    currentTab = name;
    document.querySelectorAll(".tabs button").forEach((b) => b.classList.toggle("active", b.dataset.tab === name));
    document.querySelectorAll(".left .pane").forEach((p) => p.classList.toggle("active", p.id === "pane-" + name));
    if (name === "scenarios" || name === "tryit") refreshScenarios();
  }
  document.querySelectorAll(".tabs button").forEach((b) => b.addEventListener("click", () => showTab(b.dataset.tab)));
  function showSub(name) {
    document.querySelectorAll(".subtabs button").forEach((b) => b.classList.toggle("active", b.dataset.sub === name));
    document.querySelectorAll(".detail .sub").forEach((p) => p.classList.toggle("active", p.id === "sub-" + name));
  }
  document.querySelectorAll(".subtabs button").forEach((b) => b.addEventListener("click", () => showSub(b.dataset.sub)));

  // ---------- endpoints (GET /__sim/endpoints: the server's one list, APIEndpoint) ----------
  // name → {name, path, family, apiVersion}; the journal names requests to no endpoint "other".
  const endpoints = { byName: new Map(), families: [], other: "other", loaded: false, error: null };
  /** The family of an endpoint name (`route-1.1` → `route`); "other" for anything else. */
  function familyOf(name) {
    const endpoint = endpoints.byName.get(name);
    return endpoint ? endpoint.family : endpoints.other;
  }
  async function loadEndpoints() {
    let data;
    try { data = await getJSON("../endpoints"); } catch (error) {
      endpoints.error = String(error.message || error);
      $("journal-foot").textContent = "Could not load the endpoint list: " + endpoints.error;
      setTimeout(loadEndpoints, 2000);
      return;
    }
    endpoints.byName = new Map(data.endpoints.map((e) => [e.name, e]));
    endpoints.families = data.families;
    endpoints.other = data.other || "other";
    endpoints.loaded = true;
    endpoints.error = null;
    // Journal filter: per family an "all versions" choice (when it has several) and each endpoint.
    const filter = $("f-endpoint"), chosen = filter.value;
    filter.replaceChildren(filter.options[0], ...data.families.map((family) => el("optgroup", { label: family.name },
      family.endpoints.length > 1 ? el("option", { value: "family:" + family.name }, family.name + " (all versions)") : null,
      family.endpoints.map((name) => el("option", { value: name }, name)))),
    el("option", { value: endpoints.other }, endpoints.other));
    filter.value = chosen;
    // Try it: every endpoint the form has fields for, by family.
    const tryable = new Set([...document.querySelectorAll("#try-form fieldset[data-for]")].flatMap((f) => f.dataset.for.split(" ")));
    const trySelect = $("t-endpoint"), tryChosen = trySelect.value;
    trySelect.replaceChildren(...data.families.filter((family) => tryable.has(family.name)).map((family) => el("optgroup", { label: family.name },
      family.endpoints.map((name) => el("option", { value: name }, name + "  " + endpoints.byName.get(name).path)))));
    trySelect.value = endpoints.byName.has(tryChosen) ? tryChosen : "autocomplete";
    showTryFields();
    recomputeGaps(); renderJournal();
  }

  // ---------- journal ----------
  const journal = { bySeq: new Map(), lastSeq: 0, pending: new Map(), gaps: new Map(), selected: null, polls: 0, error: null };

  function clientOf(entry) { return entry.client || param(entry, "apikey") || "(no key)"; }

  function recomputeGaps() {
    journal.gaps.clear();
    const previous = new Map();
    for (const entry of journal.bySeq.values()) {
      if (familyOf(entry.endpoint) !== "autocomplete") continue;
      const client = clientOf(entry);
      if (previous.has(client)) journal.gaps.set(entry.seq, entry.atMs - previous.get(client));
      previous.set(client, entry.atMs);
    }
  }

  async function poll() {
    const now = Date.now();
    for (const [seq, since] of journal.pending) if (now - since > 30000) journal.pending.delete(seq);
    const after = journal.pending.size ? Math.min(...journal.pending.keys()) - 1 : journal.lastSeq;
    try {
      const data = await getJSON("../journal?after=" + after + "&limit=1000");
      let changed = false;
      for (const entry of data.entries) {
        const old = journal.bySeq.get(entry.seq);
        if (!old || old.status !== entry.status || old.note !== entry.note) changed = true;
        journal.bySeq.set(entry.seq, entry);
        if (entry.status == null) { if (!journal.pending.has(entry.seq)) journal.pending.set(entry.seq, now); }
        else journal.pending.delete(entry.seq);
        journal.lastSeq = Math.max(journal.lastSeq, entry.seq);
      }
      if (journal.bySeq.size > MAX_ENTRIES) {
        const drop = journal.bySeq.size - MAX_ENTRIES;
        [...journal.bySeq.keys()].slice(0, drop).forEach((k) => journal.bySeq.delete(k));
        changed = true;
      }
      journal.polls++;
      journal.error = null;
      $("poll-status").className = "poll live";
      $("poll-status").title = "journal: live (polled every second)";
      if (changed) { recomputeGaps(); updateFilterChoices(); renderJournal(); }
    } catch (error) {
      journal.error = String(error.message || error);
      $("poll-status").className = "poll down";
      $("poll-status").title = "journal: " + journal.error;
    }
  }

  function updateFilterChoices() {
    const scenarios = new Set(), clients = new Set();
    for (const e of journal.bySeq.values()) { if (e.scenario) scenarios.add(e.scenario); clients.add(clientOf(e)); }
    syncOptions($("f-scenario"), scenarios, 2);
    syncOptions($("f-client"), clients, 1);
  }
  function syncOptions(select, values, fixed) {
    const existing = new Set([...select.options].slice(fixed).map((o) => o.value));
    [...values].sort().forEach((v) => { if (!existing.has(v)) select.append(el("option", { value: v }, v)); });
  }

  function matchesFilters(e) {
    const endpoint = $("f-endpoint").value, scenario = $("f-scenario").value, client = $("f-client").value, status = $("f-status").value;
    if (endpoint) {
      if (endpoint.startsWith("family:")) { if (familyOf(e.endpoint) !== endpoint.slice("family:".length)) return false; }
      else if (endpoint === endpoints.other) { if (endpoints.byName.has(e.endpoint)) return false; }
      else if (e.endpoint !== endpoint) return false;
    }
    if (scenario && (scenario === "-" ? e.scenario : e.scenario !== scenario)) return false;
    if (client && clientOf(e) !== client) return false;
    if (status === "ok" && !(e.status >= 200 && e.status < 300)) return false;
    if (status === "error" && !(e.status === 0 || e.status >= 400)) return false;
    return true;
  }

  function requestSummary(e) {
    switch (familyOf(e.endpoint)) {
      case "autocomplete": case "search": return (param(e, "text") || "") + (param(e, "focus") ? "  @" + param(e, "focus") : "");
      case "place": return param(e, "refid") || param(e, "refId") || param(e, "ref_id") || "";
      case "reverse": return (param(e, "lat") || "?") + "," + (param(e, "lng") || param(e, "lon") || "?");
      case "route": return params(e, "point").join(" → ") + (param(e, "vehicle") ? "  " + param(e, "vehicle") : "");
      case "tsp": return "tour " + params(e, "point").join(", ") + (param(e, "round_trip") ? "  round_trip=" + param(e, "round_trip") : "");
      case "matrix": return params(e, "point").length + " points · sources " + (param(e, "sources") || "all") + " · destinations " + (param(e, "destinations") || "all");
      case "migrate-address": return param(e, "text") || "";
      case "directions": {
        const d = directionsPath(e.path);
        return d.points.map((p) => p.join(",")).join(" → ") + "  " + d.profile + (param(e, "geometries") ? "  " + param(e, "geometries") : "");
      }
      default: return e.method + " " + e.path;
    }
  }

  function cell(text, attributes) {
    const value = text == null ? "" : String(text);
    return el("td", Object.assign({ title: value || null }, attributes || {}), value);
  }

  function renderJournal() {
    const all = [...journal.bySeq.values()].filter(matchesFilters);
    const shown = all.slice(-MAX_ROWS);
    const body = $("journal-body");
    body.replaceChildren(...shown.map((e) => {
      const gap = journal.gaps.get(e.seq);
      const rule = e.rule == null ? "" : e.rule + (e.step == null ? "" : " · " + e.step);
      return el("tr", { dataset: { seq: e.seq, endpoint: e.endpoint }, class: e.seq === journal.selected ? "selected" : null, onclick: () => select(e.seq) },
        cell(e.seq, { class: "num" }), cell(clock(e.time), { title: e.time }),
        el("td", {}, el("span", { class: "ep ep-" + familyOf(e.endpoint), title: endpoints.byName.get(e.endpoint)?.path || e.path }, e.endpoint)),
        cell(requestSummary(e)),
        e.client ? cell(e.client, { title: "client " + e.client + " · key " + (param(e, "apikey") || "none") }) : cell(param(e, "apikey") || "(no key)", { class: "key" }),
        cell(e.scenario ? e.scenario + (e.selectedBy ? " (" + e.selectedBy + ")" : "") : ""), cell(rule), cell(e.state),
        cell(e.status == null ? "…" : e.status, { class: "num " + statusClass(e.status) }), cell(e.fault),
        cell(e.latencyMs == null ? "" : Math.round(e.latencyMs), { class: "num" }),
        cell(gap == null ? "" : Math.round(gap), { class: "num" + (gap != null && gap < SHORT_GAP_MS ? " gap-short" : "") }));
    }));
    $("journal-empty").hidden = journal.bySeq.size > 0;
    const gaps = shown.map((e) => journal.gaps.get(e.seq)).filter((g) => g != null);
    $("journal-foot").textContent = `${all.length} of ${journal.bySeq.size} requests match` + (all.length > shown.length ? ` (last ${shown.length} shown)` : "")
      + (gaps.length ? ` · autocomplete gaps: min ${Math.round(Math.min(...gaps))} ms, ${gaps.filter((g) => g < SHORT_GAP_MS).length} under ${SHORT_GAP_MS} ms` : "");
    if ($("f-follow").checked) { const wrap = $("journal-wrap"); wrap.scrollTop = wrap.scrollHeight; }
  }
  ["f-endpoint", "f-scenario", "f-client", "f-status"].forEach((id) => $(id).addEventListener("change", renderJournal));
  $("journal-clear").addEventListener("click", async () => {
    try {
      await adminPost("journal/clear");
      journal.bySeq.clear(); journal.pending.clear(); journal.gaps.clear();
      renderJournal();
    } catch (error) { alert("Could not clear the journal: " + error.message); }
  });

  async function select(seq) {
    journal.selected = seq;
    document.querySelectorAll("#journal-body tr").forEach((tr) => tr.classList.toggle("selected", Number(tr.dataset.seq) === seq));
    document.body.dataset.selectedSeq = seq;
    $("sub-summary").replaceChildren(el("p", { class: "muted" }, "Loading #" + seq + "…"));
    $("sub-steps").replaceChildren();
    $("body-pre").textContent = "";
    MapView.clear();
    try {
      const entry = await getJSON("../journal/" + seq);
      if (journal.selected !== seq) return;
      await showExchange(entry);
    } catch (error) {
      showError($("sub-summary"), error);
    }
  }

  // ---------- detail + map ----------
  /** Shows a journal entry (or a "Try it" exchange in the same shape) in the detail panel and on the map. */
  async function showExchange(entry) {
    const response = entry.response || {};
    const summary = $("sub-summary");
    const rows = [
      ["request", entry.method + " " + entry.path], ["time", entry.time ? clock(entry.time, true) + "  (" + entry.time + ", " + entry.atMs + " ms after start)" : null],
      ["endpoint", entry.endpoint], ["scenario", entry.scenario ? entry.scenario + " (by " + entry.selectedBy + ")" : "none"],
      ["client", entry.client], ["rule", entry.rule == null ? null : entry.rule + (entry.step == null ? "" : ", step " + entry.step)],
      ["state", entry.state], ["delay", entry.delayMs ? entry.delayMs + " ms" : null], ["fault", entry.fault],
      ["status", entry.status === 0 ? "0 (no HTTP answer)" : entry.status], ["latency", entry.latencyMs == null ? null : entry.latencyMs + " ms"],
      ["note", entry.note],
      ["response", response.bytes == null ? null : (response.contentType || "?") + ", " + response.bytes + " bytes" + (response.body == null ? " (body not kept)" : response.kept < response.bytes ? " (first " + response.kept + " kept)" : "")],
    ].filter((r) => r[1] != null && r[1] !== "");
    summary.replaceChildren(
      el("dl", { class: "kv" }, rows.map(([k, v]) => [el("dt", {}, k), el("dd", {}, String(v))])),
      el("h3", {}, "Parameters"),
      el("dl", { class: "kv mono" }, (entry.query || []).map((q) => [el("dt", {}, q.name), el("dd", {}, q.value)])));

    let parsed = null;
    const pre = $("body-pre");
    if (response.body == null) pre.textContent = "(no body kept)";
    else {
      try { parsed = JSON.parse(response.body); } catch (_) { parsed = null; }
      const text = parsed != null ? JSON.stringify(parsed, null, 2) : response.body;
      pre.textContent = text.length > MAX_PRETTY ? text.slice(0, MAX_PRETTY) + "\n… (" + (text.length - MAX_PRETTY) + " more characters)" : text;
    }
    await drawOnMap(entry, parsed);
  }

  /** "12 min 5 s" from seconds. */
  function duration(seconds) {
    if (typeof seconds !== "number") return "—";
    const s = Math.round(seconds);
    return s < 60 ? s + " s" : Math.floor(s / 60) + " min" + (s % 60 ? " " + (s % 60) + " s" : "");
  }
  /** "0;2" → [0, 2]; absent or "all" → every index below `count`. */
  function indexList(text, count) {
    if (text == null || text === "" || text === "all") return [...Array(count).keys()];
    return String(text).split(/[;,]/).map((t) => Number(t.trim())).filter((n) => Number.isInteger(n) && n >= 0 && n < count);
  }
  function noAnswer(body) {
    return body && body.code ? " (" + body.code + ": " + (body.messages || body.message || "") + ")" : body && body.message ? " (" + body.message + ")" : "";
  }

  async function drawOnMap(entry, body) {
    const steps = $("sub-steps");
    steps.replaceChildren();
    const family = familyOf(entry.endpoint);
    if (family === "route" || family === "tsp") {
      const tour = family === "tsp";
      const requested = params(entry, "point").map(parseLatLng).filter(Boolean);
      const path = MapView.showRoute(body, requested, tour);
      if (!path) { steps.append(el("p", { class: "muted" }, "No path in this answer" + noAnswer(body) + "; requested points shown.")); return; }
      steps.append(el("p", {}, `${(path.distance / 1000).toFixed(2)} km · ${Math.round(path.time / 60000)} min · ${MapView.state.routeVertices.length} points · ${MapView.state.snapped.length} snapped waypoints`
        + (tour ? ` · tour of ${MapView.state.visits.length} visits, numbered in order` : "")));
      const list = el("ol", { class: "steps", id: "instructions" });
      (path.instructions || []).forEach((step, index) => {
        const interval = Array.isArray(step.interval) ? step.interval : [0, 0];
        const item = el("li", { dataset: { from: interval[0], to: interval[1], index } },
          step.text, " ", el("span", { class: "meta" }, `${step.distance} m · ${Math.round(step.time / 1000)} s · points ${interval[0]}–${interval[1]}`));
        const hl = () => { list.querySelectorAll("li").forEach((li) => li.classList.toggle("hl", li === item)); MapView.highlight(interval[0], interval[1]); };
        item.addEventListener("mouseenter", hl);
        item.addEventListener("click", hl);
        list.append(item);
      });
      steps.append(list);
      showSub("steps");
    } else if (family === "directions") {
      const requested = directionsPath(entry.path).points;
      const precision = directionsPrecision(entry);
      const route = MapView.showDirections(body, requested, precision);
      if (!route) { steps.append(el("p", { class: "muted" }, "No route in this answer" + noAnswer(body) + "; requested points shown.")); return; }
      const legs = Array.isArray(route.legs) ? route.legs : [];
      const all = legs.flatMap((leg, legIndex) => (leg && Array.isArray(leg.steps) ? leg.steps : []).map((step) => ({ step, legIndex })));
      steps.append(el("p", {}, `${(Number(route.distance) / 1000).toFixed(2)} km · ${duration(route.duration)} · ${MapView.state.routeVertices.length} points · `
        + `${legs.length} leg${legs.length === 1 ? "" : "s"} · ${all.length} steps · ${MapView.state.snapped.length} waypoints · geometries ${param(entry, "geometries") || "polyline6"}`));
      const list = el("ol", { class: "steps", id: "maneuvers" });
      all.forEach(({ step, legIndex }, index) => {
        const m = (step && step.maneuver) || {};
        const kind = [m.type, m.modifier].filter((t) => typeof t === "string").join(" ");
        const item = el("li", { dataset: { index, type: m.type || "" } },
          m.instruction || kind || "(no instruction)", " ",
          el("span", { class: "meta" }, [kind, typeof step.distance === "number" ? step.distance + " m" : "", duration(step.duration),
            legs.length > 1 ? "leg " + (legIndex + 1) : "", step.name || ""].filter(Boolean).join(" · ")));
        const hl = () => {
          list.querySelectorAll("li").forEach((li) => li.classList.toggle("hl", li === item));
          MapView.highlightLine(MapView.pathPoints(step && step.geometry, precision));
        };
        item.addEventListener("mouseenter", hl);
        item.addEventListener("click", hl);
        list.append(item);
      });
      steps.append(list);
      showSub("steps");
    } else if (family === "autocomplete" || family === "search") {
      const focus = parseLatLng(param(entry, "focus"));
      const items = Array.isArray(body) ? body.slice(0, 10) : [];
      const results = items.map((item, index) => ({ rank: index + 1, name: item.name || "", display: item.display || item.name || "", refid: item.ref_id, distance: item.distance, lat: null, lng: null }));
      const list = el("ol", { class: "steps", id: "results" }, results.map((r) => el("li", { dataset: { rank: r.rank } }, r.display, " ", el("span", { class: "meta" }, r.distance ? r.distance.toFixed(2) + " km" : ""))));
      steps.append(el("p", {}, items.length + " results" + (focus ? " · focus " + focus.join(", ") : " · no focus")), list);
      MapView.showAutocomplete([], focus, false);
      await Promise.all(results.map(async (r) => {
        if (!r.refid) return;
        try {
          const place = await getJSON("../place?refid=" + encodeURIComponent(r.refid));
          if (typeof place.lat === "number" && typeof place.lng === "number") { r.lat = place.lat; r.lng = place.lng; }
        } catch (_) { /* no position: no marker */ }
      }));
      if (journal.selected !== entry.seq && entry.seq !== "try") return;
      MapView.showAutocomplete(results, focus);
      showSub("steps");
    } else if (family === "place") {
      MapView.showPlace(body);
      if (body && typeof body === "object" && !Array.isArray(body)) {
        steps.append(el("dl", { class: "kv" }, ["display", "name", "address", "lat", "lng"].map((k) => [el("dt", {}, k), el("dd", {}, body[k] == null ? "null" : String(body[k]))])));
      }
    } else if (family === "reverse") {
      // The answer's lat/lng are the query point, not the place's: nothing is resolved here.
      const query = parseLatLng((param(entry, "lat") || "") + "," + (param(entry, "lng") || param(entry, "lon") || ""));
      const items = Array.isArray(body) ? body.slice(0, 10) : [];
      const results = items.map((item, index) => ({ rank: index + 1, name: item.name || "", display: item.display || item.address || item.name || "",
        refid: item.ref_id, distance: item.distance, lat: item.lat, lng: item.lng }));
      const label = results.length ? results[0].display : "no result" + noAnswer(body);
      MapView.showReverse(query, label, results);
      steps.append(el("p", {}, (query ? "query point " + query.join(", ") : "no query point in the request") + " · " + items.length + " results"),
        el("ol", { class: "steps", id: "reverse-results" }, results.map((r) => el("li", { dataset: { rank: r.rank } }, r.display, " ",
          el("span", { class: "meta" }, [typeof r.distance === "number" ? Math.round(r.distance * 1000) + " m" : "", r.refid || ""].filter(Boolean).join(" · "))))));
      showSub("steps");
    } else if (family === "matrix") {
      const points = params(entry, "point").map(parseLatLng).filter(Boolean);
      const sources = indexList(param(entry, "sources"), points.length), destinations = indexList(param(entry, "destinations"), points.length);
      MapView.showMatrix(points, sources, destinations);
      const durations = body && Array.isArray(body.durations) ? body.durations : null, distances = body && Array.isArray(body.distances) ? body.distances : null;
      steps.append(el("p", {}, `${points.length} points · sources ${sources.join(", ") || "none"} · destinations ${destinations.join(", ") || "none"}`));
      if (!durations && !distances) { steps.append(el("p", { class: "muted" }, "No matrix in this answer" + noAnswer(body) + "; the points are shown.")); return; }
      const cell = (table, i, j) => (table && Array.isArray(table[i]) ? table[i][j] : null);
      steps.append(el("table", { class: "matrix", id: "matrix-table" },
        el("thead", {}, el("tr", {}, el("th", {}, "from \\ to"), destinations.map((d) => el("th", { class: "num" }, "point " + d)))),
        el("tbody", {}, sources.map((source, i) => el("tr", {}, el("th", {}, "point " + source), destinations.map((d, j) => {
          const seconds = cell(durations, i, j), metres = cell(distances, i, j);
          return el("td", { class: "num", dataset: { duration: seconds == null ? "" : seconds, distance: metres == null ? "" : metres } },
            seconds == null && metres == null ? "no route" : [duration(seconds), el("br"), typeof metres === "number" ? (metres / 1000).toFixed(2) + " km" : "—"]);
        }))))));
      showSub("steps");
    } else if (family === "migrate-address") {
      MapView.clear();
      const old = param(entry, "text") || "";
      if (!body || typeof body !== "object" || Array.isArray(body) || body.code) {
        steps.append(el("p", { class: "muted" }, "No migrated address in this answer" + noAnswer(body) + "."));
        return;
      }
      const now = body.display || body.address || body.name || "";
      steps.append(el("div", { class: "migration", id: "migration" },
        el("div", { class: "old" }, el("span", { class: "meta" }, "old "), old), el("div", { class: "arrow" }, "→"),
        el("div", { class: "new" }, el("span", { class: "meta" }, "new "), now)),
      el("dl", { class: "kv" }, ["name", "address", "display"].map((k) => [el("dt", {}, k), el("dd", {}, body[k] == null ? "null" : String(body[k]))]),
        body.boundaries == null ? [] : [el("dt", {}, "boundaries"), el("dd", {}, Array.isArray(body.boundaries) && body.boundaries.every((b) => b && typeof b.full_name === "string")
          ? body.boundaries.map((b) => b.full_name).join(" · ") : JSON.stringify(body.boundaries))]),
      el("p", { class: "muted" }, "Text only: an address migration has no place on the map."));
      showSub("steps");
    } else {
      MapView.clear();
    }
  }

  // ---------- scenarios ----------
  let scenarioNames = [];
  async function refreshActive() {
    try {
      const data = await getJSON("../active");
      $("active-scenario").textContent = data.active || "none";
      $("active-scenario").title = data.active || "";
    } catch (_) { /* shown by the poll indicator */ }
  }

  async function refreshScenarios() {
    let list, states;
    try {
      [list, states] = await Promise.all([getJSON("../scenarios"), getJSON("../states")]);
    } catch (error) { showError($("sc-errors"), error); return; }
    scenarioNames = list.scenarios.map((s) => s.name);
    $("active-scenario").textContent = list.active || "none";
    $("sc-directory").textContent = list.directory ? "folder: " + list.directory : "no scenarios folder";
    $("sc-errors").replaceChildren(...(list.errors.length ? [el("div", { class: "errors", id: "load-errors" },
      el("strong", {}, "Load errors"),
      el("ul", {}, list.errors.map((e) => el("li", {}, el("code", {}, e.file), " ", el("code", {}, e.path || "/"), ": ", e.reason))))] : []));
    const open = new Set([...document.querySelectorAll("#sc-list li.open")].map((li) => li.dataset.name));
    $("sc-list").replaceChildren(...list.scenarios.map((s) => {
      const active = s.name === list.active;
      const rules = el("pre", { hidden: !open.has(s.name) });
      const item = el("li", { class: (active ? "active" : "") + (open.has(s.name) ? " open" : ""), dataset: { name: s.name } },
        el("div", { class: "head" },
          el("span", { class: "name" }, s.name), el("span", { class: "muted", title: s.file }, s.rules + (s.rules === 1 ? " rule" : " rules") + " · " + s.file.split("/").pop()),
          el("span", { class: "buttons" },
            active ? el("button", { type: "button", class: "danger", "data-action": "deactivate", onclick: () => act(() => adminPost("deactivate")) }, "Deactivate")
              : el("button", { type: "button", "data-action": "activate", onclick: () => act(() => adminPost("activate", { scenario: s.name })) }, "Activate"),
            el("button", { type: "button", "data-action": "reset", onclick: () => act(() => adminPost("reset?scenario=" + encodeURIComponent(s.name))) }, "Reset state"),
            el("button", { type: "button", "data-action": "rules", onclick: () => toggleRules(item, rules, s.name) }, "Rules"),
            s.runtime ? [
              el("button", { type: "button", "data-action": "edit", title: "put its document in the editor below, to replace it", onclick: () => editScenario(s.name) }, "Edit"),
              el("button", { type: "button", "data-action": "save", title: "write it to the scenarios folder as " + s.name + ".json",
                onclick: () => editorAct(() => adminPost("scenarios/" + encodeURIComponent(s.name) + "/save"), (data) => "saved as " + data.file) }, "Save as file"),
              el("button", { type: "button", class: "danger", "data-action": "remove",
                onclick: () => editorAct(() => adminSend("DELETE", "scenarios/" + encodeURIComponent(s.name)),
                  () => { if (editing === s.name) showEditing(null); return "removed " + s.name; }) }, "Remove"),
            ] : null)),
        el("div", { class: "desc" }, s.description), rules);
      if (open.has(s.name)) loadRules(rules, s.name);
      return item;
    }));
    $("sc-states").replaceChildren(...(states.states.length ? states.states.map((st) => el("tr", {},
      el("td", {}, st.scenario), el("td", { class: "mono" }, st.apikey), el("td", {}, st.state),
      el("td", {}, el("button", { type: "button", onclick: () => act(() => adminPost("reset?scenario=" + encodeURIComponent(st.scenario)
        + (st.apikey !== "***" ? "&apikey=" + encodeURIComponent(st.apikey) : ""))) }, st.apikey !== "***" ? "reset" : "reset scenario"))))
      : [el("tr", {}, el("td", { colspan: 4, class: "muted" }, "No client state yet."))]));
    syncTryScenarios();
  }
  async function act(action) {
    try { await action(); } catch (error) { alert(error.message); }
    await refreshScenarios();
  }
  const rulesText = new Map();  // name → pretty rules, so the 2-second refresh does not refetch them
  async function loadRules(pre, name, fresh) {
    if (!fresh && rulesText.has(name)) { pre.textContent = rulesText.get(name); return; }
    try {
      const doc = await getJSON("../scenarios/" + encodeURIComponent(name));
      rulesText.set(name, JSON.stringify(doc.rules !== undefined ? { seed: doc.seed, initialState: doc.initialState, rules: doc.rules } : doc, null, 2));
      pre.textContent = rulesText.get(name);
    } catch (error) { pre.textContent = String(error.message); }
  }
  function toggleRules(item, pre, name) {
    const opening = pre.hidden;
    pre.hidden = !opening;
    item.classList.toggle("open", opening);
    if (opening) loadRules(pre, name, true);
  }
  // The editor: a scenario document added (POST) or, for a runtime scenario, replaced (PUT) at run time.
  // The text is sent as typed: the server validates it like a file and its message is shown as sent.
  let editing = null;  // the runtime scenario "Replace" targets
  function showEditing(name) {
    editing = name;
    $("sc-replace").hidden = !name;
    $("sc-replace").textContent = name ? "Replace " + name : "Replace";
  }
  function editorMessage(error, text) {
    $("sc-doc-result").replaceChildren(error
      ? el("div", { class: "errors", id: "sc-doc-error" }, String(error.message),
        error.problems && error.problems.length ? el("ul", {}, error.problems.map((p) => el("li", {}, el("code", {}, p.path || "/"), ": ", p.reason))) : null)
      : el("span", { class: "muted", id: "sc-doc-ok" }, text));
  }
  async function editorAct(action, success) {
    try { editorMessage(null, success(await action())); } catch (error) { editorMessage(error); }
    rulesText.clear();
    await refreshScenarios();
  }
  async function editScenario(name) {
    try {
      const doc = await getJSON("../scenarios/" + encodeURIComponent(name));
      $("sc-doc").value = JSON.stringify(doc, null, 2);
      showEditing(name);
      editorMessage(null, "editing " + name);
    } catch (error) { editorMessage(error); }
  }
  $("sc-add").addEventListener("click", () => editorAct(() => adminSend("POST", "scenarios", $("sc-doc").value),
    (data) => { showEditing(data.name); return (data.created ? "added " : "replaced ") + data.name; }));
  $("sc-replace").addEventListener("click", () => editing && editorAct(() => adminSend("PUT", "scenarios/" + encodeURIComponent(editing), $("sc-doc").value),
    (data) => "replaced " + data.name));
  $("sc-deactivate").addEventListener("click", () => act(() => adminPost("deactivate")));
  $("sc-reset-all").addEventListener("click", () => act(() => adminPost("reset")));
  $("sc-reload").addEventListener("click", () => { rulesText.clear(); act(() => adminPost("reload")); });

  // ---------- try it ----------
  function syncTryScenarios() {
    const select = $("t-scenario");
    const current = select.value;
    select.replaceChildren(select.options[0], ...scenarioNames.map((n) => el("option", { value: n }, n)));
    select.value = scenarioNames.includes(current) ? current : "";
  }
  function tryEndpoint() { return $("t-endpoint").value; }
  function tryFamily() { return familyOf(tryEndpoint()); }
  /** Shows the fieldsets of the chosen endpoint's family (`data-for` lists families). */
  function showTryFields() {
    const family = tryFamily();
    document.querySelectorAll("#try-form fieldset[data-for]").forEach((f) => { f.hidden = !f.dataset.for.split(" ").includes(family); });
    updateTryURL();
  }
  $("t-endpoint").addEventListener("change", showTryFields);
  $("t-focus-center").addEventListener("click", () => {
    const c = MapView.center();
    $("t-focus").value = c.lat.toFixed(5) + "," + c.lng.toFixed(5);
    updateTryURL();
  });
  $("t-points-clear").addEventListener("click", () => { $("t-points").value = ""; MapView.clear(); updateTryURL(); });
  const POINT_FAMILIES = ["route", "tsp", "matrix"];
  MapView.onClick((latlng) => {
    if (currentTab !== "tryit") return;
    const line = latlng.lat.toFixed(5) + "," + latlng.lng.toFixed(5);
    if (tryFamily() === "reverse") {  // a click is the query point
      $("t-latlng").value = line;
      MapView.clear();
      MapView.addPin([latlng.lat, latlng.lng], "query point " + line);
    } else if (POINT_FAMILIES.includes(tryFamily()) && $("t-map-clicks").checked) {
      const points = $("t-points");
      points.value = (points.value.trim() ? points.value.trim() + "\n" : "") + line;
      MapView.addPin([latlng.lat, latlng.lng], "point " + (points.value.split("\n").length - (tryFamily() === "matrix" ? 1 : 0)));
    } else return;
    updateTryURL();
  });
  function tryQuery() {
    const scenario = $("t-scenario").value, tag = $("t-tag").value.trim();
    const key = scenario ? "scenario:" + scenario + (tag ? "@" + tag : "") : ($("t-key").value.trim() || "dashboard");
    const query = [["apikey", key]];
    const endpoint = endpoints.byName.get(tryEndpoint());
    if (endpoint && endpoint.apiVersion) query.push(["api-version", endpoint.apiVersion]);
    const family = tryFamily();
    if (family === "autocomplete" || family === "search") {
      query.push(["text", $("t-text").value]);
      if ($("t-focus").value.trim()) query.push(["focus", $("t-focus").value.trim()]);
      if ($("t-display").value) query.push(["display_type", $("t-display").value]);
    } else if (family === "place") {
      query.push(["refid", $("t-refid").value.trim()]);
    } else if (family === "reverse") {
      const [lat, lng] = $("t-latlng").value.split(",").map((t) => t.trim());
      query.push(["lat", lat || ""], ["lng", lng || ""]);
    } else if (family === "migrate-address") {
      query.push(["text", $("t-old-address").value], ["migrate_type", $("t-migrate-type").value]);
    } else if (POINT_FAMILIES.includes(family)) {
      $("t-points").value.split("\n").map((s) => s.trim()).filter(Boolean).forEach((p) => query.push(["point", p.replace(/\s+/g, "")]));
      query.push(["vehicle", $("t-vehicle").value]);
      if (family === "matrix") {
        if ($("t-sources").value.trim()) query.push(["sources", $("t-sources").value.trim()]);
        if ($("t-destinations").value.trim()) query.push(["destinations", $("t-destinations").value.trim()]);
      }
      if (family === "tsp") query.push(["round_trip", $("t-round-trip").checked ? "true" : "false"]);
    }
    return query;
  }
  function tryURL(query) {
    const endpoint = endpoints.byName.get(tryEndpoint());
    if (!endpoint) return "";
    return endpoint.path + "?" + query.map(([k, v]) => encodeURIComponent(k) + "=" + encodeURIComponent(v)).join("&");
  }
  function updateTryURL() { $("t-url").textContent = endpoints.loaded ? tryURL(tryQuery()) : "(loading the endpoint list…)"; }
  $("try-form").addEventListener("input", updateTryURL);
  $("try-form").addEventListener("change", updateTryURL);
  $("try-form").addEventListener("submit", async () => {
    const query = tryQuery(), url = tryURL(query);
    if (!url) return;
    $("t-url").textContent = url;
    const started = performance.now();
    let status = 0, text = null, contentType = null;
    try {
      const response = await fetch(url, { cache: "no-store" });
      status = response.status;
      contentType = response.headers.get("Content-Type");
      text = await response.text();
    } catch (error) {
      text = null;
      $("t-url").textContent = url + "  — " + error.message;
    }
    await showExchange({
      seq: "try", method: "GET", path: url.split("?")[0], endpoint: tryEndpoint(), query: query.map(([name, value]) => ({ name, value })),
      status, latencyMs: Math.round(performance.now() - started),
      note: "sent from Try it" + (status === 0 ? " (no HTTP answer)" : ""),
      response: text == null ? {} : (() => { const bytes = new TextEncoder().encode(text).length; return { contentType, bytes, kept: bytes, body: text }; })(),
    });
    poll();
  });

  // ---------- start ----------
  MapView.init($("map"));
  updateTryURL();
  loadEndpoints();
  refreshActive();
  poll();
  setInterval(poll, POLL_MS);
  setInterval(() => { refreshActive(); if (currentTab === "scenarios") refreshScenarios(); }, 2000);

  window.dashboard = { journal, endpoints, map: MapView.state, select, showTab, refreshScenarios, showExchange };
})();
