import ContractWorkerHook
import Foundation
import JSON
import Platform

/// The worker side of `AppCodeIsolation.worker`: a copy of the test process that the
/// `ContractWorkerHook` constructor diverts here before any test runs. It finds the app's code
/// through the provider type named in its environment (`AppContractProvider`, by mangled name)
/// or, for a model with the default decoding, through the model's type alone; then it answers
/// calls until its test process closes the request pipe. A trap in the app's code ends it with
/// `_exit(128 + signal)` (no core file, no backtracer) after the runtime's "Fatal error" line.
enum ContractWorker {
    /// The mangled name of the `AppContractProvider` type (empty: none).
    static let providerVariable = "VIETMAP_CONTRACT_PROVIDER"

    static func serve() -> Never {
        ChildProcess.closeDescriptors(from: WorkerFrame.answerDescriptor + 1)
        ResourceLimits.disableCoreDumps()
        for sig in Signals.traps {
            signal(sig) { received in _exit(128 + received) }
        }
        guard fcntl(WorkerFrame.requestDescriptor, F_GETFD) != -1, fcntl(WorkerFrame.answerDescriptor, F_GETFD) != -1 else {
            let text = "a contract worker is started by ContractKit (VIETMAP_CONTRACT_WORKER is set but descriptors 3 and 4 are not open)\n"
            FileHandle.standardError.write(Data(text.utf8))
            _exit(64)
        }
        let provider = ProcessInfo.processInfo.environment[providerVariable].flatMap { name -> (any AppContractProvider.Type)? in
            name.isEmpty ? nil : _typeByName(name) as? any AppContractProvider.Type
        }
        let contract = provider?.contract
        while let (kind, body) = WorkerFrame.readFrame(from: WorkerFrame.requestDescriptor) {
            guard let fields = WorkerFrame.fields(of: body, count: 3) else { _exit(65) }
            let name = String(decoding: fields[0], as: UTF8.self), typeName = String(decoding: fields[1], as: UTF8.self)
            let answer: Data
            switch kind {
            case WorkerFrame.decode:
                guard let model = model(named: name, type: typeName, in: contract) else { answer = refusal(model: name); break }
                answer = WorkerFrame.encode(kind: WorkerFrame.result, fields: [model.decodeHere(fields[2]).encoded])
            case WorkerFrame.traced:
                guard let model = model(named: name, type: typeName, in: contract) else { answer = refusal(model: name); break }
                guard let json = try? JSONParser.parse(fields[2]) else { answer = WorkerFrame.encode(kind: WorkerFrame.result, fields: [Data()]); break }
                ModelRecorder.trace(model, json) { line in
                    WorkerFrame.writeAll(WorkerFrame.encode(kind: WorkerFrame.traceLine, fields: [Data(line.utf8)]), to: WorkerFrame.answerDescriptor)
                }
                answer = WorkerFrame.encode(kind: WorkerFrame.result, fields: [Data()])
            case WorkerFrame.polyline:
                guard let decoder = contract?.polyline, decoder.name == name else {
                    answer = WorkerFrame.encode(kind: WorkerFrame.refused, fields: [Data("no polyline decoder named \(name) in the worker's contract".utf8)])
                    break
                }
                let values = decoder.flatPoints(String(decoding: fields[2], as: UTF8.self))
                answer = WorkerFrame.encode(kind: WorkerFrame.result, fields: [values.withUnsafeBufferPointer { Data(buffer: $0) }])
            default:
                _exit(65)
            }
            guard WorkerFrame.writeAll(answer, to: WorkerFrame.answerDescriptor) else { _exit(0) }
        }
        _exit(0)
    }

    /// The contract's model of that name, else the type's default decoding.
    private static func model(named name: String, type typeName: String, in contract: AppContract?) -> ContractModel? {
        if let model = contract?.models.values.first(where: { $0.name == name && $0.external == nil }) { return model }
        guard !typeName.isEmpty, let type = _typeByName(typeName) as? any Decodable.Type else { return nil }
        return ContractModel.defaultDecoding(of: type, name: name)
    }

    private static func refusal(model name: String) -> Data {
        WorkerFrame.encode(kind: WorkerFrame.refused, fields: [Data("the worker knows no model \(name) (give the contract's type, an AppContractProvider)".utf8)])
    }
}

/// Called by the `ContractWorkerHook` constructor in a process started as a contract worker; not
/// for direct use.
@_cdecl("vmsim_contract_worker_main")
public func vmsimContractWorkerMain() {
    ContractWorker.serve()
}

/// Keeps the hook's object file (and so its constructor) in every image that links ContractKit.
let contractWorkerHookLinked = vmsim_contract_worker_hook_linked()
