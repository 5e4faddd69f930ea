// swift-tools-version:6.0
import Foundation
import PackageDescription

/// An app team's package, as a client of vietmap-sim would set it up: the reference iOS client's
/// model and polyline files copied verbatim (`Sources/VietMapGoogleClient`), and contract tests
/// that run them against a simulator started in-process (`Tests/ClientContractTests`).
///
/// The dependency is vietmap-sim by path (`../..`). SwiftPM names a path dependency after its
/// FOLDER (the package identity is the folder name, not the `name:` in its manifest), and CI may
/// clone the repository into any folder name — so the name used in `.product(name:package:)` is
/// computed from this manifest's location. In your own package, with a URL dependency
/// (`.package(url: "https://…/vietmap-sim.git", branch: "main")`), it is simply "vietmap-sim".
let vietmapSim = URL(fileURLWithPath: Context.packageDirectory)
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

/// CoreLocation exists on Apple platforms only; on Linux a one-type stand-in (`Sources/CoreLocation`).
#if os(Linux)
let coreLocation: [Target.Dependency] = ["CoreLocation"]
let shim: [Target] = [.target(name: "CoreLocation")]
#else
let coreLocation: [Target.Dependency] = []
let shim: [Target] = []
#endif

let targets: [Target] = shim + [
    .target(name: "VietMapGoogleClient", dependencies: coreLocation),
    .testTarget(name: "ClientContractTests", dependencies: [
        "VietMapGoogleClient",
        .product(name: "ContractKit", package: vietmapSim),
        .product(name: "VietMapSimulator", package: vietmapSim),
    ], exclude: ["scenario-baseline.json"]),
]


let package = Package(
    name: "ClientContractTests",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(path: "../..")],
    targets: targets
)
