import Foundation
import Platform

/// A note, beside a cached dataset (`<file>.verified`), that the file was found intact by its
/// whole-file checksum (``DatasetIntegrity``), and what `stat(2)` said of it then: device, inode,
/// size, modification and status-change times to the nanosecond, and the recorded checksum.
/// As git's index trusts stat data, a later start skips the checksum while all of those are
/// unchanged; any write to the file moves its status-change time (which no user call sets back),
/// a replaced file has another inode, so a changed file is checksummed in full again.
///
/// Racy writes (git's "racily clean" entries): a file whose status-change time is not strictly
/// before the note's own is not trusted — a write in the same clock tick as the verification
/// would not move it. The note is written only when the file's status was the same before and
/// after the checksum was computed.
///
/// What it cannot catch: bytes changed without the kernel knowing (a failing disk, writes to the
/// block device, a file system restored with its times), and a write landing between the check's
/// last `stat` and the note's writing within the same tick as the file's previous change.
enum DatasetVerificationRecord {
    /// The note's path for the dataset at `path`.
    static func path(for datasetPath: String) -> String { datasetPath + suffix }

    static let suffix = ".verified"
    private static let version = "vietmap-sim verified 1"

    /// Whether a note vouches for the file at `path` as it is now, sealed with `checksum`.
    static func vouches(for datasetPath: String, status: FileStatus, checksum: UInt32) -> Bool {
        let notePath = path(for: datasetPath)
        guard let note = FileStatus(path: notePath), status.changedNanoseconds < note.changedNanoseconds,
              let text = try? String(contentsOfFile: notePath, encoding: .utf8) else { return false }
        return text == line(status: status, checksum: checksum)
    }

    /// Writes the note for the file at `path` (best effort: an unwritable folder only costs the
    /// next start a checksum). Written to a temporary file renamed into place.
    static func record(for datasetPath: String, status: FileStatus, checksum: UInt32) {
        let notePath = path(for: datasetPath)
        let url = URL(fileURLWithPath: notePath)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
        guard (try? Data(line(status: status, checksum: checksum).utf8).write(to: URL(fileURLWithPath: temporary))) != nil else { return }
        if rename(temporary, notePath) != 0 { unlink(temporary) }
    }

    /// Removes the note of the file at `path` (when the file is found damaged or is rebuilt).
    static func remove(for datasetPath: String) {
        unlink(path(for: datasetPath))
    }

    private static func line(status: FileStatus, checksum: UInt32) -> String {
        "\(version) device \(status.device) inode \(status.inode) size \(status.size) modified \(status.modifiedNanoseconds) "
            + "changed \(status.changedNanoseconds) checksum \(checksum)\n"
    }
}
