import ContractKit

/// "Did you mean" for a mistyped command or option: the closest known name within two edits
/// (`--prot` → `--port`, `serv` → `serve`), or one the typed text is a prefix of.
enum Suggestion {
    /// The best candidate for `typed`, nil when none is close.
    static func nearest(to typed: String, in candidates: some Sequence<String>) -> String? {
        let typed = typed.lowercased()
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = candidate.hasPrefix(typed) && typed.count >= 3 ? 1 : ContractKit.editDistance(typed, candidate.lowercased())
            guard distance <= min(2, max(1, (candidate.count + 1) / 2)) else { continue }
            if best == nil || distance < best!.distance || (distance == best!.distance && candidate < best!.name) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// "; did you mean 'X'?" or "".
    static func hint(for typed: String, in candidates: some Sequence<String>, prefix: String = "") -> String {
        nearest(to: typed, in: candidates).map { "; did you mean '\(prefix)\($0)'?" } ?? ""
    }
}
