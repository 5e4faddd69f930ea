import Foundation

/// Checks an `--out` path before any work starts, so that a long import or conversion does not
/// end in "cannot write": the path must not be a directory, and its folder must be writable (the
/// result is written to a temporary file there and renamed). Missing folders are created, with
/// one line on stderr (`--out Scenarios/x.json` works in a folder without `Scenarios/`); when
/// they cannot be, the line names the first part of the path that is in the way.
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
        if stat(folder, &status) != 0 {
            try create(folder, for: path, option: option)
            guard stat(folder, &status) == 0 else { throw CLIError("\(option) \(path): the folder \(folder) does not exist") }
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw CLIError("\(option) \(path): \(folder) is not a folder")
        }
        guard access(folder, W_OK | X_OK) == 0 else {
            throw CLIError("\(option) \(path): the folder \(folder) is not writable (\(String(cString: strerror(errno))))")
        }
    }

    /// Creates `folder` and its missing parents, or throws naming the ancestor in the way.
    private static func create(_ folder: String, for path: String, option: String) throws(CLIError) {
        var existing = URL(fileURLWithPath: folder)
        var status = stat()
        while existing.path != "/" && stat(existing.path, &status) != 0 { existing.deleteLastPathComponent() }
        if stat(existing.path, &status) != 0 { status = stat() }  // the loop ended at "/": its own status, not the last miss's
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw CLIError("\(option) \(path): cannot create the folder \(folder): \(existing.path) is not a folder")
        }
        guard access(existing.path, W_OK | X_OK) == 0 else {
            throw CLIError("\(option) \(path): cannot create the folder \(folder): \(existing.path) is not writable (\(String(cString: strerror(errno))))")
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw CLIError("\(option) \(path): cannot create the folder \(folder): \(error.localizedDescription)")
        }
        FileHandle.standardError.write(Data("vietmap-sim: created the folder \(folder) for \(option)\n".utf8))
    }
}
