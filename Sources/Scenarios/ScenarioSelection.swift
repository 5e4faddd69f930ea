import VietMapWire
import VietMapWireHTTP
import Foundation
import HTTPServer

/// How a request picks its scenario, in this order of precedence:
/// 1. a path prefix `/__scenario/NAME[@TAG]/…` (removed before the inner handler sees the path);
/// 2. a header `X-VietMap-Sim-Scenario: NAME[@TAG]`;
/// 3. an API key `scenario:NAME[@TAG]`, or `scenario:NAME[@TAG]:KEY` carrying the real key —
///    or the same in characters no URL builder touches, `scenario.NAME[__TAG[__KEY]]`, or as
///    Flutter's route builder mangles it, `scenario=NAME[@TAG[=KEY]]` (every `:` became `=`);
/// 4. a plain key bound to a scenario at start (`serve --scenario-key KEY=NAME[@TAG]`);
/// 5. the server-wide default (`serve --scenario`, or activated through the admin API).
///
/// **The key check comes first.** With `apiKeys` (the `--api-key` values) a scenario applies
/// only to a request that also carries one of them — as the plain `apikey` next to a path
/// prefix or header, or embedded after a `:` in a `scenario:` key — and the inner
/// handler sees that real key. A bare `scenario:NAME` key is then a 401. Without `apiKeys`
/// every non-empty key is valid (a bare `scenario:NAME` included) and `scenario:` keys are
/// forwarded unchanged. Either way the check is `APIKeyPolicy`'s, applied to the key the inner
/// handler will see, on every selection path: a missing or empty key never gets a scenario's
/// answer (a 401 instead, or the inner handler's 401 under the server default).
///
/// States are kept per scenario and client key: the `scenario:` selector, or the path / header
/// selector plus the API key, or the API key under the default scenario.
struct ScenarioSelection: Sendable {
    enum Via: String, Sendable {
        case path, header, apikey, boundKey = "bound-key", `default`
    }

    let name: String
    /// The `@suffix`, if any.
    let client: String?
    let via: Via
    /// The key of this client's state.
    let clientKey: String
    /// The API key this client's state is listed and reset under (a `scenario:` key without
    /// the real key it may embed).
    let stateKey: String

    static let pathPrefix = "/__scenario/"
    static let keyPrefix = "scenario:"
    /// The spelling made only of letters, digits, `-`, `_`, `.`: `scenario.NAME__TAG__KEY`.
    static let urlSafeKeyPrefix = "scenario."
    /// The separator of the URL-safe spelling (a name or tag holding `__` cannot be spelled so).
    static let urlSafeSeparator = "__"
    /// `scenario:` after Flutter's route URL builder turned every `:` into `=`.
    static let mangledKeyPrefix = "scenario="
    static let headerName = "X-VietMap-Sim-Scenario"

    /// The longest `apikey` accepted (bytes); longer ones are a 401 before anything is stored.
    static let maxKeyBytes = 256
    /// The longest `@TAG` accepted (bytes).
    static let maxTagBytes = 64
    /// How many loaded names an "is not loaded" message lists.
    static let listedNames = 12

    /// The outcome of selection for one request. The request to forward carries its `reading`
    /// (endpoint and presented key as the inner handler will see them).
    enum Outcome: Sendable {
        /// No scenario applies; forward this request.
        case none(HTTPRequest)
        /// A scenario applies; forward this request (prefix removed, key rewritten).
        case selected(ScenarioSelection, HTTPRequest)
        /// The request is answered with an error before any scenario or inner handler runs.
        case refused(Refusal, forwarded: HTTPRequest)
    }

    /// Why a request is refused: the status, the VietMap error code of the body and a message.
    struct Refusal: Sendable {
        let error: APIErrorCode
        let message: String
    }

