// The map: the dataset's roads (GeoJSON from /__sim/roads for the visible area, no tiles) and
// the selected request drawn on top — route line, requested and snapped points, instruction
// highlight (routes of every version and TSP tours, with the visit order); autocomplete and search
// focus and ranked results; a place's point; a reverse query point; a matrix's sources and destinations;
// a Directions v5 answer (navigation SDKs): its line, snapped waypoints and maneuver points.
"use strict";
const MapView = (function () {
  const ROAD_STYLE = {
    major: { color: "#f2c46d", weight: 4 },
    medium: { color: "#8a94a3", weight: 3 },
    minor: { color: "#aab3bf", weight: 1.6 },
    path: { color: "#c3c9d1", weight: 1, dashArray: "3 3" },
  };
  const MAJOR = /^(motorway|trunk|primary)/, MEDIUM = /^(secondary|tertiary)/, MINOR = /^(unclassified|residential|living_street|service|road|other)$/;

  let map, roads, overlay, svg, note, stepLine = null, routeLine = null;
  let roadsRequest = null, roadsTimer = null;
  /** What is drawn, for tests and the console: route vertices [[lat,lng]…], markers … */
  const state = { routeVertices: [], snapped: [], requested: [], markers: [], visits: [], reverse: null, matrix: [], maneuvers: [],
    roadsShown: 0, roadsTotal: 0, roadsTruncated: false };
  let clickHandler = null;

  function init(element) {
    map = L.map(element, { preferCanvas: true, zoomSnap: 0.25, zoomControl: true, attributionControl: true, minZoom: 3, maxZoom: 19 });
    map.attributionControl.setPrefix(false);
    map.attributionControl.addAttribution("Roads © OpenStreetMap contributors (ODbL)");
    svg = L.svg({ padding: 0.2 });
    roads = L.layerGroup().addTo(map);
    overlay = L.featureGroup().addTo(map);
    note = L.control({ position: "topright" });
    note.onAdd = () => { const div = L.DomUtil.create("div", "map-note"); div.id = "map-note"; return div; };
    note.addTo(map);
    map.setView([10.7769, 106.7008], 15);  // HCMC District 1 until the dataset says where its roads are
    map.on("moveend", scheduleRoads);
    fetch("../roads/start", { headers: window.vietmapSimAdminHeaders || {} }).then((r) => r.json()).then((start) => {
      if (start.center && overlay.getLayers().length === 0) map.setView(start.center, 15);
    }).catch(() => {});
    map.on("click", (event) => { if (clickHandler) clickHandler(event.latlng); });
    scheduleRoads();
  }

  /**
   * Tooltip content as plain text. Leaflet renders a string as HTML, and names and display
   * strings can come from outside (an upstream in proxy mode, a replayed capture, an imported
   * dataset); a text node is made when the tooltip opens.
   */
  function asText(text) {
    return () => document.createTextNode(String(text));
  }

  function setNote(text) {
    const div = document.getElementById("map-note");
    if (div) { div.textContent = text; div.style.display = text ? "" : "none"; }
  }

  function scheduleRoads() {
    clearTimeout(roadsTimer);
    roadsTimer = setTimeout(loadRoads, 150);
  }

  async function loadRoads() {
    const b = map.getBounds();
    const west = Math.max(-180, b.getWest()), east = Math.min(180, b.getEast());
    const south = Math.max(-90, b.getSouth()), north = Math.min(90, b.getNorth());
    if (east - west > 0.5 || north - south > 0.5) {
      roads.clearLayers();
      state.roadsShown = 0;
      setNote("Zoom in to see the roads");
      return;
    }
    if (roadsRequest) roadsRequest.abort();
    const controller = new AbortController();
    roadsRequest = controller;
    const bbox = [west, south, east, north].map((v) => v.toFixed(5)).join(",");
    try {
      const response = await fetch("../roads?bbox=" + bbox + "&limit=4000", { signal: controller.signal, headers: window.vietmapSimAdminHeaders || {} });
      const data = await response.json();
      if (!response.ok) { setNote("roads: " + (data.error || response.status)); return; }
      roads.clearLayers();
      L.geoJSON(data, {
        style: (feature) => roadStyle(feature.properties.class),
        onEachFeature: (feature, layer) => { if (feature.properties.name) layer.bindTooltip(asText(feature.properties.name), { sticky: true }); },
      }).addTo(roads);
      state.roadsShown = data.features.length;
      state.roadsTotal = data.total;
      state.roadsTruncated = data.truncated;
      setNote(data.total === 0 ? "No roads of the dataset here" : data.truncated ? `Main roads only (${data.features.length} of ${data.total}); zoom in` : "");
    } catch (error) {
      if (error.name !== "AbortError") setNote("roads: " + error.message);
    } finally {
      if (roadsRequest === controller) roadsRequest = null;
    }
  }

  function roadStyle(roadClass) {
    if (MAJOR.test(roadClass)) return ROAD_STYLE.major;
    if (MEDIUM.test(roadClass)) return ROAD_STYLE.medium;
    if (MINOR.test(roadClass)) return ROAD_STYLE.minor;
    return ROAD_STYLE.path;
  }

  function clear() {
    overlay.clearLayers();
    stepLine = null;
    routeLine = null;
    state.routeVertices = []; state.snapped = []; state.requested = []; state.markers = [];
    state.visits = []; state.reverse = null; state.matrix = []; state.maneuvers = [];
  }

  function fit() {
    const bounds = overlay.getBounds();
    // Not animated: a second fit while the first one animates would be lost.
    if (bounds.isValid()) map.fitBounds(bounds.pad(0.15), { maxZoom: 17, animate: false });
  }

  /**
   * A route path's points as [[lat,lng]…], encoded or GeoJSON ([lon,lat]). `precision`: decimal
   * digits of an encoded line (5 for VietMap and `polyline`, 6 for Directions v5's `polyline6`).
   */
  function pathPoints(value, precision) {
    if (typeof value === "string") return decodePolyline(value, precision).points;
    if (value && Array.isArray(value.coordinates)) return value.coordinates.map((c) => [c[1], c[0]]);
    return [];
  }

  /**
   * Draws a route answer (route v4, v3, 1.1, TSP: one shape). `requested` are the request's
   * points [[lat,lng]…]. With `tour` (TSP) the snapped waypoints are in visit order: they are
   * numbered 1… and not joined to the requested points (whose order differs); a round trip's
   * return to the start is not numbered again.
   * Returns the first path (or null) so the caller can list its instructions.
   */
  function showRoute(body, requested, tour) {
    clear();
    requested.forEach((p, i) => {
      L.circleMarker(p, { renderer: svg, radius: 7, color: "#14243b", weight: 2, fill: false, className: "requested-point" })
        .bindTooltip(asText("requested " + (i + 1) + ": " + p[0] + ", " + p[1])).addTo(overlay);
    });
    state.requested = requested;
    const path = body && Array.isArray(body.paths) ? body.paths[0] : null;
    if (!path) { fit(); return null; }
    const vertices = pathPoints(path.points);
    state.routeVertices = vertices;
    if (vertices.length > 0) {
      routeLine = L.polyline(vertices, { renderer: svg, color: "#0b63ce", weight: 5, opacity: 0.85, className: "route-line" }).addTo(overlay);
    }
    const snapped = pathPoints(path.snapped_waypoints);
    state.snapped = snapped;
    snapped.forEach((p, i) => {
      L.circleMarker(p, { renderer: svg, radius: 5, color: "#fff", weight: 2, fillColor: i === 0 ? "#137333" : i === snapped.length - 1 ? "#c5221f" : "#b06000", fillOpacity: 1, className: "snapped-point" })
        .bindTooltip(asText("snapped waypoint " + (i + 1))).addTo(overlay);
      if (!tour && requested[i]) L.polyline([requested[i], p], { renderer: svg, color: "#14243b", weight: 1, dashArray: "3 3" }).addTo(overlay);
    });
    if (tour) {
      const last = snapped.length - 1;
      const returns = last > 0 && Math.abs(snapped[0][0] - snapped[last][0]) < 1e-6 && Math.abs(snapped[0][1] - snapped[last][1]) < 1e-6;
      snapped.forEach((p, i) => {
        if (returns && i === last) return;
        const order = i + 1;
        const icon = L.divIcon({ className: "visit-icon", html: String(order), iconSize: [20, 20], iconAnchor: [-2, 22] });
        L.marker(p, { icon, title: "visit " + order, zIndexOffset: 1000 - order })
          .bindTooltip(asText("visit " + order + (returns && i === 0 ? " (start and end of the round trip)" : ""))).addTo(overlay);
        state.visits.push({ order, lat: p[0], lng: p[1] });
      });
    }
    fit();
    return path;
  }

  /** `[lng, lat]` (a Mapbox location) as [lat, lng]; null unless two finite numbers. */
  function lngLat(location) {
    return Array.isArray(location) && location.length >= 2 && Number.isFinite(location[0]) && Number.isFinite(location[1])
      ? [location[1], location[0]] : null;
  }

  /**
   * Draws a Directions v5 answer: route[0]'s line (its `geometry`, else its steps' lines joined —
   * `overview=false`), the snapped `waypoints`, and each step's maneuver point with the
   * instruction as its tooltip. `requested` are the request's coordinates [[lat,lng]…],
   * `precision` the digits of the asked `geometries` (6 for polyline6, 5 for polyline).
   * Returns the route (or null) so the caller can list its steps.
   */
  function showDirections(body, requested, precision) {
    clear();
    requested.forEach((p, i) => {
      L.circleMarker(p, { renderer: svg, radius: 7, color: "#14243b", weight: 2, fill: false, className: "requested-point" })
        .bindTooltip(asText("requested " + (i + 1) + ": " + p[0] + ", " + p[1])).addTo(overlay);
    });
    state.requested = requested;
    const route = body && Array.isArray(body.routes) ? body.routes[0] : null;
    if (!route || typeof route !== "object") { fit(); return null; }
    const legs = Array.isArray(route.legs) ? route.legs : [];
    const steps = legs.flatMap((leg) => (leg && Array.isArray(leg.steps) ? leg.steps : []));
    let vertices = pathPoints(route.geometry, precision);
    if (vertices.length === 0) vertices = steps.flatMap((step) => pathPoints(step && step.geometry, precision));
    state.routeVertices = vertices;
    if (vertices.length > 0) {
      routeLine = L.polyline(vertices, { renderer: svg, color: "#0b63ce", weight: 5, opacity: 0.85, className: "route-line" }).addTo(overlay);
    }
    const snapped = (Array.isArray(body.waypoints) ? body.waypoints : []).map((w) => lngLat(w && w.location)).filter(Boolean);
    state.snapped = snapped;
    snapped.forEach((p, i) => {
      L.circleMarker(p, { renderer: svg, radius: 5, color: "#fff", weight: 2, fillColor: i === 0 ? "#137333" : i === snapped.length - 1 ? "#c5221f" : "#b06000", fillOpacity: 1, className: "snapped-point" })
        .bindTooltip(asText("snapped waypoint " + (i + 1))).addTo(overlay);
      if (requested[i]) L.polyline([requested[i], p], { renderer: svg, color: "#14243b", weight: 1, dashArray: "3 3" }).addTo(overlay);
    });
    steps.forEach((step, index) => {
      const maneuver = step && step.maneuver;
      const p = lngLat(maneuver && maneuver.location);
      if (!p) return;
      const kind = [maneuver.type, maneuver.modifier].filter((t) => typeof t === "string").join(" ");
      L.circleMarker(p, { renderer: svg, radius: 4, color: "#d6008f", weight: 2, fillColor: "#fff", fillOpacity: 1, className: "maneuver-point" })
        .bindTooltip(asText((index + 1) + ". " + (maneuver.instruction || kind || "maneuver") + (kind ? " (" + kind + ")" : ""))).addTo(overlay);
      state.maneuvers.push({ index, lat: p[0], lng: p[1], type: maneuver.type, instruction: maneuver.instruction });
    });
    fit();
    return route;
  }

  /** Highlights a line of its own ([[lat,lng]…]: a Directions v5 step's geometry). */
  function highlightLine(part) {
    if (stepLine) { overlay.removeLayer(stepLine); stepLine = null; }
    if (!Array.isArray(part) || part.length === 0) return;
    drawHighlight(part);
  }

  /** Highlights points[from…to] of the drawn route (an instruction's interval). */
  function highlight(from, to) {
    if (stepLine) { overlay.removeLayer(stepLine); stepLine = null; }
    const part = state.routeVertices.slice(from, to + 1);
    if (part.length === 0) return;
    drawHighlight(part);
  }

  function drawHighlight(part) {
    stepLine = part.length === 1
      ? L.circleMarker(part[0], { renderer: svg, radius: 9, color: "#d6008f", weight: 4, fill: false, className: "step-line" })
      : L.polyline(part, { renderer: svg, color: "#d6008f", weight: 7, opacity: 0.85, className: "step-line" });
    stepLine.addTo(overlay);
    if (stepLine.bringToFront) stepLine.bringToFront();
  }

  /** Autocomplete: the focus and the results (with positions where known) as ranked markers. */
  function showAutocomplete(results, focus, fitView) {
    clear();
    if (focus) {
      L.circleMarker(focus, { renderer: svg, radius: 8, color: "#7b1fa2", weight: 3, fillOpacity: 0.15, className: "focus-point" })
        .bindTooltip(asText("focus " + focus[0] + ", " + focus[1])).addTo(overlay);
      L.circleMarker(focus, { renderer: svg, radius: 2, color: "#7b1fa2", fillOpacity: 1 }).addTo(overlay);
    }
    results.forEach((r) => {
      if (r.lat == null || r.lng == null) return;
      const icon = L.divIcon({ className: "rank-icon" + (r.rank === 1 ? " top" : ""), html: String(r.rank), iconSize: [20, 20] });
      L.marker([r.lat, r.lng], { icon, title: r.rank + ". " + r.name, zIndexOffset: 1000 - r.rank })
        .bindTooltip(asText(r.rank + ". " + r.display)).addTo(overlay);
      state.markers.push({ rank: r.rank, lat: r.lat, lng: r.lng });
    });
    if (fitView !== false) fit();
  }

  /** Place detail: its point. */
  function showPlace(place) {
    clear();
    if (place && typeof place.lat === "number" && typeof place.lng === "number") {
      const icon = L.divIcon({ className: "rank-icon top", html: "●", iconSize: [20, 20] });
      L.marker([place.lat, place.lng], { icon }).bindTooltip(asText(place.display || place.name || "place")).addTo(overlay);
      state.markers.push({ rank: 1, lat: place.lat, lng: place.lng });
      map.setView([place.lat, place.lng], Math.max(map.getZoom(), 16));
    }
  }

  /**
   * Reverse geocoding: the query point, labelled with `label` (the first result's display), and
   * each result whose answer carries the place's own coordinates (different from the query
   * point) as a ranked marker. Nothing is looked up.
   */
  function showReverse(query, label, results) {
    clear();
    if (!query) return;
    L.circleMarker(query, { renderer: svg, radius: 8, color: "#7b1fa2", weight: 3, fillColor: "#7b1fa2", fillOpacity: 0.35, className: "reverse-point" })
      .bindTooltip(asText(label), { permanent: true, direction: "top", offset: [0, -8], className: "reverse-label" }).addTo(overlay);
    state.reverse = { lat: query[0], lng: query[1], label };
    results.forEach((r) => {
      if (typeof r.lat !== "number" || typeof r.lng !== "number") return;
      if (Math.abs(r.lat - query[0]) < 1e-7 && Math.abs(r.lng - query[1]) < 1e-7) return;
      const icon = L.divIcon({ className: "rank-icon" + (r.rank === 1 ? " top" : ""), html: String(r.rank), iconSize: [20, 20] });
      L.marker([r.lat, r.lng], { icon, title: r.rank + ". " + r.name, zIndexOffset: 1000 - r.rank })
        .bindTooltip(asText(r.rank + ". " + r.display)).addTo(overlay);
      state.markers.push({ rank: r.rank, lat: r.lat, lng: r.lng });
    });
    if (state.markers.length) fit();
    else map.setView(query, Math.max(map.getZoom(), 16), { animate: false });
  }

  /**
   * Matrix: the request's points, labelled with their index (what `sources=0;1` names), green
   * for sources, red for destinations, half and half for both; grey for neither.
   */
  function showMatrix(points, sources, destinations) {
    clear();
    points.forEach((p, i) => {
      const source = sources.includes(i), destination = destinations.includes(i);
      const role = source && destination ? "both" : source ? "source" : destination ? "destination" : "unused";
      const icon = L.divIcon({ className: "matrix-icon " + role, html: String(i), iconSize: [22, 22] });
      L.marker(p, { icon, title: "point " + i + " · " + role })
        .bindTooltip(asText("point " + i + " (" + p[0] + ", " + p[1] + ") · " + role)).addTo(overlay);
      state.matrix.push({ index: i, lat: p[0], lng: p[1], role });
    });
    fit();
  }

  /** The vertices of a drawn line, read back from Leaflet, as [[lat,lng]…]. */
  function vertices(layer) {
    if (!layer) return [];
    if (layer.getLatLngs) return layer.getLatLngs().map((p) => [p.lat, p.lng]);
    const p = layer.getLatLng();
    return [[p.lat, p.lng]];
  }

  return {
    drawnRoute: () => vertices(routeLine),
    drawnHighlight: () => vertices(stepLine),
    init, clear, showRoute, showDirections, showAutocomplete, showPlace, showReverse, showMatrix, highlight, highlightLine, pathPoints, state,
    center: () => map.getCenter(),
    onClick: (handler) => { clickHandler = handler; },
    addPin: (latlng, label) => L.circleMarker(latlng, { renderer: svg, radius: 6, color: "#14243b", weight: 2, fill: false }).bindTooltip(asText(label)).addTo(overlay),
    leaflet: () => map,
  };
})();
