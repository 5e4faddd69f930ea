import Foundation
import JSON
import Polyline
import VietMapClient
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Running: the corpus' queries in order against a provider (responses feed later `$from` parameters).
extension ContractSuite {
    /// Runs `queries` in order against `provider` (responses feed later `$from` parameters).
    func execute(_ queries: [ContractQuery], provider: any VietMapProvider, context: RunContext,
                 accumulator: AgreementAccumulator) async -> [QueryResult] {
        var results: [QueryResult] = []
        var byName: [String: QueryResult] = [:]
        for query in queries {
            let result: QueryResult
            if let only = query.only, let kind = target.kind, only != kind {
                result = QueryResult(name: query.name, endpoint: query.endpoint, request: nil, status: nil, body: nil, duration: 0,
                                     failures: [], notes: [], model: nil, modelDecodes: nil, skipped: "\(only.rawValue) only")
            } else if let pending = query.pending, !options.runPending {
                result = QueryResult(name: query.name, endpoint: query.endpoint, request: nil, status: nil, body: nil, duration: 0,
                                     failures: [], notes: [], model: nil, modelDecodes: nil, skipped: "pending: \(pending)")
            } else {
                result = await execute(query, previous: byName, provider: provider, context: context, accumulator: accumulator)
            }
            byName[query.name] = result
            results.append(result)
        }
        return results
    }

    private func execute(_ query: ContractQuery, previous: [String: QueryResult], provider: any VietMapProvider,
                         context: RunContext, accumulator: AgreementAccumulator) async -> QueryResult {
        var result = QueryResult(name: query.name, endpoint: query.endpoint, request: nil, status: nil, body: nil, duration: 0,
                                 failures: [], notes: [], model: nil, modelDecodes: nil, skipped: nil)
        func fail(_ kind: ContractFailure.Kind, _ pointer: String, _ reason: String) {
            result.failures.append(ContractFailure(query: query.name, kind: kind, pointer: pointer, reason: reason))
        }
        var parameters: [VMParameter] = []
        for (name, value) in query.parameters {
            switch value {
            case .literal(let text): parameters.append(VMParameter(name, text))
            case .reference(let source, let pointer):
                guard let body = previous[source]?.body, let found = ContractPointer.resolve(pointer, in: body) else {
                    fail(.dependency, "", "parameter '\(name)' needs \(pointer) of query '\(source)', which \(previous[source]?.body == nil ? "has no JSON answer" : "has no value there")")
                    return result
                }
                switch found {
                case .string(let s): parameters.append(VMParameter(name, s))
                case .integer, .number, .bool: parameters.append(VMParameter(name, JSONSerializer.string(found)))
                default:
                    fail(.dependency, "", "parameter '\(name)': \(pointer) of query '\(source)' is \(found.typeName), not a scalar")
                    return result
                }
            }
        }
        let request = VMRequest(query.endpoint, parameters, pathSuffix: query.pathSuffix)
        result.request = request
        let started = Date()
        let response: VMRawResponse
        do {
            response = try await provider.send(request)
        } catch VMClientError.notRecorded(_, _) {
            result.duration = Date().timeIntervalSince(started)
            result.skipped = "not recorded"
            return result
        } catch {
            result.duration = Date().timeIntervalSince(started)
            fail(.transport, "", "no HTTP answer: \(Self.transportMessage(error))")
            return result
        }
        result.duration = Date().timeIntervalSince(started)
        result.status = response.status
        func check() -> Checked {
            checkResponse(name: query.name, endpoint: query.endpoint, status: response.status, headers: response.headers,
                          data: response.body, expect: query.expect,
                          requestParameters: parameters.map { ($0.name, $0.value) }, context: context, accumulator: accumulator)
        }
        let checked = context.checks.map { memo in
            memo.checked(CheckMemo.Key(query: query.name, status: response.status, headers: response.headers, body: response.body,
                                       parameters: parameters.flatMap { [$0.name, $0.value] }, gaps: context.gaps.map(\.id)), check)
        } ?? check()
        result.body = checked.body
        result.failures += checked.failures
        result.notes += checked.notes
        result.model = checked.model
        result.modelDecodes = checked.modelDecodes
        result.gapsUsed = checked.gapsUsed
        result.unobserved = checked.unobserved
        return result
    }

    /// One short line for a transport failure, without URLs (they carry the API key).
    static func transportMessage(_ error: any Error) -> String {
        var inner: any Error = error
        if let client = error as? VMClientError, case .transport(let wrapped) = client { inner = wrapped }
        var ns = inner as NSError
        while let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError { ns = underlying }
        var text = (ns.userInfo[NSLocalizedDescriptionKey] as? String) ?? ""
        if text.isEmpty || text == "(null)" {
            text = (inner as? URLError).map { "URLError \($0.code.rawValue)" } ?? String(describing: inner)
        }
        return text.replacingOccurrences(of: #"apikey=[^&\s,]*"#, with: "apikey=…", options: .regularExpression)
    }
}
