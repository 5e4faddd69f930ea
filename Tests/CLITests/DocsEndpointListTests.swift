import Foundation
import VietMapWire
import TestExpectations
import Testing

/// The documents' endpoint lists and counts cannot drift from the wire home (issue #37):
/// docs/api.md's table and Contracts/README.md's name every endpoint of ``APIEndpoint``, and the
/// counts Contracts/README.md and README.md state are those of `APIEndpoint.allCases` and its contract exclusions.
/// (`vietmap-sim --help` prints the list from the code: HelpCLITests.)
@Suite final class DocsEndpointListTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private func text(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The first cells of the rows of the first table after `heading` (the whole text when nil).
    private func firstColumn(_ text: String, after heading: String? = nil) throws -> String {
        var rest = Substring(text)
        if let heading { rest = rest[try unwrap(rest.range(of: heading), "no \(heading)").upperBound...] }
        let rows = rest.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        return rows.map { $0.split(separator: "|").first.map(String.init) ?? "" }.joined(separator: "\n")
    }

    @Test func testDocsAPIListsEveryEndpoint() throws {
        let names = try firstColumn(try text("docs/api.md"))
        for endpoint in APIEndpoint.allCases {
            expectTrue(names.contains("`\(endpoint.name)`"), "docs/api.md's table lacks \(endpoint.name)")
        }
    }

    @Test func testContractsReadmeListsAndCountsTheCoveredEndpoints() throws {
        let readme = try text("Contracts/README.md")
        let names = try firstColumn(readme, after: "## Endpoints")
        let covered = APIEndpoint.allCases.filter { $0.contractExclusion == nil }
        for endpoint in covered {
            expectTrue(names.contains("`\(endpoint.name)`"), "Contracts/README.md's Endpoints table lacks \(endpoint.name)")
        }
        for endpoint in APIEndpoint.allCases where endpoint.contractExclusion != nil {
            expectFalse(names.contains("`\(endpoint.name)`"), "\(endpoint.name) is outside the corpus")
        }
        let all = APIEndpoint.allCases.count, excluded = all - covered.count
        expectTrue(readme.contains("all \(all) endpoints of"), "Contracts/README.md must say 'all \(all) endpoints of'")
        expectTrue(readme.contains("\(covered.count) of them in the query corpus"),
                      "Contracts/README.md must say '\(covered.count) of them in the query corpus'")
        expectTrue(readme.contains("the \(excluded) map resources"), "Contracts/README.md must say 'the \(excluded) map resources'")
    }

    /// README.md's "N REST endpoints": every endpoint that is not a map resource (the ones the contract corpus covers).
    @Test func testReadmeCountsTheRESTEndpoints() throws {
        let rest = APIEndpoint.allCases.filter { $0.contractExclusion == nil }.count
        expectTrue(try text("README.md").contains("\(rest) REST endpoints"), "README.md must say '\(rest) REST endpoints'")
    }
}
