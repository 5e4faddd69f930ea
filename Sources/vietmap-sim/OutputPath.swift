import Foundation

/// Checks an `--out` path before any work starts, so that a long import or conversion does not
/// end in "cannot write": the path must not be a directory, and its folder must exist and be
/// writable (the result is written to a temporary file there and renamed).
enum OutputPath {
    /// Throws a one-line `CLIError` naming the path and the problem.
    static func check(_ path: String, option: String = "--out") throws(CLIError) {
        guard !path.isEmpty else { throw CLIError("\(option) needs a file path") }
        var status = stat()
        if stat(path, &status) == 0 {
            if status.st_mode & S_IFMT == S_IFDIR {
                throw CLIError("\(option) \(path) is a directory; give the path of a file to write")
            }
            guard status.st_mode & S_IFMT == S_IFREG else {
                throw CLIError("\(option) \(path) exists and is not a regular file")
            }
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard stat(folder, &status) == 0 else {
            throw CLIError("\(option) \(path): the folder \(folder) does not exist")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw CLIError("\(option) \(path): \(folder) is not a folder")
        }
        guard access(folder, W_OK | X_OK) == 0 else {
            throw CLIError("\(option) \(path): the folder \(folder) is not writable (\(String(cString: strerror(errno))))")
        }
    }
}
