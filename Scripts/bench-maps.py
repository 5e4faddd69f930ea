#!/usr/bin/env python3
"""Map-screen figures of issue #36, run by `Scripts/bench --maps` (prints figures, asserts nothing).

    bench-maps.py BIN DATASET WORKDIR DURATION

On DATASET (the whole-city import), with the release BIN:
- a cold "map screen open" on a fresh server: style, sprite@2x json+png, glyph ranges 0-255/256-511/7680-7935 of
  two stacks, the z14 vector tiles of a 412x915 dp phone viewport centred on District 1 (wall time, first tile);
- vector tile p50/p99 per zoom (z10, z12, z14) uncached (a server with VIETMAP_SIM_MAP_CACHE_MB=0) and cached
  (the same tiles again on the default server), server-side (Server-Timing app;dur) and client-side;
- raster 512 px (@2x) p50/p99 at z14-16, uncached;
- cached tile throughput next to nginx serving the same gzip bytes with Content-Encoding: gzip (wrk, URL lists);
- resident memory before any map request, after the first (features + index) and after the cached run.
Python stdlib only; wrk and nginx on PATH.
"""
import http.client, json, math, os, random, re, subprocess, sys, threading, time, urllib.parse
from concurrent.futures import ThreadPoolExecutor

BIN, DB, WORK, DURATION = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
KEY = "bench"
CITY = ((10.60, 10.98), (106.52, 106.90))  # the city and its nearer suburbs (lat, lon): ~300 tiles at z14
DISTRICT1 = (10.7769, 106.7008)
ZOOMS = (10, 12, 14)
RASTER_ZOOMS = (14, 15, 16)
PROCS = []
# Tiles per zoom (vector) and per zoom (raster): smaller for a quick check of the script itself.
VECTOR_TILES = int(os.environ.get("BENCH_MAPS_TILES", "300"))
RASTER_TILES = int(os.environ.get("BENCH_MAPS_RASTER_TILES", "120"))


def load():
    return open("/proc/loadavg").read().split()[:3]


def rss_mb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024
    return float("nan")


def start_server(port, env_extra):
    env = dict(os.environ, **env_extra)
    log = open(f"{WORK}/maps-serve-{port}.log", "w")
    proc = subprocess.Popen([BIN, "serve", "--port", str(port), "--db", DB], stdout=log, stderr=subprocess.STDOUT, env=env)
    PROCS.append(proc)
    t0 = time.perf_counter()
    while True:
        if proc.poll() is not None:
            sys.exit(f"server died:\n{open(log.name).read()}")
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            c.request("GET", f"/api/autocomplete/v4?apikey={KEY}&text=a")
            if c.getresponse().status == 200:
                break
        except OSError:
            pass
        time.sleep(0.02)
    return proc, time.perf_counter() - t0


class Client:
    """One keep-alive connection; get() answers (status, headers, body, client ms, server ms)."""

    def __init__(self, port):
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def get(self, path, gzip=True):
        headers = {"Accept-Encoding": "gzip, deflate", "User-Agent": "MapLibreNative/1.0"} if gzip else {}
        t0 = time.perf_counter()
        self.conn.request("GET", path, headers=headers)
        r = self.conn.getresponse()
        body = r.read()
        client_ms = (time.perf_counter() - t0) * 1000
        m = re.search(r"app;dur=([0-9.]+)", r.getheader("Server-Timing") or "")
        return r.status, r, body, client_ms, (float(m.group(1)) if m else None)


