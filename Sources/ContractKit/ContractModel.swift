import Foundation
import JSON
import Platform
import VietMapClient

/// A `Decodable` type the suite decodes responses with — the reference client's models, or an
/// app's own (`ContractModel.model(VMRouteResponse.self)`).
///
/// An app's model is told apart by type identity (its metatype), never by name: the app's
/// `VMRouteResponse` and the reference client's are different models, and the corpus' known
/// gaps apply only to the reference client's. An app's decoding (`JSONDecoder().decode`, or the
/// closure given) runs where the run's `AppCodeIsolation` says: in a contract worker, a trap in
/// it is a finding.
public struct ContractModel: Sendable {
    /// The full type name: `MyApp.VMRouteResponse`, `[MyApp.VMSearchItem]`; the reference
    /// client's models without their module (`VMRouteResponse`).
    public let name: String
    /// The name without modules, as the app's code spells it: `[VMSearchItem]`, `VMRouteResponse`.
    public var shortName: String { Self.withoutModules(name) }

    static func withoutModules(_ name: String) -> String {
        name.replacingOccurrences(of: #"\b[A-Za-z_][A-Za-z0-9_]*\."#, with: "", options: .regularExpression)
    }
    /// The metatype's identity.
    package let typeID: ObjectIdentifier
    /// One of the reference client's (`VietMapClient`) models.
    public var isReference: Bool { ContractModel.referenceTypeIDs.contains(typeID) }
    /// What the app's decoding is called in findings (`JSONDecoder().decode(MyApp.VMRouteResponse.self)`).
    package let decoderName: String
    private let box: Box
    /// A decoder in another language (`vietmap-sim contract --decoder`) instead of a Swift type.
    package let external: ExternalDecoder?

    /// The type-erased operations. `@unchecked Sendable`: it only holds a metatype (immutable,
    /// shareable) and the app's `@Sendable` decode closure.
    private final class Box: @unchecked Sendable {
        let decode: (Data) -> DecodeVerdict
        let record: (RecordingDecoder) throws -> Void
        init(decode: @escaping (Data) -> DecodeVerdict, record: @escaping (RecordingDecoder) throws -> Void) {
            self.decode = decode
            self.record = record
        }
    }
    /// The type's mangled name, by which a contract worker finds it (`_typeByName`).
    package let mangledTypeName: String
    /// Decoded by a closure of the app's (not `JSONDecoder().decode(T.self)`): a worker finds it
    /// only through the contract's `AppContractProvider`.
    package let hasDecodeClosure: Bool

    /// - Parameters:
    ///   - decode: the app's own decoding of a response body (its `JSONDecoder` settings, its
    ///     wrapper); default `JSONDecoder().decode(T.self, from:)`.
    ///   - decoderName: how findings name `decode`.
    public init<T: Decodable>(_ type: T.Type, name: String? = nil, decode: (@Sendable (Data) throws -> T)? = nil,
                              decoderName: String? = nil) {
        typeID = ObjectIdentifier(T.self)
        self.name = Self.canonical(name ?? prettyTypeName(String(reflecting: T.self)))
        let short = Self.withoutModules(self.name)
        self.decoderName = decoderName ?? (decode == nil ? "JSONDecoder().decode(\(short).self)" : "the decode closure of \(short)")
        mangledTypeName = _mangledTypeName(T.self) ?? ""
        hasDecodeClosure = decode != nil
        let decodeBody: (Data) throws -> Void
        if let decode {
            decodeBody = { data in _ = try decode(data) }
        } else {
            decodeBody = { data in _ = try JSONDecoder().decode(T.self, from: data) }
        }
        external = nil
        box = Box(decode: { data in DecodeVerdict(catching: { try decodeBody(data) }) },
                  record: { decoder in _ = try decoder.decode(T.self) })
    }

    /// `type` with the default decoding (a worker's model found by type alone).
    static func defaultDecoding(of type: any Decodable.Type, name: String) -> ContractModel {
        func make<T: Decodable>(_ type: T.Type) -> ContractModel { ContractModel(type, name: name) }
        return make(type)
    }

    /// An app's decoder in any language: a command run once per answer (`ExternalDecoder`).
    package init(external decoder: ExternalDecoder) {
        typeID = ObjectIdentifier(decoder.token)
        name = decoder.name
        decoderName = decoder.name
        external = decoder
        mangledTypeName = ""
        hasDecodeClosure = false
        box = Box(decode: { _ in .decoded }, record: { _ in })
    }

    /// `ContractModel.model([VMSearchItem].self)`: an app's model.
    public static func model<T: Decodable>(_ type: T.Type, decode: (@Sendable (Data) throws -> T)? = nil,
                                           decoderName: String? = nil) -> ContractModel {
        ContractModel(type, decode: decode, decoderName: decoderName)
    }

    /// Decodes `data` as the app would, in this process (`AppCodeRunner` decides where the app's
    /// models run).
    func decodeHere(_ data: Data) -> DecodeVerdict { box.decode(data) }
    func record(_ decoder: RecordingDecoder) throws { try box.record(decoder) }

    /// `VMSearchItem[]` (the corpus spelling) and `[VMSearchItem]` (Swift's) are the same model.
    package static func canonical(_ name: String) -> String {
        var name = name.trimmingCharacters(in: .whitespaces)
        while name.hasSuffix("[]") { name = "[" + name.dropLast(2) + "]" }
        return name
    }

    static let referenceTypeIDs: Set<ObjectIdentifier> = [
        ObjectIdentifier([VMSearchItem].self), ObjectIdentifier(VMPlaceDetail.self), ObjectIdentifier(VMRouteResponse.self),
        ObjectIdentifier([VMReverseItem].self), ObjectIdentifier(VMMatrixResponse.self), ObjectIdentifier(VMMigratedAddress.self),
    ]

    /// The reference client's models by corpus name.
    package static let reference: [String: ContractModel] = [
        "VMSearchItem[]": ContractModel([VMSearchItem].self),
        "VMPlaceDetail": ContractModel(VMPlaceDetail.self),
        "VMRouteResponse": ContractModel(VMRouteResponse.self),
        "VMReverseItem[]": ContractModel([VMReverseItem].self),
        "VMMatrixResponse": ContractModel(VMMatrixResponse.self),
        "VMMigratedAddress": ContractModel(VMMigratedAddress.self),
    ]

    /// The reference model an endpoint's successful answers are decoded with; nil for Directions v5
    /// (the reference client has no model of it: the navigation SDKs parse it) and the map
    /// resources (MapLibre parses them; `APIEndpoint.contractExclusion`).
    package static func reference(for endpoint: VMEndpoint) -> ContractModel? {
        switch endpoint.family {
        case .autocomplete, .search: return reference["VMSearchItem[]"]!
        case .place: return reference["VMPlaceDetail"]!
        case .route, .tsp: return reference["VMRouteResponse"]!
        case .reverse: return reference["VMReverseItem[]"]!
        case .matrix: return reference["VMMatrixResponse"]!
        case .migrateAddress: return reference["VMMigratedAddress"]!
        case .directions, .map: return nil
        }
    }
}

/// How a model's decoding of one body ended.
enum DecodeVerdict: Sendable, Equatable {
    case decoded
    /// It threw: the error in one line, and where (JSON pointer) when it is a `DecodingError`.
    case threw(message: String, pointer: String?)
    /// The app's code trapped (in its child process).
    case crashed(signal: Int32, message: String)
    case hung(seconds: Double)
    case failed(String)