    /// Selects the scenario of `request`.
    /// - Parameters:
    ///   - apiKeys: the keys the inner handler accepts; empty means any non-empty key.
    static func select(_ request: HTTPRequest, library: ScenarioLibrary, defaultName: String?,
                       apiKeys: Set<String>, boundKeys: [String: String] = [:]) -> Outcome {
        var forwarded = request
        let presentedKey = FrontDoor.presentedKey(request)
        let apiKey = presentedKey ?? ""
        // The endpoint the inner handler will see (the path without a `/__scenario/NAME/` selector),
        // read once: the engine and the front door behind it take it from `forwarded.reading`.
        let endpoint = APIEndpoint(path: ScenarioEngine.innerPath(request.path))
        forwarded.reading = RequestReading(endpoint: endpoint, presentedKey: presentedKey)
        if apiKey.utf8.count > maxKeyBytes {
            return .refused(Refusal(error: .unauthorized, message: "apikey is longer than \(maxKeyBytes) bytes"), forwarded: forwarded)
        }
        let parsedKey = ScenarioKey(apiKey, apiKeys: apiKeys)
        // The key the client really presents: the plain key, or the one embedded in a scenario key.
        let realKey = parsedKey.map(\.realKey) ?? apiKey
        if let parsedKey, !apiKeys.isEmpty, let realKey = parsedKey.realKey {
            forwarded = replacingAPIKey(in: forwarded, with: realKey)
            forwarded.reading = RequestReading(endpoint: endpoint, presentedKey: FrontDoor.presentedKey(forwarded))
        }
        // The key the inner handler will see: the embedded real key with `apiKeys`, else the key as sent.
        let checkedKey = apiKeys.isEmpty ? apiKey : realKey
        // Glyphs and sprites need no key (`APIEndpoint.requiresKey`): any request to them passes.
        let needsKey = endpoint?.requiresKey ?? true
        let keyIsValid = !needsKey || APIKeyPolicy(keys: apiKeys).isValid(checkedKey)

        let token: String
        let via: Via
        if request.path.hasPrefix(pathPrefix) {
            let rest = request.path.dropFirst(pathPrefix.count)
            token = String(rest.prefix { $0 != "/" })
            let remainder = rest.dropFirst(token.count)
            forwarded.path = remainder.isEmpty ? "/" : String(remainder)
            via = .path
        } else if let header = request.headers[headerName] {
            token = header.trimmingCharacters(in: .whitespaces)
            via = .header
        } else if let parsedKey {
            token = parsedKey.selector
            via = .apikey
        } else if let bound = boundKeys[apiKey] {
            token = bound
            via = .boundKey
        } else {
            // The default scenario applies only to requests the key check lets through.
            if let defaultName, library.scenario(named: defaultName) != nil, keyIsValid {
                let selection = ScenarioSelection(name: defaultName, client: nil, via: .default,
                                                  clientKey: "default:\(apiKey)", stateKey: apiKey)
                return .selected(selection, forwarded)
            }
            return .none(forwarded)
        }

        let (name, client) = split(token)
        // Path problems are about the URL (404/400); key and header problems are credentials (401).
        let unknownError: APIErrorCode = via == .path ? .notFound : .unauthorized
        if let client, client.utf8.count > maxTagBytes {
            let error: APIErrorCode = via == .path ? .invalidRequest : .unauthorized
            return .refused(Refusal(error: error, message: "scenario tag is longer than \(maxTagBytes) bytes"), forwarded: forwarded)
        }
        guard library.scenario(named: name) != nil else {
            return .refused(Refusal(error: unknownError, message: notLoadedMessage(name, library: library)), forwarded: forwarded)
        }
        if !keyIsValid {
            let message = parsedKey != nil && parsedKey?.realKey == nil
                ? "with --api-key a scenario key must carry the real key: apikey=scenario:\(token.prefix(170)):KEY, or apikey=KEY with the header \(headerName): \(token.prefix(170))"
                : APIErrorCode.unauthorized.defaultMessage
            return .refused(Refusal(error: .unauthorized, message: message), forwarded: forwarded)
        }
        let selection: ScenarioSelection
        switch via {
        case .apikey:
            selection = ScenarioSelection(name: name, client: client, via: .apikey, clientKey: "key:\(token)",
                                          stateKey: keyPrefix + token)
        default:
            selection = ScenarioSelection(name: name, client: client, via: via, clientKey: "\(via.rawValue):\(token)|\(apiKey)",
                                          stateKey: apiKey)
        }
        return .selected(selection, forwarded)
    }

