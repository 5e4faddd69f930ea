"""A minimal OSM PBF reader (standard library only): named elements with their tags and geometry.

Reads OSMData blocks (zlib or raw), dense and plain nodes, ways and relations. Enough for the
search-quality ground truth; not a general PBF library (no history, no metadata)."""
import struct, zlib


def _varint(buf, i):
    shift = result = 0
    while True:
        b = buf[i]; i += 1
        result |= (b & 0x7F) << shift
        if b < 0x80: return result, i
        shift += 7


def _fields(buf):
    """(field number, wire type, value) of a message; value is int or memoryview."""
    i, n = 0, len(buf)
    while i < n:
        key, i = _varint(buf, i)
        f, t = key >> 3, key & 7
        if t == 0:
            v, i = _varint(buf, i)
        elif t == 2:
            ln, i = _varint(buf, i)
            v = buf[i:i + ln]; i += ln
        elif t == 5:
            v = buf[i:i + 4]; i += 4
        elif t == 1:
            v = buf[i:i + 8]; i += 8
        else:
            raise ValueError("wire type %d" % t)
        yield f, t, v


def _packed(buf):
    out, i, n = [], 0, len(buf)
    while i < n:
        v, i = _varint(buf, i)
        out.append(v)
    return out


def _zz(v): return (v >> 1) ^ -(v & 1)


def _delta(values):
    out, acc = [], 0
    for v in values:
        acc += _zz(v); out.append(acc)
    return out


def read(path):
    """(nodes: id → (lat, lon), tagged nodes: id → tags, ways: id → (tags, refs), relations: id → (tags, members))."""
    data = open(path, "rb").read()
    pos = 0
    coords, tagged, ways, rels = {}, {}, {}, {}
    while pos < len(data):
        (hlen,) = struct.unpack(">I", data[pos:pos + 4]); pos += 4
        header = dict((f, v) for f, _, v in _fields(memoryview(data)[pos:pos + hlen])); pos += hlen
        size = header[3]
        blob = dict((f, v) for f, _, v in _fields(memoryview(data)[pos:pos + size])); pos += size
        if bytes(header[1]) != b"OSMData": continue
        raw = bytes(blob[1]) if 1 in blob else zlib.decompress(bytes(blob[3]))
        block = memoryview(raw)
        strings, groups, gran, lat_off, lon_off = [], [], 100, 0, 0
        for f, _, v in _fields(block):
            if f == 1: strings = [bytes(s).decode("utf-8", "replace") for g, _, s in _fields(v) if g == 1]
            elif f == 2: groups.append(v)
            elif f == 17: gran = v
            elif f == 19: lat_off = v
            elif f == 20: lon_off = v
        def coord(la, lo): return ((lat_off + gran * la) * 1e-9, (lon_off + gran * lo) * 1e-9)
        for g in groups:
            for f, _, v in _fields(g):
                if f == 2:  # dense
                    ids = lats = lons = kv = None
                    for df, _, dv in _fields(v):
                        if df == 1: ids = _delta(_packed(dv))
                        elif df == 8: lats = _delta(_packed(dv))
                        elif df == 9: lons = _delta(_packed(dv))
                        elif df == 10: kv = _packed(dv)
                    k = 0
                    for j, nid in enumerate(ids):
                        coords[nid] = coord(lats[j], lons[j])
                        if kv:
                            tags = {}
                            while kv[k] != 0:
                                tags[strings[kv[k]]] = strings[kv[k + 1]]; k += 2
                            k += 1
                            if tags: tagged[nid] = tags
                elif f == 1:  # plain node
                    nid = la = lo = 0; keys = vals = []
                    for nf, _, nv in _fields(v):
                        if nf == 1: nid = _zz(nv)
                        elif nf == 2: keys = _packed(nv)
                        elif nf == 3: vals = _packed(nv)
                        elif nf == 8: la = _zz(nv)
                        elif nf == 9: lo = _zz(nv)
                    coords[nid] = coord(la, lo)
                    if keys: tagged[nid] = {strings[a]: strings[b] for a, b in zip(keys, vals)}
                elif f == 3:  # way
                    wid = 0; keys = vals = refs = []
                    for wf, _, wv in _fields(v):
                        if wf == 1: wid = wv
                        elif wf == 2: keys = _packed(wv)
                        elif wf == 3: vals = _packed(wv)
                        elif wf == 8: refs = _delta(_packed(wv))
                    ways[wid] = ({strings[a]: strings[b] for a, b in zip(keys, vals)}, refs)
                elif f == 4:  # relation
                    rid = 0; keys = vals = roles = mems = types = []
                    for rf, _, rv in _fields(v):
                        if rf == 1: rid = rv
                        elif rf == 2: keys = _packed(rv)
                        elif rf == 3: vals = _packed(rv)
                        elif rf == 8: roles = _packed(rv)
                        elif rf == 9: mems = _delta(_packed(rv))
                        elif rf == 10: types = _packed(rv)
                    rels[rid] = ({strings[a]: strings[b] for a, b in zip(keys, vals)},
                                 [(("node", "way", "relation")[t], m, strings[r]) for t, m, r in zip(types, mems, roles)])
    return coords, tagged, ways, rels
