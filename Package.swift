// swift-tools-version:6.0
import PackageDescription

/// vietmap-sim: an offline simulator of VietMap's REST APIs plus a contract-test suite.
///
/// Layers (each a target; arrows are the only allowed dependencies):
///   Platform                            (what differs between Glibc and Darwin: libc re-export, sockets, rlimits, signals, process memory, spawning)
///   CMicroHTTPD, JSON, Platform → HTTPServer  (HTTP/HTTPS transport; no VietMap knowledge)
///   HTTPServer, JSON, CMicroHTTPD, CGnuTLS, Platform → HTTPProxy  (the CONNECT/absolute-form proxy of `serve --proxy` and the local CA that signs its certificates; the only GnuTLS user)
///   CSQLite → SQLiteStore               (SQLite wrapper)
///   SQLiteStore, JSON → MBTiles         (MBTiles 1.3 files: an atomic writer (XYZ in, TMS rows stored) and a reader; no tile generation, no HTTP)
///   TextFolding                         (diacritic/đ folding shared by import and search)
///   JSON                                (ordered JSON values, serializer, parser, pretty-printer, pointers, equality by value, JSON Patch with its size estimate)
///   JSON → JSONSchema                   (JSON Schema 2020-12 validator)
///   JSON → VietMapWire                  (the VietMap wire protocol: endpoints — Directions v5 of the navigation SDKs and the map resources too —, parameters, error codes and envelopes (VietMap's and Mapbox's), the key policy, map paths and the URLs inside a style)
///   VietMapWire, HTTPServer, JSON → VietMapWireHTTP  (the protocol over HTTP: one renderer of answers and errors, one front door, a request's base URL)
///   Polyline                            (Google encoded polyline codec)
///   CZlib → Zlib                        (the one zlib wrapper: deflate and capped inflate, zlib or gzip framed, streaming inflation, CRC-32)
///   Protobuf                            (the one Protocol Buffers writer: varints, zigzag, fixed, length-delimited and packed fields)
///   CCairo, Zlib, Protobuf, JSON → MapTiles  (map features in world coordinates → MVT vector tiles, Cairo raster tiles and sprite atlases; no HTTP, no VietMap schema)
///   CFreeType, EmbeddedFiles, Protobuf → MapGlyphs  (embedded Roboto fonts → MapLibre glyph PBFs, SDF by FreeType; no HTTP)
///   Platform → ArrayBlob                (stored arrays: the blob format, views read in place from mapped file sections)
///   Geodesy                             (the one spherical geometry: one earth radius, haversine and planar distances, bearings; Foundation only)
///   ArrayBlob, Geodesy, Platform → Routing  (road graph, A*, contraction hierarchies, instructions, travel matrices, tour planning; no JSON)
///   StableHashing                       (the one stable hash: FNV-1a 64, word-wise for fingerprints and byte-wise)
///   SeededRandom                        (the one seeded generator family: SplitMix64 — generator, hash, seeder — and xoshiro256** `SeededGenerator`)
///   XMLEscaping                         (the one XML text escaper: five entities, U+FFFD for what XML 1.0 cannot carry; Foundation-free)
///   Routing, SeededRandom, XMLEscaping → DriveTrace                (a route driven into timed GPS fixes — stops, detours, gaps, seeded noise — and their GPX/NMEA/KML text; no CLI)
///   Zlib, Platform → OSMReader          (streaming OpenStreetMap XML/PBF reader, no routing knowledge)
///   Zlib, Protobuf → PBFWriter          (OpenStreetMap PBF writer: dense nodes, string tables, zlib blobs; no OSM semantics)
///   OSMReader, PBFWriter, Geodesy, SeededRandom → CountryMaker (a city extract copied over Vietnam's provinces and stitched by trunk roads: `make-country`)
///   SQLiteStore, TextFolding, ArrayBlob, Geodesy → Search  (autocomplete, reverse geocoding, address migration over a dataset file)
///   SQLiteStore, TextFolding, OSMReader, Routing, Search, Zlib, ArrayBlob, StableHashing, Platform → Dataset  (schema, importers — the road graph contracted per vehicle, map shapes: buildings, water, land use, waterways, railways —, sections read in place, dataset location/caching)
///   Zlib, Platform → EmbeddedFiles      (files embedded by the EmbedResources plugin, unpacked once into the cache; their build-time content hashes)
///   EmbeddedFiles → DefaultData         (the embedded input files)
///   HTTPServer, Search, JSON, TextFolding, Routing, Polyline, Dataset, VietMapWire, VietMapWireHTTP, MapTiles, MapGlyphs, MBTiles, Zlib, ArrayBlob, XMLEscaping, StableHashing → VietMapAPI  (parameters → domain → live-shaped JSON; VietMap's map schema, palettes and style documents; map exports to MBTiles with their style, glyphs and sprite)
///   RegexEngine                         (a regular expression matched without backtracking: Pike VM, O(text × program), capped program)
///   HTTPServer, JSON, Polyline, VietMapWire, VietMapWireHTTP, SeededRandom, RegexEngine, StableHashing, Platform → Scenarios  (fault-injection scenarios in front of any handler, journal, admin API)
///   Scenarios, HTTPServer, JSON, Zlib, VietMapWire → HARImport  (HAR 1.2 files → captured exchanges for replay scenarios)
///   HTTPServer, JSON, Routing, VietMapWire, EmbeddedFiles, ArrayBlob → Dashboard  (the QA page at /__sim/ui/, its endpoint list and road GeoJSON; static files embedded)
///   HTTPServer, JSON, VietMapClient, Scenarios, VietMapWire, VietMapWireHTTP, Zlib, Platform → Capture  (upstream client, forwarding, recording, replay; recordings → replay scenarios)
///   VietMapWire, JSON → VietMapClient         (the reference client: models, URLSession client, provider backends, map style URLs; Foundation only; builds for iOS)
///   EmbeddedFiles → BuiltInScenarios    (Scenarios/*.json embedded in the code)
///   Zlib, StableHashing → embed-resources  (the EmbedResources plugin's tool: a target's Resources/ folder → Swift source)
///   embed-resources → EmbedResources    (build-tool plugin of DefaultData, MapGlyphs, Dashboard, BuiltInScenarios, ContractFiles)
///   VietMapAPI, HTTPServer, Dataset, DefaultData, Scenarios, BuiltInScenarios, Dashboard, VietMapWire, VietMapWireHTTP → VietMapSimulator  (a whole simulator in-process: for `serve` and an app's XCTest; `GET /` index)
///   ContractWorkerHook                  (C: the constructor that turns a copy of a test process into a contract worker before any test runs)
///   EmbeddedFiles → ContractFiles       (Contracts/ embedded in the code: the OpenAPI document, schemas, corpus, fixtures)
///   JSON, JSONSchema, VietMapClient, Polyline, Geodesy, XMLEscaping, Platform, ContractWorkerHook, ContractFiles → ContractKit  (VietMapWire through VietMapClient's re-export; the contract suite: an app's decoders in contract workers (posix_spawn, no fork) or in-process (iOS), a decoder command in any language, scenario baselines; builds for iOS)
///   VietMapAPI, HTTPServer, Dataset, DefaultData, Scenarios, ContractKit, VietMapSimulator, BuiltInScenarios, Capture, HARImport, HTTPProxy,
///   Routing, DriveTrace, CountryMaker, Platform, VietMapWire, JSON, VietMapClient, ArrayBlob, MBTiles, SeededRandom → vietmap-sim  (thin CLI)
///   Platform → HTTPTestSupport          (test support without data: raw socket client, CLI runner)
///   TestExpectations                    (Swift Testing expectations in XCTest's argument shapes as plain functions, and teardown blocks: the side-by-side suites' vocabulary)
///   Dataset, DefaultData, Routing, HTTPTestSupport → SimTesting   (test support with data: the shared test dataset, the whole-city graph; re-exports HTTPTestSupport)
///   VietMapSimulator, SimTesting, JSON → SDKConformanceTests  (VietMap's JS SDK and Flutter plugin re-enacted against the simulator)

