import VietMapWire
import Foundation
import JSON

/// Decodes the action keys shared by rules and sequence steps: `respond`, `transform`, `patch`,
/// `delay`, `dribble`, `fault`, `quota` and `pass`.
enum ActionDecoder {
    static let keys = ["respond", "transform", "patch", "delay", "dribble", "fault", "quota", "pass"]
    /// The longest delay or dribble a file may ask for (10 minutes).
    static let maxMilliseconds = 600_000

    /// The action described by the action keys of `object` (the normal answer when there are none).
    static func decode(_ object: JSONObject, at path: JSONPointer, _ context: DecodingContext) -> ScenarioAction? {
        let before = context.issues.count
        var action = ScenarioAction()
        if let raw = object["pass"], let pass = context.bool(raw, at: path.appending("pass")) {
            if !pass {
                context.report(path.appending("pass"), "must be true (leave it out for a rule that acts)")
            }
            for key in keys where key != "pass" && object[key] != nil {
                context.report(path.appending(key), "'\(key)' cannot be combined with \"pass\": true")
            }
        }
        if let raw = object["respond"] { action.respond = decodeRespond(raw, at: path.appending("respond"), context) }
        if let raw = object["transform"] { action.transform = decodeTransform(raw, at: path.appending("transform"), context) }
        if let raw = object["patch"] { action.patch = decodePatch(raw, at: path.appending("patch"), context) }
        if let raw = object["delay"] { action.delay = decodeDelay(raw, at: path.appending("delay"), context) }
        if let raw = object["dribble"] { action.dribble = decodeDribble(raw, at: path.appending("dribble"), context) }
        if let raw = object["fault"] { action.faults = decodeFaults(raw, at: path.appending("fault"), context) }
        if let raw = object["quota"] { action.quota = decodeQuota(raw, at: path.appending("quota"), context) }

        if action.dribble != nil, action.faults.contains(where: { $0.endsConnection || $0.isTruncation }) {
            context.report(path.appending("dribble"), "cannot be combined with an empty reply, a reset or a truncation")
        }
        switch action.respond?.body {
        case .text?: if action.patch != nil { context.report(path.appending("patch"), "cannot patch a text body") }
        case .bytes?: if action.patch != nil { context.report(path.appending("patch"), "cannot patch a base64 body") }
        default: break
        }
        if action.transform != nil, case .text? = action.respond?.body {
            context.report(path.appending("transform"), "cannot transform a text body")
        }
        return context.issues.count == before ? action : nil
    }

    // MARK: respond

