import Foundation
import JSON

/// One statement about how a model and the contract (or the responses) agree.
public struct ModelFinding: Sendable, Equatable, CustomStringConvertible {
    /// What the finding is about.
    public enum Kind: String, Sendable {
        /// The model requires a key the contract allows to be absent (a crash waiting to happen).
        case requiredButOptional = "required-but-optional"
        /// The model requires a non-null value where the contract allows null.
        case requiredButNullable = "required-but-nullable"
        /// The model decodes a JSON type the contract does not guarantee.
        case typeMismatch = "type-mismatch"
        /// The contract (or a response) has a key the model never reads — information.
        case ignoredKey = "ignored-key"
        /// The model reads a key that no response carried and the contract does not declare.
        case deadField = "dead-field"
        /// Declared by the contract but never seen in a response of this run — information.
        case neverObserved = "never-observed"
    }

    /// How much it counts: errors fail the run, known gaps are accepted, the rest informs.
    public enum Severity: String, Sendable, Comparable {
        case error, knownGap = "known-gap", warning, info
        public static func < (a: Severity, b: Severity) -> Bool {
            let order: [Severity] = [.error, .knownGap, .warning, .info]
            return order.firstIndex(of: a)! < order.firstIndex(of: b)!
        }
    }

    public var model: String
    /// Response location pattern (`/paths/*/points`).
    public var path: String
    /// `VMRoutePath.points: String`, or the key for ignored keys.
    public var field: String
    public var kind: Kind
    public var severity: Severity
    public var message: String
    /// The gap that made an error a known gap (`GapRule.id`).
    public var gap: String? = nil

    public var description: String {
        "\(model) \(path.isEmpty ? "/" : path): [\(severity.rawValue)] \(message)"
    }
}

/// Static agreement: a model's recorded shape against the contract schemas of an endpoint's
/// successful answers.
struct StaticAgreement {
    let walker: SchemaWalker

    func compare(model: String, shape: ModelShape, references: [String]) -> [ModelFinding] {
        var findings: [ModelFinding] = []
        let roots = references.compactMap { walker.location(reference: $0) }
        var branches: [SchemaWalker.Branch] = []
        for root in roots { branches += walker.expand([root]) }
        compare(model: model, shape: shape, branches: branches, path: "", owner: model, into: &findings)
        return findings
    }

    private func allowed(_ branches: [SchemaWalker.Branch]) -> Set<JSONType>? {
        var result = Set<JSONType>()
        for branch in branches {
            guard let types = walker.types(branch) else { return nil }
            result.formUnion(types)
        }
        return result
    }

    private func possible(_ branches: [SchemaWalker.Branch], _ type: JSONType) -> [SchemaWalker.Branch] {
        branches.filter { walker.types($0).map { $0.contains(type) } ?? true }
    }

