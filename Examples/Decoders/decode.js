#!/usr/bin/env node
// An app's models for `vietmap-sim contract --decoder 'node Examples/Decoders/decode.js'`, in plain
// Node (no npm packages): as strict as the reference iOS client's Codable models, and its
// decodePolyline ported with the same traps (an abort where Swift would trap).
//
// Protocol: the endpoint name is argv[2], the body is on stdin, VIETMAP_STATUS / VIETMAP_QUERY are
// set. Exit 0 = decoded; exit 1 with "/json/pointer: message" on stderr = a decode failure.
"use strict";

const endpoint = process.argv[2];
const status = Number(process.env.VIETMAP_STATUS);

function fail(pointer, message) {
  process.stderr.write(`${pointer}: ${message}\n`);
  process.exit(1);
}

// Codable's rules: a non-optional property needs the key and a non-null value of its type; an
// optional one accepts absent or null, but not another type.
function typeOf(value) { return value === null ? "null" : Array.isArray(value) ? "array" : typeof value; }
function required(object, key, type, at) {
  if (!(key in object)) fail(`${at}/${key}`, `"${key}" is required; the response has none`);
  if (object[key] === null) fail(`${at}/${key}`, `"${key}" is not optional; the response has null`);
  if (typeOf(object[key]) !== type) fail(`${at}/${key}`, `"${key}" must be a ${type}; the response has a ${typeOf(object[key])}`);
  return object[key];
}
function optional(object, key, type, at) {
  const value = object[key];
  if (value === undefined || value === null) return undefined;
  if (typeOf(value) !== type) fail(`${at}/${key}`, `"${key}" must be a ${type} or null; the response has a ${typeOf(value)}`);
  return value;
}

// The reference client's decodePolyline, step by step; where Swift traps, abort().
function decodePolyline(encoded) {
  const points = [];
  let index = 0, lat = 0, lng = 0;
  while (index < encoded.length) {
    for (const which of ["lat", "lng"]) {
      let result = 0, shift = 0, byte;
      do {
        if (index >= encoded.length) process.abort();           // encoded[index] at endIndex
        const code = encoded.charCodeAt(index);
        if (code > 127) process.abort();                         // asciiValue! of a non-ASCII character
        byte = code - 63;
        if (byte < 0) process.abort();                           // UInt8 subtraction overflow
        index += 1;
        result |= (byte & 0x1f) << shift;
        shift += 5;
      } while (byte >= 0x20 && index < encoded.length);
      const delta = (result & 1) ? ~(result >> 1) : (result >> 1);
      if (which === "lat") lat += delta; else lng += delta;
    }
    points.push([lat / 1e5, lng / 1e5]);
  }
  return points;
}

const chunks = [];
process.stdin.on("data", (chunk) => chunks.push(chunk));
process.stdin.on("end", () => {
  // The reference client decodes HTTP 200 only; any other status is its VMError.http.
  if (status !== 200 || !["autocomplete", "place", "route"].includes(endpoint)) process.exit(0);
  let body;
  try { body = JSON.parse(Buffer.concat(chunks).toString("utf8")); } catch (e) { fail("", `not JSON (${e.message})`); }
  if (endpoint === "autocomplete") {
    if (!Array.isArray(body)) fail("", `expected an array of items, got a ${typeOf(body)}`);
    body.forEach((item, i) => {
      if (typeOf(item) !== "object") fail(`/${i}`, `an item must be an object`);
      required(item, "ref_id", "string", `/${i}`);
      for (const key of ["address", "name", "display"]) optional(item, key, "string", `/${i}`);
      optional(item, "distance", "number", `/${i}`);
    });
  } else if (endpoint === "place") {
    if (typeOf(body) !== "object") fail("", `expected an object, got a ${typeOf(body)}`);
    for (const key of ["display", "name", "hs_num", "street", "address", "city", "district", "ward"]) optional(body, key, "string", "");
    for (const key of ["lat", "lng"]) optional(body, key, "number", "");
  } else if (endpoint === "route") {
    if (typeOf(body) !== "object") fail("", `expected an object, got a ${typeOf(body)}`);
    const paths = optional(body, "paths", "array", "") || [];
    paths.forEach((path, i) => {
      required(path, "distance", "number", `/paths/${i}`);
      optional(path, "time", "number", `/paths/${i}`);
      decodePolyline(required(path, "points", "string", `/paths/${i}`));
    });
  }
  process.exit(0);
});
