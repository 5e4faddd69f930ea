import CFreeType
import Foundation

/// A FreeType library instance; creating and destroying faces holds its lock.
final class FreeTypeLibrary: @unchecked Sendable {
    private let handle: FT_Library
    private let lock = NSLock()

    init() throws(FreeTypeFont.LoadError) {
        var library: FT_Library?
        let status = FT_Init_FreeType(&library)
        guard status == 0, let library else { throw FreeTypeFont.LoadError(description: "FreeType does not start (error \(status))") }
        handle = library
    }

    deinit { FT_Done_FreeType(handle) }

    func withLock<T>(_ body: (FT_Library) -> T) -> T {
        lock.withLock { body(handle) }
    }
}