/// Swift settings shared by every Swift target (not the system libraries or the C target):
/// `MemberImportVisibility` — a file sees only the members of modules it imports itself, so every import is
/// written where it is used and declared in the target's dependencies (nothing compiles by transitive accident);
/// `ExistentialAny` — existential types are spelled `any P`.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]
/// Targets written in C: no Swift settings.
let cTargets: Set<String> = ["ContractWorkerHook"]

let package = Package(
    name: "vietmap-sim",
    // macOS 13 / iOS 16: `Duration` and `ContinuousClock` (VietMapClient). Only ContractKit and
    // VietMapClient (and what they depend on) build for iOS; the simulator needs a Mac or Linux.
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .executable(name: "vietmap-sim", targets: ["vietmap-sim"]),
        .library(name: "VietMapClient", targets: ["VietMapClient"]),
        .library(name: "ContractKit", targets: ["ContractKit"]),
        .library(name: "VietMapSimulator", targets: ["VietMapSimulator"]),
    ],
    targets: [
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
                       providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]),
        // macOS: the SDK has sqlite3.h and zlib.h (and their libraries); Homebrew's are keg-only.
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .systemLibrary(name: "CGnuTLS", pkgConfig: "gnutls", providers: [.apt(["libgnutls28-dev"]), .brew(["gnutls"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"]), .brew(["cairo"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"]), .brew(["freetype"])]),

        .target(name: "Platform"),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "JSON", "Platform"]),
        .target(name: "HTTPProxy", dependencies: ["HTTPServer", "JSON", "CMicroHTTPD", "CGnuTLS", "Platform"]),
        .target(name: "SQLiteStore", dependencies: ["CSQLite"]),
        .target(name: "TextFolding"),
        .target(name: "JSON"),
        .target(name: "VietMapWire", dependencies: ["JSON"]),
        .target(name: "VietMapWireHTTP", dependencies: ["VietMapWire", "HTTPServer", "JSON"]),
        .target(name: "JSONSchema", dependencies: ["JSON"]),
        .target(name: "Polyline"),
        .target(name: "ArrayBlob", dependencies: ["Platform"]),
        .target(name: "Geodesy"),
        .target(name: "Routing", dependencies: ["ArrayBlob", "Geodesy", "Platform"]),
        .target(name: "SeededRandom"),
        .target(name: "StableHashing"),
        .target(name: "XMLEscaping"),
        .target(name: "DriveTrace", dependencies: ["Routing", "SeededRandom", "XMLEscaping"]),
        .target(name: "Zlib", dependencies: ["CZlib"]),
        .target(name: "Protobuf"),
        .target(name: "OSMReader", dependencies: ["Zlib", "Platform"]),
        .target(name: "PBFWriter", dependencies: ["Zlib", "Protobuf"]),
        .target(name: "CountryMaker", dependencies: ["OSMReader", "PBFWriter", "Geodesy", "SeededRandom"]),
        .target(name: "Dataset", dependencies: ["SQLiteStore", "TextFolding", "OSMReader", "Routing", "Search", "Zlib", "ArrayBlob", "StableHashing", "Platform"]),
        .executableTarget(name: "embed-resources", dependencies: ["Zlib", "StableHashing"]),
        .plugin(name: "EmbedResources", capability: .buildTool(), dependencies: ["embed-resources"]),
        .target(name: "EmbeddedFiles", dependencies: ["Zlib", "Platform"]),
        .target(name: "DefaultData", dependencies: ["EmbeddedFiles"], exclude: ["Resources"], plugins: ["EmbedResources"]),
        .target(name: "Search", dependencies: ["SQLiteStore", "TextFolding", "ArrayBlob", "Geodesy"]),
        .target(name: "MBTiles", dependencies: ["SQLiteStore", "JSON"]),
        .target(name: "MapTiles", dependencies: ["CCairo", "Zlib", "Protobuf", "JSON"]),
        .target(name: "MapGlyphs", dependencies: ["CFreeType", "EmbeddedFiles", "Protobuf"], exclude: ["Resources"], plugins: ["EmbedResources"]),
        .target(name: "VietMapAPI", dependencies: ["HTTPServer", "Search", "JSON", "TextFolding", "Routing", "Polyline", "Dataset", "VietMapWire", "VietMapWireHTTP",
                                                  "MapTiles", "MapGlyphs", "MBTiles", "Zlib", "ArrayBlob", "XMLEscaping", "StableHashing"]),
        .target(name: "VietMapClient", dependencies: ["VietMapWire", "JSON"]),
        .target(name: "RegexEngine"),
        .target(name: "Scenarios", dependencies: ["HTTPServer", "JSON", "Polyline", "VietMapWire", "VietMapWireHTTP", "SeededRandom", "RegexEngine", "StableHashing", "Platform"]),
        .target(name: "HARImport", dependencies: ["Scenarios", "HTTPServer", "JSON", "Zlib", "VietMapWire"]),
        .target(name: "Dashboard", dependencies: ["HTTPServer", "JSON", "Routing", "VietMapWire", "EmbeddedFiles", "ArrayBlob"], exclude: ["Resources"],
                plugins: ["EmbedResources"]),
        .target(name: "Capture", dependencies: ["HTTPServer", "JSON", "VietMapClient", "Scenarios", "VietMapWire", "VietMapWireHTTP", "Zlib", "Platform"]),
        .target(name: "BuiltInScenarios", dependencies: ["EmbeddedFiles"], exclude: ["Resources"], plugins: ["EmbedResources"]),
        .target(name: "VietMapSimulator",
                dependencies: ["VietMapAPI", "HTTPServer", "Dataset", "DefaultData", "Scenarios", "BuiltInScenarios", "Dashboard",
                               "VietMapWire", "VietMapWireHTTP"]),
        .target(name: "ContractWorkerHook"),
        .target(name: "ContractFiles", dependencies: ["EmbeddedFiles"], exclude: ["Resources"], plugins: ["EmbedResources"]),
        .target(name: "ContractKit", dependencies: ["JSON", "JSONSchema", "VietMapClient", "Polyline", "Geodesy", "XMLEscaping", "Platform", "ContractWorkerHook", "ContractFiles"]),
        .executableTarget(name: "vietmap-sim",
                          dependencies: ["VietMapAPI", "HTTPServer", "Dataset", "DefaultData", "Scenarios", "ContractKit",
                                         "VietMapSimulator", "BuiltInScenarios", "Capture", "HARImport", "HTTPProxy", "Routing", "DriveTrace", "CountryMaker",
                                         "Platform", "VietMapWire", "JSON", "VietMapClient", "ArrayBlob", "MBTiles", "SeededRandom"]),

        .target(name: "HTTPTestSupport", dependencies: ["Platform"]),
        .target(name: "TestExpectations"),
        .target(name: "SimTesting", dependencies: ["Dataset", "DefaultData", "Routing", "HTTPTestSupport"]),

        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "HTTPProxy", "HTTPTestSupport", "Platform"]),
        .testTarget(name: "TextFoldingTests", dependencies: ["TestExpectations", "TextFolding"]),
        .testTarget(name: "JSONTests", dependencies: ["TestExpectations", "JSON"]),
        .testTarget(name: "RegexEngineTests", dependencies: ["TestExpectations", "RegexEngine"]),
        .testTarget(name: "JSONSchemaTests", dependencies: ["TestExpectations", "JSONSchema", "JSON"], resources: [.copy("Fixtures")]),
        .testTarget(name: "RoutingTests", dependencies: ["TestExpectations", "Routing", "SimTesting", "ArrayBlob", "SeededRandom"]),
        .testTarget(name: "PolylineTests", dependencies: ["TestExpectations", "Polyline", "SeededRandom"], resources: [.copy("Fixtures")]),
        .testTarget(name: "OSMReaderTests", dependencies: ["TestExpectations", "OSMReader", "PBFWriter", "SeededRandom"]),
        .testTarget(name: "DatasetTests", dependencies: ["TestExpectations", "Dataset", "DefaultData", "SQLiteStore", "Search", "TextFolding", "SimTesting", "Routing", "ArrayBlob", "OSMReader", "SeededRandom", "StableHashing", "Platform", "EmbeddedFiles"]),
        .testTarget(name: "CLITests", dependencies: ["TestExpectations", "vietmap-sim", "SimTesting", "SQLiteStore", "JSON", "Dataset", "Routing", "ArrayBlob", "VietMapWire", "Platform", "PBFWriter",
                                                 "MBTiles", "MapTiles", "Zlib", "DefaultData", "SeededRandom"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "CountryMakerTests",
                    dependencies: ["TestExpectations", "CountryMaker", "PBFWriter", "OSMReader", "Dataset", "DefaultData", "Routing", "HTTPTestSupport"]),
        .testTarget(name: "DriveTraceTests", dependencies: ["TestExpectations", "DriveTrace", "Routing", "SeededRandom"]),
        .testTarget(name: "VietMapAPITests",
                    dependencies: ["VietMapAPI", "HTTPServer", "SimTesting", "VietMapClient", "JSON", "Polyline", "Routing", "MapTiles",
                                   "VietMapWire", "Search", "Platform", "Zlib", "Dataset", "DefaultData", "SQLiteStore", "TextFolding",
                                   "VietMapWireHTTP", "ArrayBlob", "MapGlyphs", "SeededRandom"]),
        .testTarget(name: "VietMapClientTests", dependencies: ["VietMapClient", "VietMapAPI", "HTTPServer", "SimTesting"]),
        .testTarget(name: "ScenarioTests",
                    dependencies: ["Scenarios", "VietMapAPI", "HTTPServer", "JSON", "JSONSchema", "Polyline", "SimTesting", "Platform",
                                   "Dataset", "DefaultData", "VietMapWire", "VietMapWireHTTP", "SeededRandom", "RegexEngine"]),
        .testTarget(name: "HARImportTests",
                    dependencies: ["HARImport", "Scenarios", "VietMapAPI", "HTTPServer", "JSON", "JSONSchema", "SimTesting", "VietMapClient", "Zlib", "VietMapWire"]),
        .testTarget(name: "DashboardTests",
                    dependencies: ["Dashboard", "Scenarios", "VietMapAPI", "VietMapWire", "HTTPServer", "JSON", "Routing", "SimTesting", "ArrayBlob"]),
        .testTarget(name: "CaptureTests",
                    dependencies: ["TestExpectations", "Capture", "VietMapAPI", "HTTPServer", "Scenarios", "SimTesting", "VietMapClient", "Zlib", "Platform"]),
        .testTarget(name: "ContractTests",
                    dependencies: ["ContractKit", "Platform", "VietMapAPI", "HTTPServer", "Scenarios", "SimTesting", "VietMapClient", "JSON",
                                  "VietMapSimulator", "BuiltInScenarios", "JSONSchema", "VietMapWire"]),
        .testTarget(name: "MapTilesTests", dependencies: ["TestExpectations", "MapTiles", "SeededRandom"]),
        .testTarget(name: "MapGlyphsTests", dependencies: ["TestExpectations", "MapGlyphs"]),
        .testTarget(name: "ZlibTests", dependencies: ["TestExpectations", "Zlib", "CZlib"]),
        .testTarget(name: "ProtobufTests", dependencies: ["TestExpectations", "Protobuf"]),
        .testTarget(name: "MBTilesTests", dependencies: ["TestExpectations", "MBTiles", "MapTiles", "SQLiteStore"]),
        .testTarget(name: "SDKConformanceTests", dependencies: ["VietMapSimulator", "SimTesting", "JSON"]),
    ]
)