    /// `unknown scenario 'nope': not loaded; loaded: a, b, … (N in all)`, bounded in length
    /// (the "unknown scenario" prefix is what clients such as the contract runner probe for).
    static func notLoadedMessage(_ name: String, library: ScenarioLibrary) -> String {
        let names = library.scenarios.map(\.name)
        let shownName = name.count > 100 ? name.prefix(100) + "…" : Substring(name)
        // A file of that name that failed to load says so, rather than "not loaded" alone.
        if let issue = library.issues.first(where: { issue in
            guard !issue.isWarning, let file = issue.file else { return false }
            let base = URL(fileURLWithPath: file).lastPathComponent
            return base == name + ".json"
        }) {
            let reason = "\(issue.pointer.isEmpty ? "" : issue.pointer + ": ")\(issue.reason)"
            return "unknown scenario '\(shownName)': not loaded; its file \(URL(fileURLWithPath: issue.file ?? "").lastPathComponent) does not load: \(reason.prefix(300))"
        }
        guard !names.isEmpty else { return "unknown scenario '\(shownName)': not loaded; no scenarios are loaded" }
        var list = names.prefix(listedNames).joined(separator: ", ")
        if names.count > listedNames { list += ", … (\(names.count) in all)" }
        return "unknown scenario '\(shownName)': not loaded; loaded: \(list)"
    }

    /// How an `apikey` value is shown in the journal and the admin API: a real key is `***`,
    /// a scenario key is kept but the real key it embeds is `***`.
    static func redacted(_ apiKey: String, apiKeys: Set<String>) -> String {
        if apiKey.isEmpty { return apiKey }
        guard let parsed = ScenarioKey(apiKey, apiKeys: apiKeys) else { return "***" }
        return keyPrefix + parsed.selector + (parsed.realKey == nil ? "" : ":***")
    }

    /// `NAME@TAG` → (NAME, TAG).
    private static func split(_ token: String) -> (String, String?) {
        guard let at = token.firstIndex(of: "@") else { return (token, nil) }
        return (String(token[..<at]), String(token[token.index(after: at)...]))
    }

    /// The request with every `apikey` (and `apiKey`) value replaced.
    private static func replacingAPIKey(in request: HTTPRequest, with key: String) -> HTTPRequest {
        var request = request
        request.query.items = request.query.items.map { APIKeyPolicy.isKeyParameter($0.name) ? ($0.name, key) : $0 }
        return request
    }
}

/// A `scenario:` API key split into its selector (`NAME[@TAG]`) and the real key it may carry
/// after a `:` — recognised only when what follows that `:` is one of the configured keys, so
/// tags containing `:` keep working on a server without `--api-key`.
struct ScenarioKey: Sendable {
    let selector: String
    let realKey: String?

    init?(_ apiKey: String, apiKeys: Set<String>) {
        guard let token = Self.canonicalToken(apiKey) else { return nil }
        let colons = apiKeys.isEmpty ? [] : token.indices.filter { token[$0] == ":" }
        if let colon = colons.first(where: { apiKeys.contains(String(token[token.index(after: $0)...])) }) {
            selector = String(token[..<colon])
            realKey = String(token[token.index(after: colon)...])
        } else {
            selector = token
            realKey = nil
        }
    }

    /// `NAME[@TAG][:KEY]` from any of the three spellings, nil for a key that is none of them.
    static func canonicalToken(_ apiKey: String) -> String? {
        if apiKey.hasPrefix(ScenarioSelection.keyPrefix) { return String(apiKey.dropFirst(ScenarioSelection.keyPrefix.count)) }
        if apiKey.hasPrefix(ScenarioSelection.mangledKeyPrefix) {
            return String(apiKey.dropFirst(ScenarioSelection.mangledKeyPrefix.count)).replacingOccurrences(of: "=", with: ":")
        }
        guard apiKey.hasPrefix(ScenarioSelection.urlSafeKeyPrefix) else { return nil }
        let parts = String(apiKey.dropFirst(ScenarioSelection.urlSafeKeyPrefix.count))
            .components(separatedBy: ScenarioSelection.urlSafeSeparator)
        guard let name = parts.first, !name.isEmpty else { return nil }
        var token = name
        if parts.count > 1 { token += "@" + parts[1] }
        if parts.count > 2 { token += ":" + parts[2...].joined(separator: ScenarioSelection.urlSafeSeparator) }
        return token
    }
}