    init(catching body: () throws -> Void) {
        do {
            try body()
            self = .decoded
        } catch {
            self = .threw(message: describeDecodingError(error), pointer: decodingErrorPointer(error))
        }
    }

    /// How a worker sends the verdict of a decode: `0`, or `1<pointer>\n<message>` when it threw.
    var encoded: Data {
        switch self {
        case .threw(let message, let pointer): return Data("1\(pointer ?? "\u{1}")\n\(message)".utf8)
        default: return Data("0".utf8)
        }
    }

    /// A worker's `encoded` verdict read back.
    init(encoded data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        guard text.hasPrefix("1") else { self = .decoded; return }
        let rest = text.dropFirst()
        let newline = rest.firstIndex(of: "\n") ?? rest.endIndex
        let pointer = String(rest[..<newline])
        let message = newline < rest.endIndex ? String(rest[rest.index(after: newline)...]) : ""
        self = .threw(message: message, pointer: pointer == "\u{1}" ? nil : pointer)
    }

    var error: String? {
        switch self {
        case .decoded: return nil
        case .threw(let message, _): return message
        case .crashed(let signal, let message): return "crashed (\(Signals.name(signal)))\(message.isEmpty ? "" : ": " + message)"
        case .hung(let seconds): return "did not return within \(Int(seconds)) s"
        case .failed(let reason): return reason
        }
    }
}

/// What one response looked like to a model.
package struct ModelRecording: Sendable {
    /// Every field that disagrees with the response (not just the first).
    package var issues: [ModelIssue]
    /// Objects the model opened: response location → keys present and keys the model asked for.
    package var objects: [String: (present: Set<String>, requested: Set<String>)]
    /// `JSONDecoder`'s verdict: nil when the model decodes the response.
    package var decoderError: String?
    /// Where `JSONDecoder` gave up.
    package var decoderErrorPointer: String?
    package var decodes: Bool { decoderError == nil }
}

/// Records what a model reads: once without any response (the probe: every key present, every
/// array one element long) and then over each response it is given; all passes add to one shape.
package final class ModelRecorder: @unchecked Sendable {
    // @unchecked: every access to `root` is under `lock`.
    package let model: ContractModel
    private let lock = NSLock()
    private let root = ShapeNode()

    package init(_ model: ContractModel) {
        self.model = model
        let session = RecordingSession()
        let decoder = RecordingDecoder(session: session, value: nil, pointer: "", node: root, codingPath: [], depth: 0, label: model.name)
        lock.withLock { _ = try? model.record(decoder) }
    }

    package convenience init<T: Decodable>(_ type: T.Type) { self.init(ContractModel(type)) }

    /// Everything the model has been seen to read.
    package var shape: ModelShape { lock.withLock { root.shape() } }

    /// Decodes `json` with the recording decoder (every field checked) and with `JSONDecoder`
    /// (the verdict an app gets; an app's model: its decoding, in a child process).
    package func walk(_ json: JSONValue, data: Data? = nil) -> ModelRecording {
        walk(json, data: data, verdict: nil)
    }

    /// Runs the model's `init(from:)` under a recording decoder that reports each location as it
    /// is read (`trace`): run in a worker, the last line before a crash says where it trapped.
    static func trace(_ model: ContractModel, _ json: JSONValue, _ trace: @escaping (String) -> Void) {
        let session = RecordingSession()
        session.trace = trace
        let decoder = RecordingDecoder(session: session, value: json, pointer: "", node: ShapeNode(), codingPath: [], depth: 0, label: model.name)
        _ = try? model.record(decoder)
        session.trace = nil
    }

    func walk(_ json: JSONValue, data: Data?, verdict: DecodeVerdict?) -> ModelRecording {
        let session = RecordingSession()
        lock.withLock {
            let decoder = RecordingDecoder(session: session, value: json, pointer: "", node: root, codingPath: [], depth: 0, label: model.name)
            do {
                try model.record(decoder)
            } catch {
                if let recorded = RecordingDecoder.recordedIssue(in: error) {
                    session.confirm(recorded.issue)
                } else {
                    session.confirm(ModelIssue(kind: .invalidValue, pointer: "", field: model.name,
                                               message: "\(model.name) could not be decoded: \(describeDecodingError(error))"))
                }
            }
        }
        let verdict = verdict ?? model.decodeHere(data ?? Data(JSONSerializer.bytes(json)))
        var pointer: String?
        if case .threw(_, let at) = verdict { pointer = at }
        return ModelRecording(issues: session.issues, objects: session.objects, decoderError: verdict.error, decoderErrorPointer: pointer)
    }
}
