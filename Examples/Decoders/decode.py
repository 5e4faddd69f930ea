#!/usr/bin/env python3
"""An app's models for `vietmap-sim contract --decoder 'python3 Examples/Decoders/decode.py'`:
as strict as the reference iOS client's Codable models, and its decodePolyline ported with the
same traps (os.abort() where Swift would trap).

Protocol: the endpoint name is argv[1], the body on stdin, VIETMAP_STATUS / VIETMAP_QUERY set.
Exit 0 = decoded; exit 1 with "/json/pointer: message" on stderr = a decode failure.
"""
import json
import os
import sys

ENDPOINT = sys.argv[1] if len(sys.argv) > 1 else ""
STATUS = int(os.environ.get("VIETMAP_STATUS", "0"))
TYPES = {"string": str, "number": (int, float), "array": list, "object": dict}


def fail(pointer, message):
    sys.stderr.write(f"{pointer}: {message}\n")
    sys.exit(1)


def required(obj, key, kind, at):
    if key not in obj:
        fail(f"{at}/{key}", f'"{key}" is required; the response has none')
    if obj[key] is None:
        fail(f"{at}/{key}", f'"{key}" is not optional; the response has null')
    if not isinstance(obj[key], TYPES[kind]) or isinstance(obj[key], bool):
        fail(f"{at}/{key}", f'"{key}" must be a {kind}')
    return obj[key]


def optional(obj, key, kind, at):
    value = obj.get(key)
    if value is None:
        return None
    if not isinstance(value, TYPES[kind]) or isinstance(value, bool):
        fail(f"{at}/{key}", f'"{key}" must be a {kind} or null')
    return value


def decode_polyline(encoded):
    """The reference client's decodePolyline; where Swift traps, abort."""
    points, index, lat, lng = [], 0, 0, 0
    while index < len(encoded):
        deltas = []
        for _ in range(2):
            result, shift = 0, 0
            while True:
                if index >= len(encoded):
                    os.abort()  # encoded[index] at endIndex
                code = ord(encoded[index])
                if code > 127 or code < 63:
                    os.abort()  # asciiValue! / UInt8 subtraction overflow
                byte = code - 63
                index += 1
                result |= (byte & 0x1F) << shift
                shift += 5
                if not (byte >= 0x20 and index < len(encoded)):
                    break
            deltas.append(~(result >> 1) if result & 1 else result >> 1)
        lat, lng = lat + deltas[0], lng + deltas[1]
        points.append((lat / 1e5, lng / 1e5))
    return points


def main():
    data = sys.stdin.buffer.read()
    if STATUS != 200 or ENDPOINT not in ("autocomplete", "place", "route"):
        return 0  # the reference client decodes HTTP 200 only
    try:
        body = json.loads(data)
    except ValueError as error:
        fail("", f"not JSON ({error})")
    if ENDPOINT == "autocomplete":
        if not isinstance(body, list):
            fail("", "expected an array of items")
        for i, item in enumerate(body):
            if not isinstance(item, dict):
                fail(f"/{i}", "an item must be an object")
            required(item, "ref_id", "string", f"/{i}")
            for key in ("address", "name", "display"):
                optional(item, key, "string", f"/{i}")
            optional(item, "distance", "number", f"/{i}")
    elif ENDPOINT == "place":
        if not isinstance(body, dict):
            fail("", "expected an object")
        for key in ("display", "name", "hs_num", "street", "address", "city", "district", "ward"):
            optional(body, key, "string", "")
        for key in ("lat", "lng"):
            optional(body, key, "number", "")
    else:
        if not isinstance(body, dict):
            fail("", "expected an object")
        for i, path in enumerate(optional(body, "paths", "array", "") or []):
            required(path, "distance", "number", f"/paths/{i}")
            optional(path, "time", "number", f"/paths/{i}")
            decode_polyline(required(path, "points", "string", f"/paths/{i}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
