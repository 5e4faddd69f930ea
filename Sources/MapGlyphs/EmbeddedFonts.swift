import EmbeddedFiles
import Foundation

/// The fonts embedded in this target (`Resources/fonts`: Roboto Regular, Medium and Condensed
/// Italic from Debian's `fonts-roboto-unhinted`, Apache-2.0 — see its `README.md`), unpacked once
/// into the cache (`EmbeddedFolder`), so a binary copied anywhere has them.
enum EmbeddedFonts {
    /// Style name and file name of each embedded font, the default first.
    static let files: [(name: String, file: String)] = [
        ("Roboto Regular", "Roboto-Regular.ttf"),
        ("Roboto Medium", "Roboto-Medium.ttf"),
        ("Roboto Condensed Italic", "RobotoCondensed-Italic.ttf"),
    ]

    /// The unpacked `fonts` folder.
    static var directory: URL { unpacked.appendingPathComponent("fonts", isDirectory: true) }

    private static let unpacked = EmbeddedFolder.materialize(name: "MapGlyphs", fingerprint: EmbeddedArchive.fingerprint,
                                                            inflatedSize: EmbeddedArchive.inflatedSize,
                                                            deflatedBase64: EmbeddedArchive.deflatedBase64)
}