    private func compare(model: String, shape: ModelShape, branches: [SchemaWalker.Branch], path: String, owner: String,
                         into findings: inout [ModelFinding]) {
        if let (type, fields) = shape.objectFields {
            let objects = possible(branches, .object)
            guard !objects.isEmpty else { return }
            var read = Set<String>()
            for field in fields {
                read.insert(field.key)
                let fieldPath = ContractPointer.appending(path, field.key)
                let label = "\(type).\(field.property): \(field.swiftType)"
                var values: [SchemaWalker.Branch] = []
                var mayBeAbsent = false
                var declared = false
                for branch in objects {
                    if !walker.required(branch).contains(field.key) { mayBeAbsent = true }
                    switch walker.property(field.key, in: branch) {
                    case .forbidden: continue
                    case .unconstrained: values.append([])
                    case .constrained(let locations):
                        declared = true
                        values += walker.expand(locations)
                    }
                }
                values = values.filter { walker.types($0)?.isEmpty != true }
                guard declared else {
                    findings.append(ModelFinding(model: model, path: fieldPath, field: label, kind: .deadField, severity: .warning,
                                                 message: "\(label) reads \"\(field.key)\", which the contract does not declare"))
                    continue
                }
                if field.required && mayBeAbsent {
                    findings.append(ModelFinding(model: model, path: fieldPath, field: label, kind: .requiredButOptional, severity: .error,
                                                 message: "\(label) is required, but the contract allows \"\(field.key)\" to be absent"))
                }
                let types = allowed(values)
                if !field.acceptsNull, types?.contains(.null) ?? true {
                    findings.append(ModelFinding(model: model, path: fieldPath, field: label, kind: .requiredButNullable, severity: .error,
                                                 message: "\(label) is not optional, but the contract allows null"))
                }
                var nonNull = types ?? Set(JSONType.allCases)
                nonNull.remove(.null)
                let extra = nonNull.subtracting(field.shape.acceptedTypes)
                if !extra.isEmpty {
                    let accepted = field.shape.acceptedTypes.subtracting([.integer]).isEmpty ? field.shape.acceptedTypes : field.shape.acceptedTypes.subtracting([.integer])
                    let condition = conditionHint(values: values, extra: extra)
                    findings.append(ModelFinding(
                        model: model, path: fieldPath, field: label, kind: .typeMismatch, severity: .error,
                        message: "\(label) decodes \(accepted.sorted().map(\.rawValue).joined(separator: "|")), but the contract also allows \(extra.sorted().map(\.rawValue).joined(separator: "|"))\(condition)"))
                }
                compare(model: model, shape: field.shape, branches: values, path: fieldPath, owner: type, into: &findings)
            }
            var ignored: [String] = []
            for branch in objects { for key in walker.declaredKeys(branch) where !read.contains(key) && !ignored.contains(key) { ignored.append(key) } }
            for key in ignored {
                findings.append(ModelFinding(model: model, path: ContractPointer.appending(path, key), field: key, kind: .ignoredKey, severity: .info,
                                             message: "the contract has \"\(key)\"; \(type) does not read it"))
            }
        } else if let element = shape.arrayElement {
            var elements: [SchemaWalker.Branch] = []
            for branch in possible(branches, .array) {
                guard let locations = walker.elements(in: branch) else { continue }
                elements += walker.expand(locations)
            }
            compare(model: model, shape: element, branches: elements.filter { walker.types($0)?.isEmpty != true },
                    path: path + "/*", owner: owner, into: &findings)
        }
    }

    /// " (when points_encoded is false)" when the extra type comes from an if/then/else arm.
    private func conditionHint(values: [SchemaWalker.Branch], extra: Set<JSONType>) -> String {
        for branch in values where !(walker.types(branch) ?? []).isDisjoint(with: extra) {
            for location in branch {
                let tokens = ContractPointer.tokens(location.pointer) ?? []
                guard let arm = tokens.lastIndex(where: { $0 == "then" || $0 == "else" }) else { continue }
                let parent = SchemaLocation(document: location.document, pointer: ContractPointer.string(Array(tokens[..<arm])))
                guard let condition = walker.node(parent)?["if"]?["properties"]?.objectValue, let (key, rule) = condition.members.first,
                      let value = rule["const"] else { continue }
                let isThen = tokens[arm] == "then"
                return " (when \(key) is \(isThen ? "" : "not ")\(JSONSerializer.string(value)))"
            }
        }
        return ""
    }
}

/// Everything known about one model's agreement in a run: the static comparison with the
/// contract plus what the responses showed.
public struct ModelAgreementReport: Sendable {
    public var model: String
    package var shape: ModelShape
    /// Static and runtime findings, errors first.
    public var findings: [ModelFinding]
    /// Responses walked.
    public var responses: Int
    /// One of the reference client's models (else the app's).
    public var isReference: Bool = false

    public var errors: [ModelFinding] { findings.filter { $0.severity == .error } }
    public var knownGaps: [ModelFinding] { findings.filter { $0.severity == .knownGap } }
}

/// Collects per-model runtime observations (which keys responses carry, which the model asks for).
final class AgreementAccumulator: @unchecked Sendable {
    // @unchecked: all state under `lock`.
    private let lock = NSLock()
    private var recorders: [String: ModelRecorder] = [:]
    private var present: [String: [String: Set<String>]] = [:]
    private var requested: [String: [String: Set<String>]] = [:]
    private var counts: [String: Int] = [:]
    private var endpoints: [String: Set<String>] = [:]

    func recorder(for model: ContractModel) -> ModelRecorder {
        lock.withLock {
            if let recorder = recorders[model.name] { return recorder }
            let recorder = ModelRecorder(model)
            recorders[model.name] = recorder
            return recorder
        }
    }