def tile_xy(lat, lon, z):
    n = 2 ** z
    x = int((lon + 180) / 360 * n)
    y = int((1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * n)
    return x, y


def city_tiles(z, limit, rng):
    (la0, la1), (lo0, lo1) = CITY
    x0, y0 = tile_xy(la1, lo0, z)
    x1, y1 = tile_xy(la0, lo1, z)
    tiles = [(z, x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)]
    rng.shuffle(tiles)
    return tiles[:limit]


def viewport_tiles(lat, lon, z, width_dp, height_dp, tile_dp=512):
    """The tiles of a vector source (512 dp grid) MapLibre needs for a width x height dp view at zoom z."""
    world = tile_dp * 2 ** z
    cx = (lon + 180) / 360 * world
    cy = (1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * world
    xs = range(int((cx - width_dp / 2) // tile_dp), int((cx + width_dp / 2) // tile_dp) + 1)
    ys = range(int((cy - height_dp / 2) // tile_dp), int((cy + height_dp / 2) // tile_dp) + 1)
    return [(z, x, y) for x in xs for y in ys]


def pct(samples, q):
    s = sorted(samples)
    return s[min(len(s) - 1, int(q * len(s)))] if s else float("nan")


def local_path(url):
    u = urllib.parse.urlsplit(url)
    return u.path + ("?" + u.query if u.query else "")


def with_suffix(url, suffix):
    """`suffix` inserted before the query string (MapLibre keeps the query after `@2x.json`)."""
    base, _, query = url.partition("?")
    return base + suffix + ("?" + query if query else "")


def style_resources(client):
    status, _, body, ms, _ = client.get(f"/api/maps/light/styles.json?apikey={KEY}")
    assert status == 200, f"style: {status}"
    style = json.loads(body)
    template = None
    for source in style["sources"].values():
        if source.get("type") == "vector":
            if "tiles" in source:
                template = source["tiles"][0]
            else:
                _, _, tj, _, _ = client.get(local_path(source["url"]))
                template = json.loads(tj)["tiles"][0]
            break
    stacks = []
    for layer in style["layers"]:
        font = layer.get("layout", {}).get("text-font")
        if isinstance(font, list) and all(isinstance(f, str) for f in font) and font not in stacks:
            stacks.append(font)
    return style, local_path(template), stacks, ms


def tile_path(template, z, x, y):
    return template.replace("{z}", str(z)).replace("{x}", str(x)).replace("{y}", str(y))


def map_screen_open(port, pid):
    """A fresh server: style, then sprite, viewport tiles and glyphs over 6 connections as MapLibre would."""
    client = Client(port)
    t0 = time.perf_counter()
    style, template, stacks, style_ms = style_resources(client)
    sprite = style["sprite"]
    tiles = viewport_tiles(*DISTRICT1, 14, 412, 915)
    glyph_paths = [local_path(style["glyphs"].replace("{fontstack}", urllib.parse.quote(",".join(stack), safe="")).replace("{range}", r))
                   for stack in stacks[:2] for r in ("0-255", "256-511", "7680-7935")]
    jobs = [("sprite", local_path(with_suffix(sprite, "@2x.json"))), ("sprite", local_path(with_suffix(sprite, "@2x.png")))]
    jobs += [("tile", tile_path(template, *t)) for t in tiles] + [("glyph", p) for p in glyph_paths]
    first_tile = [None]
    lock = threading.Lock()
    local = threading.local()

    def fetch(job):
        kind, path = job
        if not hasattr(local, "client"):
            local.client = Client(port)
        status, _, body, ms, server_ms = local.client.get(path)
        done = (time.perf_counter() - t0) * 1000
        if kind == "tile":
            with lock:
                if first_tile[0] is None or done < first_tile[0]:
                    first_tile[0] = done
        return kind, status, len(body), ms, server_ms

    with ThreadPoolExecutor(6) as pool:
        results = list(pool.map(fetch, jobs))
    total = (time.perf_counter() - t0) * 1000
    statuses = {}
    for kind, status, *_ in results:
        statuses.setdefault(kind, []).append(status)
    print(f"map screen open (fresh server, 6 connections): {total:.0f} ms total, first tile after {first_tile[0]:.0f} ms "
          f"(style {style_ms:.1f} ms; {len(tiles)} z14 tiles {sorted(tiles)}, {len(glyph_paths)} glyph ranges of "
          f"{[', '.join(s) for s in stacks[:2]]})")
    slow = max((r for r in results if r[0] == "tile"), key=lambda r: r[3])
    print(f"  statuses {json.dumps(statuses)}; slowest tile {slow[3]:.0f} ms client, {slow[4]} ms server "
          f"(the first tile builds the features and their index)")
    print(f"  RSS after the first map requests (features + index): {rss_mb(pid):.0f} MB")
    return template


def latency(port, paths, label, target=""):
    client = Client(port)
    server, clientside, statuses = [], [], {}
    for path in paths:
        status, _, _, ms, server_ms = client.get(path)
        statuses[status] = statuses.get(status, 0) + 1
        if status == 200 and server_ms is not None:
            server.append(server_ms)
            clientside.append(ms)
    print(f"{label:30s} server p50 {pct(server, .5):7.2f} p99 {pct(server, .99):7.2f} ms | client p50 {pct(clientside, .5):7.2f} "
          f"p99 {pct(clientside, .99):7.2f} ms | {len(server)} x 200 {dict(sorted(statuses.items()))}{target}")
    return server


def wrk(url, script, threads=2, conns=32):
    out = subprocess.run(["wrk", f"-t{threads}", f"-c{conns}", f"-d{DURATION}s", "-s", script, url],
                         capture_output=True, text=True).stdout
    rps = re.search(r"Requests/sec:\s*([0-9.]+)", out)
    transfer = re.search(r"Transfer/sec:\s*(\S+)", out)
    non2xx = re.search(r"Non-2xx or 3xx responses:\s*(\d+)", out)
    return float(rps.group(1)) if rps else 0.0, transfer.group(1) if transfer else "?", int(non2xx.group(1)) if non2xx else 0


def url_script(path, paths):
    with open(path, "w") as f:
        f.write("paths = {\n" + ",\n".join(json.dumps(p) for p in paths) + "\n}\n")
        f.write('wrk.headers["Accept-Encoding"] = "gzip, deflate"\n')
        f.write("counter = 0\nrequest = function()\n  counter = counter + 1\n"
                "  return wrk.format(nil, paths[(counter % #paths) + 1])\nend\n")


def main():
    port, uncached_port, nginx_port = 18090, 18091, 18092
    rng = random.Random(36)
    print(f"load average at start: {' '.join(load())} ({os.cpu_count()} cores)")

    proc, started = start_server(port, {})
    rss_before = rss_mb(proc.pid)
    print(f"server up in {started * 1000:.0f} ms; RSS before any map request: {rss_before:.0f} MB")
    template = map_screen_open(port, proc.pid)
    rss_first = rss_mb(proc.pid)

    uproc, _ = start_server(uncached_port, {"VIETMAP_SIM_MAP_CACHE_MB": "0"})
    Client(uncached_port).get(tile_path(template, *viewport_tiles(*DISTRICT1, 14, 412, 915)[0]))  # build the features first
    print(f"== vector tiles (gzip), sequential keep-alive; load {' '.join(load())}")
    tiles = {z: city_tiles(z, VECTOR_TILES, rng) for z in ZOOMS}
    for z in ZOOMS:
        # z10 and z12 cover the city with few tiles: each is asked several times (the server caches nothing).
        paths = [tile_path(template, *t) for t in tiles[z]]
        repeat = max(1, 200 // len(paths))
        latency(uncached_port, paths * repeat, f"z{z} uncached ({len(paths)} tiles)", " (target z14 p99 < 10 ms)" if z == 14 else "")
    for z in ZOOMS:
        paths = [tile_path(template, *t) for t in tiles[z]]
        c = Client(port)  # the default server: a first pass fills its cache, the second is measured
        for p in paths:
            c.get(p)
        latency(port, paths, f"z{z} cached ({len(paths)} tiles)")
    rss_cached = rss_mb(proc.pid)

    print(f"== raster tiles 512 px (@2x), uncached, sequential; load {' '.join(load())}")
    for z in RASTER_ZOOMS:
        paths = [f"/api/tm/{z}/{x}/{y}@2x.png?apikey={KEY}" for (_, x, y) in city_tiles(z, RASTER_TILES, rng)]
        latency(uncached_port, paths, f"z{z} raster @2x ({len(paths)} tiles)", " (target p99 < 40 ms)")

    # Throughput: the cached vector tiles next to nginx serving their gzip bytes as files.
    www = f"{WORK}/maps-www"
    sim_paths, nginx_paths = [], []
    c = Client(port)
    for z in ZOOMS:
        for (_, x, y) in tiles[z]:
            p = tile_path(template, z, x, y)
            status, r, body, _, _ = c.get(p)
            if status != 200 or r.getheader("Content-Encoding") != "gzip":
                continue
            os.makedirs(f"{www}/t/{z}/{x}", exist_ok=True)
            with open(f"{www}/t/{z}/{x}/{y}.pbf", "wb") as f:
                f.write(body)
            sim_paths.append(p)
            nginx_paths.append(f"/t/{z}/{x}/{y}.pbf")
    sizes = [os.path.getsize(f"{www}{p}") for p in nginx_paths]
    with open(f"{WORK}/maps-nginx.conf", "w") as f:
        f.write(f"""worker_processes 2;
daemon off;
pid {WORK}/maps-nginx.pid;
error_log {WORK}/maps-nginx-error.log;
events {{ worker_connections 1024; }}
http {{
  access_log off;
  server {{
    listen 127.0.0.1:{nginx_port};
    location /t/ {{
      root {www};
      types {{ }}
      default_type application/vnd.mapbox-vector-tile;
      add_header Content-Encoding gzip;
      add_header Vary Accept-Encoding;
      add_header Cache-Control "public, max-age=3600";
      add_header Access-Control-Allow-Origin *;
    }}
  }}
}}
""")
    nginx = subprocess.Popen(["nginx", "-c", f"{WORK}/maps-nginx.conf"])
    PROCS.append(nginx)
    time.sleep(0.5)
    check = Client(nginx_port).get(nginx_paths[0])
    if check[0] != 200 or check[1].getheader("Content-Encoding") != "gzip":
        sys.exit(f"nginx answers {check[0]} for {nginx_paths[0]}: {open(f'{WORK}/maps-nginx-error.log').read()[-500:]}")
    url_script(f"{WORK}/maps-sim.lua", sim_paths)
    url_script(f"{WORK}/maps-nginx.lua", nginx_paths)
    print(f"== cached tile throughput (wrk -t2 -c32 -d{DURATION}s, {len(sim_paths)} tile URLs cycled, gzip bodies "
          f"{sum(sizes) / len(sizes) / 1024:.1f} KB mean, {max(sizes) / 1024:.0f} KB max); load {' '.join(load())}")
    # Simulator and nginx alternate twice and are averaged: a burst of other load cannot land on one side only.
    runs = {"sim": [], "nginx": []}
    for _ in range(2):
        runs["sim"].append(wrk(f"http://127.0.0.1:{port}", f"{WORK}/maps-sim.lua"))
        runs["nginx"].append(wrk(f"http://127.0.0.1:{nginx_port}", f"{WORK}/maps-nginx.lua"))
    sim = sum(r[0] for r in runs["sim"]) / 2
    ngx = sum(r[0] for r in runs["nginx"]) / 2
    print(f"simulator cached tiles: {sim:10.0f} req/s ({sim / ngx:.2f}x nginx, target >= 0.8x; runs {[r[0] for r in runs['sim']]}, "
          f"{runs['sim'][0][1]}/s, non-2xx {sum(r[2] for r in runs['sim'])})")
    print(f"nginx, same bytes:      {ngx:10.0f} req/s (runs {[r[0] for r in runs['nginx']]}, {runs['nginx'][0][1]}/s, "
          f"non-2xx {sum(r[2] for r in runs['nginx'])}); load after {' '.join(load())}")

    print("== memory (resident, the default server)")
    print(f"before any map request: {rss_before:.0f} MB; after the first map requests (features + index): {rss_first:.0f} MB; after the cached run: {rss_cached:.0f} MB; "
          f"after wrk: {rss_mb(proc.pid):.0f} MB (map cache budget 64 MiB: VIETMAP_SIM_MAP_CACHE_MB)")


try:
    main()
finally:
    for p in PROCS:
        p.terminate()
    for p in PROCS:
        try:
            p.wait(5)
        except subprocess.TimeoutExpired:
            p.kill()
