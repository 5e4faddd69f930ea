import Foundation
import JSON
import Platform
import Polyline

/// Runs the app's code for one contract run where its `AppCodeIsolation` says — in contract
/// workers or in this process — and counts the calls and their time for the report.
package final class AppCodeRunner: @unchecked Sendable {
    // @unchecked: immutable but for the pool and statistics, which are thread-safe.
    /// `worker` or `inProcess` (resolved).
    package let isolation: AppCodeIsolation
    let statistics = CallStatistics()
    private let pool: AppCodeWorkerPool?
    /// The contract came with its `AppContractProvider`: its closures are found in a worker.
    private let hasProvider: Bool

    /// - Parameter provider: the mangled name of the contract's `AppContractProvider` type.
    init(isolation: AppCodeIsolation, provider: String?) {
        _ = contractWorkerHookLinked
        self.isolation = isolation.resolved()
        hasProvider = provider?.isEmpty == false
        if self.isolation == .worker {
            Signals.ignoreBrokenPipes()
            pool = AppCodeWorkerPool(provider: provider ?? "")
        } else {
            pool = nil
        }
    }

    /// Ends the run's workers.
    func shutDown() { pool?.shutDown() }

    /// How the report names where the app's code ran.
    package var description: String {
        switch isolation {
        case .worker:
            let started = pool?.started ?? 0
            return "in contract workers (\(started) started)"
        default:
            return "in-process, not isolated (a crash cannot be observed)"
        }
    }

    /// Whether a call of this model runs in a worker: the worker finds it through the contract's
    /// provider or, with the default decoding, by its type's mangled name (not for a `private` or
    /// function-local type, which the runtime cannot look up by name: those run in-process).
    private func isolates(_ model: ContractModel) -> Bool {
        pool != nil && !model.isReference
            && (hasProvider || (!model.hasDecodeClosure && !model.mangledTypeName.isEmpty && _typeByName(model.mangledTypeName) != nil))
    }

    /// The app's decoding of `data` (reference models always in-process: they cannot trap).
    func decode(_ model: ContractModel, _ data: Data, timeout: TimeInterval) -> DecodeVerdict {
        if model.isReference { return model.decodeHere(data) }
        let started = DispatchTime.now().uptimeNanoseconds
        defer { statistics.add(nanoseconds: DispatchTime.now().uptimeNanoseconds - started) }
        guard let pool, isolates(model) else { return model.decodeHere(data) }
        switch pool.call(kind: WorkerFrame.decode, name: model.name, type: model.mangledTypeName, input: data, timeout: timeout) {
        case .returned(let answer): return DecodeVerdict(encoded: answer)
        case .crashed(let signal, let message): return .crashed(signal: signal, message: message)
        case .hung(let seconds): return .hung(seconds: seconds)
        case .failed(let reason): return .failed(reason)
        case .refused: return model.decodeHere(data)    // not in the provider's contract: as without one
        }
    }

    /// Where the model's decoding of `json` trapped: its `init(from:)` run again in a worker under
    /// a tracing decoder; the last location read. Nil in-process or when it does not trap there.
    func crashLocation(_ model: ContractModel, _ json: JSONValue, timeout: TimeInterval) -> String? {
        guard let pool, isolates(model) else { return nil }
        let started = DispatchTime.now().uptimeNanoseconds
        defer { statistics.add(nanoseconds: DispatchTime.now().uptimeNanoseconds - started) }
        let lines = LockedLines()
        let outcome = pool.call(kind: WorkerFrame.traced, name: model.name, type: model.mangledTypeName,
                                input: Data(JSONSerializer.bytes(json)), timeout: timeout) { lines.last = $0 }
        guard case .crashed = outcome else { return nil }
        return lines.last
    }

    /// The app's polyline decoder on `encoded`. In-process (or without the contract's provider),
    /// only a polyline the strict decoder reads is given to it: a trap would end the tests.
    func polyline(_ decoder: AppPolylineDecoder, _ encoded: String, timeout: TimeInterval) -> AppPolylineDecoder.Outcome {
        let started = DispatchTime.now().uptimeNanoseconds
        defer { statistics.add(nanoseconds: DispatchTime.now().uptimeNanoseconds - started) }
        guard let pool, hasProvider else {
            guard (try? Polyline.decode(encoded, precision: 5)) != nil else {
                return .notRun(pool == nil ? "the strict decoder rejects it, and in-process a trap would end the tests"
                                           : "the strict decoder rejects it, and the contract was given as a value (no AppContractProvider), so the decoder cannot run in a worker")
            }
            return .points(AppPolylineDecoder.pairs(decoder.flatPoints(encoded)))
        }
        switch pool.call(kind: WorkerFrame.polyline, name: decoder.name, type: "", input: Data(encoded.utf8), timeout: timeout) {
        case .returned(let data):
            var values = [Double](repeating: 0, count: data.count / MemoryLayout<Double>.size)
            _ = values.withUnsafeMutableBytes { data.copyBytes(to: $0) }
            return .points(AppPolylineDecoder.pairs(values))
        case .crashed(let signal, let message): return .crashed(signal: signal, message: message)
        case .hung(let seconds): return .hung(seconds: seconds)
        case .failed(let reason), .refused(let reason): return .failed(reason)
        }
    }

    /// The last trace line, written from the pool's reading thread.
    private final class LockedLines: @unchecked Sendable {
        private let lock = NSLock()
        private var value: String?
        var last: String? {
            get { lock.withLock { value } }
            set { lock.withLock { value = newValue } }
        }
    }
}

/// Counts calls of the app's code and their total time (thread-safe).
package final class CallStatistics: @unchecked Sendable {
    // @unchecked: state under `lock`.
    private let lock = NSLock()
    private var calls = 0
    private var nanoseconds: UInt64 = 0

    func add(nanoseconds elapsed: UInt64) {
        lock.withLock {
            calls += 1
            nanoseconds += elapsed
        }
    }

    package init() {}

    /// Calls so far and their total wall-clock time in seconds.
    package var snapshot: (calls: Int, seconds: Double) { lock.withLock { (calls, Double(nanoseconds) / 1e9) } }
}