    func add(_ recording: ModelRecording, model: String, endpoint: String) {
        lock.withLock {
            counts[model, default: 0] += 1
            endpoints[model, default: []].insert(endpoint)
            for (pointer, keys) in recording.objects {
                let pattern = ContractPointer.pattern(pointer)
                present[model, default: [:]][pattern, default: []].formUnion(keys.present)
                requested[model, default: [:]][pattern, default: []].formUnion(keys.requested)
            }
        }
    }

    var models: [String] { lock.withLock { recorders.keys.sorted() } }

    /// The endpoints (`/api/route/v4`) whose answers `model` decoded.
    func endpoints(of model: String) -> Set<String> { lock.withLock { endpoints[model] ?? [] } }

    /// The report of `model`: static findings against `references` plus runtime information.
    func report(model name: String, references: [String], walker: SchemaWalker, gaps: [GapRule]) -> ModelAgreementReport? {
        guard let recorder = lock.withLock({ recorders[name] }) else { return nil }
        let shape = recorder.shape
        var findings = StaticAgreement(walker: walker).compare(model: name, shape: shape, references: references)
        let (present, requested, count) = lock.withLock { (self.present[name] ?? [:], self.requested[name] ?? [:], counts[name] ?? 0) }
        // Dead fields: not declared, and no response carried them. Declared but never seen: information.
        findings = findings.compactMap { finding in
            let parent = String(finding.path[..<(finding.path.lastIndex(of: "/") ?? finding.path.startIndex)])
            let key = ContractPointer.tokens(finding.path)?.last ?? ""
            let seen = present[parent]?.contains(key) ?? false
            if finding.kind == .deadField {
                guard !seen else { return nil }
                var f = finding
                f.message += count > 0 ? " and no response of this run carried it" : ""
                return f
            }
            return finding
        }
        if count > 0 {
            findings += neverObserved(shape: shape, path: "", present: present, model: name, findings: findings)
            for (pattern, keys) in present.sorted(by: { $0.key < $1.key }) {
                let ignored = keys.subtracting(requested[pattern] ?? [])
                for key in ignored.sorted() {
                    let path = ContractPointer.appending(pattern, key)
                    guard !findings.contains(where: { $0.kind == .ignoredKey && $0.path == path }) else { continue }
                    findings.append(ModelFinding(model: name, path: path, field: key, kind: .ignoredKey, severity: .info,
                                                 message: "responses carry \"\(key)\"; the model does not read it"))
                }
            }
        }
        findings = findings.map { finding in
            var f = finding
            if f.severity == .error, let gap = gaps.first(where: { $0.covers(model: recorder.model, pointer: f.path, field: f.field) }) {
                f.severity = .knownGap
                f.gap = gap.id
                f.message += " — \(gap.declaredBy)\(gap.reason.isEmpty ? "" : ": " + gap.reason)"
            }
            return f
        }
        findings.sort { ($0.severity, $0.path) < ($1.severity, $1.path) }
        return ModelAgreementReport(model: name, shape: shape, findings: findings, responses: count, isReference: recorder.model.isReference)
    }

    private func neverObserved(shape: ModelShape, path: String, present: [String: Set<String>], model: String,
                               findings: [ModelFinding]) -> [ModelFinding] {
        var out: [ModelFinding] = []
        if let (type, fields) = shape.objectFields {
            guard let keys = present[path] else {
                // No response had an object here (e.g. entry_points is always []).
                let parent = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
                guard !path.isEmpty, present[parent] != nil || path.hasSuffix("/*") else { return [] }
                return [ModelFinding(model: model, path: path, field: type, kind: .neverObserved, severity: .info,
                                     message: "no response of this run had a \(type) here, so its \(fields.count) fields were never exercised")]
            }
            for field in fields {
                let fieldPath = ContractPointer.appending(path, field.key)
                if !keys.contains(field.key), !findings.contains(where: { $0.path == fieldPath && $0.kind == .deadField }) {
                    out.append(ModelFinding(model: model, path: fieldPath, field: "\(type).\(field.property): \(field.swiftType)",
                                            kind: .neverObserved, severity: .info,
                                            message: "\(type).\(field.property): no response of this run carried \"\(field.key)\""))
                }
                out += neverObserved(shape: field.shape, path: fieldPath, present: present, model: model, findings: findings)
            }
        } else if let element = shape.arrayElement {
            out += neverObserved(shape: element, path: path + "/*", present: present, model: model, findings: findings)
        }
        return out
    }
}