    private static func decodeRespond(_ value: JSONValue, at path: JSONPointer, _ context: DecodingContext) -> ResponseSpec? {
        guard let object = context.object(value, at: path, allowed: ["status", "headers", "json", "text", "base64", "error", "message"])
        else { return nil }
        let before = context.issues.count
        var spec = ResponseSpec()
        spec.status = object["status"].flatMap { context.integer($0, at: path.appending("status"), in: 200...599) }
        if let raw = object["headers"] {
            let headersPath = path.appending("headers")
            if case .object(let headers) = raw {
                for (name, headerValue) in headers {
                    let headerPath = headersPath.appending(name)
                    if !isToken(name) { context.report(headerPath, "'\(name)' is not a valid header name") }
                    switch headerValue {
                    case .null:
                        spec.headers.append(.init(name: name, value: nil))
                    case .string(let text) where !hasControlCharacter(text):
                        spec.headers.append(.init(name: name, value: text))
                    case .string:
                        context.report(headerPath, "must not contain line breaks (\\r, \\n) or other control characters")
                    default:
                        context.report(headerPath, "must be a string without line breaks, or null to remove the header")
                    }
                }
                let bytes = spec.headers.reduce(0) { $0 + $1.name.utf8.count + ($1.value?.utf8.count ?? 0) + 4 }
                if headers.count > ScenarioLimits.headerCount {
                    context.report(headersPath, "has \(headers.count) headers; at most \(ScenarioLimits.headerCount) can be sent")
                } else if bytes > ScenarioLimits.headerBytes {
                    context.report(headersPath, "has \(bytes) bytes of headers; at most \(ScenarioLimits.headerBytes) can be sent")
                }
            } else {
                context.report(headersPath, "must be an object of header name → value, found \(context.describe(raw))")
            }
        }
        let bodies = ["json", "text", "base64", "error"].filter { object[$0] != nil }
        if bodies.count > 1 {
            context.report(path, "give only one of json, text, base64, error (found \(bodies.joined(separator: ", ")))")
        }
        if let raw = object["json"] {
            let size = JSONSizeEstimate.bytes(of: raw, limit: ScenarioLimits.literalBodyBytes)
            if size > ScenarioLimits.literalBodyBytes {
                context.report(path.appending("json"), tooLarge("a literal body"))
            } else {
                spec.body = .json(raw)
            }
        }
        if let raw = object["text"], let text = context.string(raw, at: path.appending("text"), nonEmpty: false) {
            if text.utf8.count > ScenarioLimits.literalBodyBytes {
                context.report(path.appending("text"), tooLarge("a literal body", bytes: text.utf8.count))
            } else {
                spec.body = .text(text)
            }
        }
        if let raw = object["base64"], let text = context.string(raw, at: path.appending("base64"), nonEmpty: false) {
            if text.utf8.count / 4 * 3 > ScenarioLimits.literalBodyBytes {
                context.report(path.appending("base64"), tooLarge("a literal body", bytes: text.utf8.count / 4 * 3))
            } else if let data = Data(base64Encoded: text) {
                spec.body = .bytes(data)
            } else {
                context.report(path.appending("base64"), "is not valid base64 (RFC 4648, with padding, no line breaks)")
            }
        }
        var message: String?
        if let raw = object["message"] {
            message = context.string(raw, at: path.appending("message"), nonEmpty: false)
            if object["error"] == nil { context.report(path.appending("message"), "'message' goes with 'error'") }
        }
        if let raw = object["error"] {
            let errorPath = path.appending("error")
            let code: String? = raw.intValue.map(String.init) ?? raw.stringValue
            if let code, let error = APIErrorCode(code: code) {
                spec.body = .error(error, message: message)
            } else {
                let known = APIErrorCode.allCases.map(\.rawValue).joined(separator: ", ")
                context.report(errorPath, "unknown error code \(context.describe(raw)); expected one of \(known) or 401")
            }
        }
        if object.count == 0 {
            context.report(path, "needs at least one of status, headers, json, text, base64, error")
        }
        return context.issues.count == before ? spec : nil
    }