for target in package.targets where [.regular, .executable, .test].contains(target.type) && !cTargets.contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + swiftSettings
}

/// The data layers — what searches, routes and contracts hierarchies, and the small pieces they lean on
/// (mapped arrays, SQLite, folding, hashing, zlib, OSM reading) — are compiled optimised (`-O`) in debug builds too:
/// `swift test` and a debug `swift run` spend most of their time there, and unoptimised they are 3–20× slower (the
/// suite's CPU on a fresh clone: 349 s → 139 s; the build's: 251 s → 351 s — JSON, map tiles, glyphs and the importer's
/// orchestration (`Dataset`) were left out: they cost the build more than they gave the tests). Everything else (servers,
/// endpoints, the CLI, the tests) stays `-Onone` for the debugger. Not applied when this package is another
/// package's dependency (SwiftPM's and Xcode's checkouts, registry downloads): SwiftPM refuses unsafe flags in a
/// product depended on by version. `VIETMAP_SIM_DEBUG_ONONE=1` turns it off (stepping through these layers).
let optimisedInDebug: Set<String> = [
    "ArrayBlob", "Geodesy", "OSMReader", "Routing", "Search", "SQLiteStore", "StableHashing", "TextFolding", "Zlib",
]
let isDependency = ["/checkouts/", "/registry/downloads/"].contains { Context.packageDirectory.contains($0) }
if !isDependency && Context.environment["VIETMAP_SIM_DEBUG_ONONE"] != "1" {
    for target in package.targets where optimisedInDebug.contains(target.name) {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-O"], .when(configuration: .debug))]
    }
}
