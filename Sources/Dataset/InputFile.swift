import Foundation

/// Whether a path given as an input (an import file, `serve --db`) is a regular file, checked
/// with `stat` before it is opened: opening a FIFO blocks until something writes to it, and a
/// device like `/dev/zero` never ends.
public enum InputFile {
    /// nil for a regular file (or a symbolic link to one); else the problem, e.g.
    /// `not a regular file (a named pipe (FIFO))` or `no such file`.
    public static func problem(atPath path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else {
            return errno == ENOENT ? "no such file" : "cannot read: \(String(cString: strerror(errno)))"
        }
        let kind: String
        switch status.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: kind = "a directory"
        case S_IFIFO: kind = "a named pipe (FIFO)"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        case S_IFSOCK: kind = "a socket"
        default: kind = "not a file"
        }
        return "not a regular file (\(kind))"
    }
}
