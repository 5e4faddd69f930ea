import EmbeddedFiles
import Foundation

/// The repository's `Contracts/` folder (OpenAPI document, JSON Schemas, query corpus, live
/// fixtures) embedded in the code, so that `ContractKit` reads nothing from a checkout at run
/// time: an app's test target — on a Mac, in the iOS Simulator, on a CI runner — gets the
/// contract it was built with. `Resources/Contracts` is a symbolic link to that folder; the
/// `EmbedResources` plugin embeds every file at build time, unpacked once into the cache at run
/// time (`EmbeddedFolder`).
public enum ContractFiles {
    /// The embedded `Contracts` folder.
    public static var directory: URL { unpacked.appendingPathComponent("Contracts", isDirectory: true) }

    private static let unpacked = EmbeddedFolder.materialize(name: "ContractFiles", fingerprint: EmbeddedArchive.fingerprint,
                                                            inflatedSize: EmbeddedArchive.inflatedSize,
                                                            deflatedBase64: EmbeddedArchive.deflatedBase64)
}
