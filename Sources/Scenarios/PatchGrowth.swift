import JSON

/// A worst-case bound on what a JSON Patch can make of an answer of n bytes: at most
/// `factor × n + added` bytes. `validate` refuses patches whose factor passes
/// `ScenarioLimits.patchGrowthFactor` (16 chained copies would multiply an answer 65,536-fold).
///
/// Per operation: a `copy` at most doubles the document (a wildcard `copy` is counted as
/// tripling it: later copies can see earlier ones); an `add`/`replace` of a value of s bytes
/// adds s, or with a wildcard s per target, and the targets are disjoint subtrees of at least
/// k bytes each (k from the last token: a member name's length + 5, otherwise 2–3), so at most
/// n / k of them; `move` adds at most the length of its path; `remove`, `test`, `x-reverse` add nothing.
struct PatchGrowth: Sendable, Equatable {
    var factor = 1.0
    var added = 0.0
    /// How many operations multiply the size (for the message).
    var multiplying = 0

    init(_ patch: JSONPatch) {
        for operation in patch.operations { include(operation) }
    }

    private mutating func include(_ operation: JSONPatch.Operation) {
        switch operation {
        case .copy(let from, _):
            let times = from.tokens.contains(JSONPatch.wildcard) ? 3.0 : 2.0
            factor *= times
            added *= times
            multiplying += 1
        case .add(let path, let value), .replace(let path, let value):
            let size = Double(JSONSizeEstimate.bytes(of: value, limit: ScenarioLimits.literalBodyBytes * 2))
            if path.tokens.contains(JSONPatch.wildcard) {
                let perTarget = 1 + size / Double(Self.minimumTargetBytes(operation))
                factor *= perTarget
                added *= perTarget
                multiplying += 1
            } else {
                added += size
            }
        case .move(let from, let path):
            if from.tokens.contains(JSONPatch.wildcard) {
                // Each target is a renamed source: it grows by the difference of the names.
                let old = from.tokens.last?.utf8.count ?? 0
                let new = path.tokens.last?.utf8.count ?? 0
                factor *= 1 + Double(max(0, new - old)) / Double(old + 5)
            } else {
                added += Double(path.description.utf8.count)
            }
        case .remove, .test, .reverse:
            break
        }
    }

    /// The fewest answer bytes one target of a wildcard `add`/`replace` occupies.
    private static func minimumTargetBytes(_ operation: JSONPatch.Operation) -> Int {
        let last = operation.path.tokens.last ?? ""
        let isMember = JSONPointer.arrayIndex(last) == nil && last != "-"
        if case .replace = operation {
            // `"k":v,` for a member, `v,` for an element.
            return isMember ? last.utf8.count + 5 : 2
        }
        // `{},` or `[],`: the container the value goes into.
        return 3
    }

    /// The largest answer this patch can produce from one of `inputBytes` bytes.
    func worstCase(inputBytes: Int) -> Double {
        factor * Double(inputBytes) + added
    }
}
