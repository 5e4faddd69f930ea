import Foundation
import JSON
import VietMapClient

/// A `Decodable` type the suite decodes responses with — the reference client's models, or an
/// app's own.
public struct ContractModel: Sendable {
    /// `VMRouteResponse`, `[VMSearchItem]`.
    public let name: String
    private let box: Box

    /// The type-erased operations. `@unchecked Sendable`: it only holds a metatype (immutable,
    /// shareable) inside closures that capture nothing else.
    private final class Box: @unchecked Sendable {
        let jsonDecode: (Data) -> Error?
        let record: (RecordingDecoder) throws -> Void
        init(jsonDecode: @escaping (Data) -> Error?, record: @escaping (RecordingDecoder) throws -> Void) {
            self.jsonDecode = jsonDecode
            self.record = record
        }
    }

    public init<T: Decodable>(_ type: T.Type, name: String? = nil) {
        self.name = Self.canonical(name ?? prettyTypeName(String(describing: T.self)))
        box = Box(
            jsonDecode: { data in
                do {
                    _ = try JSONDecoder().decode(T.self, from: data)
                    return nil
                } catch {
                    return error
                }
            },
            record: { decoder in _ = try decoder.decode(T.self) })
    }

    func jsonDecode(_ data: Data) -> Error? { box.jsonDecode(data) }
    func record(_ decoder: RecordingDecoder) throws { try box.record(decoder) }

    /// `VMSearchItem[]` (the corpus spelling) and `[VMSearchItem]` (Swift's) are the same model.
    public static func canonical(_ name: String) -> String {
        var name = name.trimmingCharacters(in: .whitespaces)
        while name.hasSuffix("[]") { name = "[" + name.dropLast(2) + "]" }
        return name
    }

    /// The reference client's models by corpus name.
    public static let reference: [String: ContractModel] = [
        "VMSearchItem[]": ContractModel([VMSearchItem].self),
        "VMPlaceDetail": ContractModel(VMPlaceDetail.self),
        "VMRouteResponse": ContractModel(VMRouteResponse.self),
    ]

    /// The reference model an endpoint's successful answers are decoded with.
    public static func reference(for endpoint: VMEndpoint) -> ContractModel {
        switch endpoint {
        case .autocomplete: return reference["VMSearchItem[]"]!
        case .place: return reference["VMPlaceDetail"]!
        case .route: return reference["VMRouteResponse"]!
        }
    }
}

/// What one response looked like to a model.
public struct ModelRecording: Sendable {
    /// Every field that disagrees with the response (not just the first).
    public var issues: [ModelIssue]
    /// Objects the model opened: response location → keys present and keys the model asked for.
    public var objects: [String: (present: Set<String>, requested: Set<String>)]
    /// `JSONDecoder`'s verdict: nil when the model decodes the response.
    public var decoderError: String?
    /// Where `JSONDecoder` gave up.
    public var decoderErrorPointer: String?
    public var decodes: Bool { decoderError == nil }
}

/// Records what a model reads: once without any response (the probe: every key present, every
/// array one element long) and then over each response it is given; all passes add to one shape.
public final class ModelRecorder: @unchecked Sendable {
    // @unchecked: every access to `root` is under `lock`.
    public let model: ContractModel
    private let lock = NSLock()
    private let root = ShapeNode()

    public init(_ model: ContractModel) {
        self.model = model
        let session = RecordingSession()
        let decoder = RecordingDecoder(session: session, value: nil, pointer: "", node: root, codingPath: [], depth: 0, label: model.name)
        lock.withLock { _ = try? model.record(decoder) }
    }

    public convenience init<T: Decodable>(_ type: T.Type) { self.init(ContractModel(type)) }

    /// Everything the model has been seen to read.
    public var shape: ModelShape { lock.withLock { root.shape() } }

    /// Decodes `json` with the recording decoder (every field checked) and with `JSONDecoder`
    /// (the verdict an app gets).
    public func walk(_ json: JSONValue, data: Data? = nil) -> ModelRecording {
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
        let error = model.jsonDecode(data ?? Data(JSONSerializer.bytes(json)))
        return ModelRecording(issues: session.issues, objects: session.objects,
                              decoderError: error.map(describeDecodingError), decoderErrorPointer: error.flatMap(decodingErrorPointer))
    }
}