    /// Any C0 control character (line breaks included, horizontal tab excepted) or DEL:
    /// the server cannot send them in a header.
    static func hasControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }
    }

    static func tooLarge(_ what: String, bytes: Int? = nil) -> String {
        let size = bytes.map { "\($0) bytes" } ?? "more than \(ScenarioLimits.literalBodyBytes) bytes"
        return "\(what) of \(size) is too large; at most \(ScenarioLimits.literalBodyBytes) bytes (8 MiB)"
    }

    private static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            (0x21...0x7E).contains(byte) && !"()<>@,;:\\\"/[]?={}".utf8.contains(byte)
        }
    }

    // MARK: patch

    static let operationNames = ["add", "remove", "replace", "move", "copy", "test", "x-reverse"]

    static func decodePatch(_ value: JSONValue, at path: JSONPointer, _ context: DecodingContext) -> JSONPatch? {
        guard let items = context.array(value, at: path) else { return nil }
        guard items.count <= ScenarioLimits.patchOperations else {
            context.report(path, "has \(items.count) operations; at most \(ScenarioLimits.patchOperations) are allowed")
            return nil
        }
        let before = context.issues.count
        var operations: [JSONPatch.Operation] = []
        for (index, item) in items.enumerated() {
            if let operation = decodeOperation(item, at: path.appending(index), context) { operations.append(operation) }
        }
        guard context.issues.count == before else { return nil }
        let patch = JSONPatch(operations)
        let growth = PatchGrowth(patch)
        if growth.factor > ScenarioLimits.patchGrowthFactor {
            context.report(path, "can multiply the answer's size \(Self.format(growth.factor))-fold (\(growth.multiplying) copy or wildcard operations); at most \(Int(ScenarioLimits.patchGrowthFactor))-fold is allowed")
            return nil
        }
        if growth.added > Double(ScenarioLimits.literalBodyBytes) {
            context.report(path, "can add \(Self.format(growth.added)) bytes to the answer; at most \(ScenarioLimits.literalBodyBytes) (8 MiB)")
            return nil
        }
        return patch
    }

    private static func format(_ number: Double) -> String {
        number < 1e15 ? String(Int(number.rounded(.up))) : String(format: "%.3g", number)
    }

    private static func decodeOperation(_ value: JSONValue, at path: JSONPointer,
                                        _ context: DecodingContext) -> JSONPatch.Operation? {
        guard let object = context.object(value, at: path, allowed: ["op", "path", "value", "from"]) else { return nil }
        guard let rawOp = object["op"] else { context.report(path, "missing required key 'op'"); return nil }
        guard let op = context.string(rawOp, at: path.appending("op")) else { return nil }
        guard operationNames.contains(op) else {
            context.report(path.appending("op"), "unknown operation '\(op)'; expected one of \(operationNames.joined(separator: ", "))")
            return nil
        }
        let needsValue = ["add", "replace", "test"].contains(op)
        let needsFrom = ["move", "copy"].contains(op)
        if !needsValue, object["value"] != nil { context.report(path.appending("value"), "'\(op)' takes no 'value'") }
        if !needsFrom, object["from"] != nil { context.report(path.appending("from"), "'\(op)' takes no 'from'") }
        if needsValue, object["value"] == nil { context.report(path, "'\(op)' needs a 'value'") }
        if needsFrom, object["from"] == nil { context.report(path, "'\(op)' needs a 'from'") }

        guard let rawPath = object["path"] else { context.report(path, "missing required key 'path'"); return nil }
        guard let target = pointer(rawPath, at: path.appending("path"), context) else { return nil }
        let from = object["from"].flatMap { pointer($0, at: path.appending("from"), context) }
        let value = object["value"]

        if ["add", "move", "copy"].contains(op), target.tokens.last == JSONPatch.wildcard {
            context.report(path.appending("path"), "'*' cannot be the last token of the target of '\(op)'")
        }
        if let from, needsFrom {
            let fromStars = from.tokens.filter { $0 == JSONPatch.wildcard }.count
            let pathStars = target.tokens.filter { $0 == JSONPatch.wildcard }.count
            if pathStars > fromStars {
                context.report(path.appending("path"), "has \(pathStars) '*' but 'from' has only \(fromStars)")
            }
        }
        switch op {
        case "add": return value.map { .add(path: target, value: $0) }
        case "remove": return .remove(path: target)
        case "replace": return value.map { .replace(path: target, value: $0) }
        case "move": return from.map { .move(from: $0, path: target) }
        case "copy": return from.map { .copy(from: $0, path: target) }
        case "test": return value.map { .test(path: target, value: $0) }
        default: return .reverse(path: target)
        }
    }

    private static func pointer(_ value: JSONValue, at path: JSONPointer, _ context: DecodingContext) -> JSONPointer? {
        guard let text = context.string(value, at: path, nonEmpty: false) else { return nil }
        do {
            return try JSONPointer(parsing: text)
        } catch {
            context.report(path, "invalid JSON pointer \"\(text.prefix(60))\": \(error.reason)")
            return nil
        }
    }

    // MARK: transform

    private static func decodeTransform(_ value: JSONValue, at path: JSONPointer, _ context: DecodingContext) -> PolylineTransform? {
        guard let object = context.object(value, at: path, allowed: ["polyline"]) else { return nil }
        guard let raw = object["polyline"] else {
            context.report(path, "needs 'polyline'")
            return nil
        }
        let kinds = PolylineTransform.allCases.map(\.rawValue)
        guard let name = context.string(raw, at: path.appending("polyline")) else { return nil }
        guard let kind = PolylineTransform(rawValue: name) else {
            context.report(path.appending("polyline"), "unknown polyline transform '\(name.prefix(40))'; expected one of \(kinds.joined(separator: ", "))")
            return nil
        }
        return kind
    }

    // MARK: delay, dribble

    private static func decodeDelay(_ value: JSONValue, at path: JSONPointer, _ context: DecodingContext) -> DelaySpec? {
        let range = 0.0...Double(maxMilliseconds)
        if value.doubleValue != nil {
            return context.number(value, at: path, in: range).map(DelaySpec.fixed)
        }
        guard let object = context.object(value, at: path, allowed: ["fixed", "uniform", "lognormal"]) else { return nil }
        guard object.count == 1, let (kind, raw) = object.members.first.map({ ($0.key, $0.value) }) else {
            context.report(path, "needs exactly one of fixed, uniform, lognormal (or a number of milliseconds)")
            return nil
        }
        let kindPath = path.appending(kind)
        switch kind {
        case "fixed":
            return context.number(raw, at: kindPath, in: range).map(DelaySpec.fixed)
        case "uniform":
            guard let uniform = context.object(raw, at: kindPath, allowed: ["min", "max"]) else { return nil }
            guard let rawMin = uniform["min"], let rawMax = uniform["max"] else {
                context.report(kindPath, "needs 'min' and 'max' (milliseconds)")
                return nil
            }
            guard let low = context.number(rawMin, at: kindPath.appending("min"), in: range),
                  let high = context.number(rawMax, at: kindPath.appending("max"), in: range) else { return nil }
            guard low <= high else { context.report(kindPath.appending("max"), "must be ≥ 'min'"); return nil }
            return .uniform(min: low, max: high)
        default:
            guard let lognormal = context.object(raw, at: kindPath, allowed: ["median", "p99", "max"]) else { return nil }
            guard let rawMedian = lognormal["median"], let rawP99 = lognormal["p99"] else {
                context.report(kindPath, "needs 'median' and 'p99' (milliseconds; 'max' optional, default 2 × p99)")
                return nil
            }
            guard let median = context.number(rawMedian, at: kindPath.appending("median"), in: 0.001...Double(maxMilliseconds)),
                  let p99 = context.number(rawP99, at: kindPath.appending("p99"), in: 0.001...Double(maxMilliseconds))
            else { return nil }
            guard p99 > median else { context.report(kindPath.appending("p99"), "must be greater than 'median'"); return nil }
            var cap = min(2 * p99, Double(maxMilliseconds))
            if let rawCap = lognormal["max"] {
                guard let given = context.number(rawCap, at: kindPath.appending("max"), in: range) else { return nil }
                guard given >= median else { context.report(kindPath.appending("max"), "must be ≥ 'median'"); return nil }
                cap = given
            }
            return .lognormal(median: median, p99: p99, cap: cap)
        }
    }

    private static func decodeDribble(_ value: JSONValue, at path: JSONPointer, _ context: DecodingContext) -> DribbleSpec? {
        guard let object = context.object(value, at: path, allowed: ["chunks", "overMs"]) else { return nil }
        guard let rawChunks = object["chunks"], let rawOver = object["overMs"] else {
            context.report(path, "needs 'chunks' and 'overMs'")
            return nil
        }
        guard let chunks = context.integer(rawChunks, at: path.appending("chunks"), in: 1...10_000),
              let over = context.integer(rawOver, at: path.appending("overMs"), in: 0...maxMilliseconds) else { return nil }
        return DribbleSpec(chunks: chunks, overMs: over)
    }

    // MARK: fault

    private static func decodeFaults(_ value: JSONValue, at path: JSONPointer, _ context: DecodingContext) -> [TransportFault] {
        var faults: [TransportFault] = []
        if case .array(let items) = value {
            guard !items.isEmpty else { context.report(path, "must not be empty"); return [] }
            for (index, item) in items.enumerated() {
                if let fault = decodeFault(item, at: path.appending(index), context) { faults.append(fault) }
            }
        } else if let fault = decodeFault(value, at: path, context) {
            faults.append(fault)
        }
        if faults.count > 1, faults.contains(where: \.endsConnection) {
            context.report(path, "an empty reply or a reset cannot be combined with other faults")
        }
        let labels = faults.map(\.label)
        if Set(labels).count < labels.count { context.report(path, "lists the same kind of fault twice") }
        return faults
    }

    private static func decodeFault(_ value: JSONValue, at path: JSONPointer, _ context: DecodingContext) -> TransportFault? {
        if case .string(let name) = value {
            switch name {
            case "empty": return .emptyReply
            case "reset": return .reset
            case "malformed-json": return .malformedJSON
            default:
                context.report(path, "unknown fault '\(name.prefix(40))'; expected empty, reset, malformed-json, or an object with truncate, contentLength or contentType")
                return nil
            }
        }
        guard let object = context.object(value, at: path, allowed: ["truncate", "contentLength", "contentType"]) else { return nil }
        guard object.count == 1, let member = object.members.first else {
            context.report(path, "needs exactly one of truncate, contentLength, contentType")
            return nil
        }
        let memberPath = path.appending(member.key)
        switch member.key {
        case "truncate":
            guard let truncate = context.object(member.value, at: memberPath, allowed: ["bytes", "fraction"]) else { return nil }
            if truncate.count == 1, let bytes = truncate["bytes"] {
                return context.integer(bytes, at: memberPath.appending("bytes"), atLeast: 0).map { .truncate(.bytes($0)) }
            }
            if truncate.count == 1, let fraction = truncate["fraction"] {
                guard let value = context.number(fraction, at: memberPath.appending("fraction"), in: 0...1), value < 1 else {
                    if fraction.doubleValue == 1 { context.report(memberPath.appending("fraction"), "must be below 1") }
                    return nil
                }
                return .truncate(.fraction(value))
            }
            context.report(memberPath, "needs exactly one of bytes, fraction")
            return nil
        case "contentLength":
            guard let length = context.object(member.value, at: memberPath, allowed: ["value", "delta"]) else { return nil }
            if length.count == 1, let raw = length["value"] {
                return context.integer(raw, at: memberPath.appending("value"), atLeast: 0).map { .contentLength(.value($0)) }
            }
            if length.count == 1, let raw = length["delta"] {
                guard let delta = context.integer(raw, at: memberPath.appending("delta"), in: -1_000_000_000...1_000_000_000)
                else { return nil }
                guard delta != 0 else { context.report(memberPath.appending("delta"), "must not be 0"); return nil }
                return .contentLength(.delta(delta))
            }
            context.report(memberPath, "needs exactly one of value, delta")
            return nil
        default:
            guard let type = context.string(member.value, at: memberPath) else { return nil }
            guard !hasControlCharacter(type) else {
                context.report(memberPath, "must not contain line breaks (\\r, \\n) or other control characters")
                return nil
            }
            return .contentType(type)
        }
    }

    // MARK: quota

    private static func decodeQuota(_ value: JSONValue, at path: JSONPointer, _ context: DecodingContext) -> QuotaSpec? {
        guard let object = context.object(value, at: path, allowed: ["limit", "windowSeconds", "retryAfterSeconds"]) else { return nil }
        guard let rawLimit = object["limit"], let rawWindow = object["windowSeconds"] else {
            context.report(path, "needs 'limit' and 'windowSeconds'")
            return nil
        }
        guard let limit = context.integer(rawLimit, at: path.appending("limit"), atLeast: 0),
              let window = context.number(rawWindow, at: path.appending("windowSeconds"), in: 0.001...31_622_400)
        else { return nil }
        var spec = QuotaSpec(limit: limit, windowSeconds: window)
        if let raw = object["retryAfterSeconds"] {
            guard let seconds = context.integer(raw, at: path.appending("retryAfterSeconds"), atLeast: 0) else { return nil }
            spec.retryAfterSeconds = seconds
        }
        return spec
    }
}

extension TransportFault {
    var isTruncation: Bool {
        if case .truncate = self { return true }
        return false
    }
}
