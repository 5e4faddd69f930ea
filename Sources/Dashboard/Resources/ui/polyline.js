// Google encoded polyline decoder (the format of VietMap's `points` and `snapped_waypoints`,
// precision 1e5, latitude first). Total: stops at the first incomplete value and reports it.
"use strict";
(function (global) {
  /**
   * Decodes `text` into [[lat, lng], …].
   * @param {string} text the encoded polyline
   * @param {number} [precision=5] decimal digits (5 for VietMap, 6 for OSRM's polyline6)
   * @returns {{points: number[][], error: string|null}}
   */
  function decodePolyline(text, precision) {
    const factor = Math.pow(10, precision === undefined ? 5 : precision);
    const points = [];
    let index = 0, lat = 0, lng = 0;
    function next() {
      let result = 0, shift = 0, byte;
      do {
        if (index >= text.length) return null;
        byte = text.charCodeAt(index++) - 63;
        if (byte < 0 || byte > 63 || shift > 30) return undefined;
        result |= (byte & 0x1f) << shift;
        shift += 5;
      } while (byte >= 0x20);
      return (result & 1) ? ~(result >>> 1) : (result >>> 1);
    }
    while (index < text.length) {
      const at = index;
      const dLat = next();
      const dLng = dLat == null ? dLat : next();
      if (dLat == null || dLng == null) {
        return { points, error: (dLat === undefined || dLng === undefined ? "invalid character" : "incomplete value") + " at offset " + at };
      }
      lat += dLat; lng += dLng;
      points.push([lat / factor, lng / factor]);
    }
    return { points, error: null };
  }
  global.decodePolyline = decodePolyline;
})(typeof window !== "undefined" ? window : globalThis);
