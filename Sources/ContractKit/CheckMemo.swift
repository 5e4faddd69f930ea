import Foundation

/// The checks of answers already checked in the scenario runs of one suite, by everything they
/// depend on: query, status, headers, body, request parameters and the gaps in force. Most
/// scenarios leave most answers as they are, so the same answer of the same query is checked
/// (schemas, models, the app's code in its worker) once, not once per scenario. The checks are
/// a function of these inputs; only the model-agreement tally (`AgreementAccumulator`) sees a
/// remembered answer once, which is why the contract run itself does not use a memo.
final class CheckMemo: @unchecked Sendable {
    // @unchecked: `checks` under `lock`.
    struct Key: Hashable {
        var query: String
        var status: Int
        var headers: [String: String]?
        var body: Data
        var parameters: [String]
        var gaps: [String]
    }

    private let lock = NSLock()
    private var checks: [Key: ContractSuite.Checked] = [:]

    /// The remembered checks of `key`, else `check()`'s, remembered.
    func checked(_ key: Key, _ check: () -> ContractSuite.Checked) -> ContractSuite.Checked {
        if let known = lock.withLock({ checks[key] }) { return known }
        let checked = check()
        lock.withLock { checks[key] = checked }
        return checked
    }
}
