import Foundation
import HTTPServer

/// How a request picks its scenario, in this order of precedence:
/// 1. a path prefix `/__scenario/NAME[@CLIENT]/…` (removed before the inner handler sees the path);
/// 2. an API key `scenario:NAME[@CLIENT]`;
/// 3. the server-wide default (`serve --scenario`, or activated through the admin API).
///
/// States are kept per scenario and client key: the whole `scenario:` key, the path segment
/// plus the API key, or the API key under the default scenario.
struct ScenarioSelection: Sendable {
    enum Via: String, Sendable {
        case path, apikey, `default`
    }

    let name: String
    /// The `@suffix`, if any.
    let client: String?
    let via: Via
    /// The key of this client's state.
    let clientKey: String

    static let pathPrefix = "/__scenario/"
    static let keyPrefix = "scenario:"

    /// The outcome of selection for one request.
    enum Outcome: Sendable {
        /// No scenario applies; forward this request.
        case none(HTTPRequest)
        /// A scenario applies; forward this request (prefix removed, key rewritten).
        case selected(ScenarioSelection, HTTPRequest)
        /// The request names a scenario that does not exist.
        case unknown(name: String, via: Via, forwarded: HTTPRequest)
    }

    /// Selects the scenario of `request`.
    /// - Parameters:
    ///   - innerAPIKey: replaces a `scenario:` API key before forwarding (for an inner handler
    ///     that only accepts its configured keys); nil forwards the key unchanged.
    static func select(_ request: HTTPRequest, library: ScenarioLibrary, defaultName: String?,
                       innerAPIKey: String?) -> Outcome {
        var forwarded = request
        let apiKey = request.query.all("apikey").first { !$0.isEmpty } ?? ""
        let keyToken = apiKey.hasPrefix(keyPrefix) ? String(apiKey.dropFirst(keyPrefix.count)) : nil
        if keyToken != nil, let innerAPIKey { forwarded = replacingAPIKey(in: forwarded, with: innerAPIKey) }

        if request.path.hasPrefix(pathPrefix) {
            let rest = request.path.dropFirst(pathPrefix.count)
            let token = String(rest.prefix { $0 != "/" })
            let remainder = rest.dropFirst(token.count)
            forwarded.path = remainder.isEmpty ? "/" : String(remainder)
            let (name, client) = split(token)
            guard library.scenario(named: name) != nil else { return .unknown(name: name, via: .path, forwarded: forwarded) }
            let selection = ScenarioSelection(name: name, client: client, via: .path, clientKey: "path:\(token)|\(apiKey)")
            return .selected(selection, forwarded)
        }
        if let keyToken {
            let (name, client) = split(keyToken)
            guard library.scenario(named: name) != nil else { return .unknown(name: name, via: .apikey, forwarded: forwarded) }
            return .selected(ScenarioSelection(name: name, client: client, via: .apikey, clientKey: "key:\(apiKey)"), forwarded)
        }
        if let defaultName, library.scenario(named: defaultName) != nil {
            return .selected(ScenarioSelection(name: defaultName, client: nil, via: .default, clientKey: "default:\(apiKey)"),
                             forwarded)
        }
        return .none(forwarded)
    }

    /// `NAME@CLIENT` → (NAME, CLIENT).
    private static func split(_ token: String) -> (String, String?) {
        guard let at = token.firstIndex(of: "@") else { return (token, nil) }
        return (String(token[..<at]), String(token[token.index(after: at)...]))
    }

    /// The request with every `apikey` value replaced, in both the decoded and the raw query.
    private static func replacingAPIKey(in request: HTTPRequest, with key: String) -> HTTPRequest {
        var request = request
        request.query.items = request.query.items.map { $0.name == "apikey" ? ($0.name, key) : $0 }
        let encoded = key.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? key
        request.rawQuery = request.rawQuery.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            pair == "apikey" || pair.hasPrefix("apikey=") ? "apikey=" + encoded : String(pair)
        }.joined(separator: "&")
        return request
    }
}
