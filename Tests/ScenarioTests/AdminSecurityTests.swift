import Foundation
import HTTPServer
import JSON
import Scenarios
import SimTesting
import XCTest

/// The admin API refuses what a web page could send (CSRF, DNS rebinding), optionally needs a
/// token, and pages its state dump; per-client states are bounded.
final class AdminSecurityTests: XCTestCase {
    private let search = "/api/autocomplete/v4?text=ben&apikey="

    private func reason(_ response: RawHTTPClient.Response) throws -> String? {
        try response.json()["reason"]?.stringValue
    }

    func testForeignHostIsRefusedEvenForReads() throws {
        let engine = builtInEngine(.init(adminEnabled: true))
        let server = try startServer(engine)
        let rebound = try request(server, "GET", "/__sim/scenarios", host: "evil.example:\(server.port)")
        XCTAssertEqual(rebound.status, 403)
        XCTAssertEqual(try reason(rebound), "host")
        XCTAssertTrue(try rebound.json()["error"]?.stringValue?.contains("evil.example") ?? false)
        let post = try request(server, "POST", "/__sim/activate?scenario=route-500", headers: ["X-VietMap-Sim-Admin: 1"],
                               host: "evil.example")
        XCTAssertEqual(post.status, 403)
        XCTAssertNil(engine.activeScenario, "nothing changed")
        for host in ["localhost:\(server.port)", "127.0.0.1:\(server.port)", "127.0.0.2", "[::1]:\(server.port)", "LOCALHOST"] {
            XCTAssertEqual(try request(server, "GET", "/__sim/active", host: host).status, 200, host)
        }
        XCTAssertEqual(try request(server, "GET", "/__sim/active", host: "192.168.1.20:\(server.port)").status, 403,
                       "a LAN address only when the server is bound to it")
    }

    func testBoundAddressAndWildcardHosts() throws {
        let lanEngine = builtInEngine(.init(adminEnabled: true, adminHosts: ["192.168.1.20"]))
        let lanToken = try XCTUnwrap(lanEngine.adminToken, "a non-loopback address gets a token")
        let lan = try startServer(lanEngine)
        XCTAssertEqual(try request(lan, "GET", "/__sim/active", headers: ["Authorization: Bearer \(lanToken)"],
                                   host: "192.168.1.20:8080").status, 200)
        XCTAssertEqual(try request(lan, "GET", "/__sim/active", headers: ["Authorization: Bearer \(lanToken)"],
                                   host: "192.168.1.21:8080").status, 403)
        let anyEngine = builtInEngine(.init(adminEnabled: true, adminHosts: ["0.0.0.0"]))
        let anyToken = try XCTUnwrap(anyEngine.adminToken)
        let any = try startServer(anyEngine)
        XCTAssertEqual(try request(any, "GET", "/__sim/active", headers: ["Authorization: Bearer \(anyToken)"],
                                   host: "10.0.0.7:8080").status, 200, "IP literals cannot be rebound")
        XCTAssertEqual(try request(any, "GET", "/__sim/active", headers: ["Authorization: Bearer \(anyToken)"],
                                   host: "rebind.example:8080").status, 403)
    }

    /// `serve --host 0.0.0.0 --admin` without `--admin-token`: the engine makes a token up, and
    /// every admin request needs it — whatever `Host` it names (a LAN client chooses its `Host`
    /// header freely, `127.0.0.1` included). The requests go to 127.0.0.1; only their `Host`
    /// headers name other addresses.
    func testANonLoopbackListenerNeedsAToken() throws {
        let engine = builtInEngine(.init(adminEnabled: true, adminHosts: ["0.0.0.0"]))
        let token = try XCTUnwrap(engine.adminToken)
        XCTAssertTrue(engine.adminTokenGenerated)
        XCTAssertEqual(token.count, 32)
        XCTAssertTrue(token.allSatisfy(\.isHexDigit), token)
        XCTAssertNotEqual(builtInEngine(.init(adminEnabled: true, adminHosts: ["0.0.0.0"])).adminToken, token, "random per start")
        let server = try startServer(engine)
        for host in ["192.168.1.5", "10.1.2.3", "[fe80::1]", "8.8.8.8", "127.0.0.1", "localhost"] {
            let read = try request(server, "GET", "/__sim/journal", host: "\(host):\(server.port)")
            XCTAssertEqual(read.status, 401, host)
            XCTAssertEqual(try reason(read), "token", host)
            let write = try request(server, "POST", "/__sim/activate?scenario=route-500", headers: ["X-VietMap-Sim-Admin: 1"],
                                    host: "\(host):\(server.port)")
            XCTAssertEqual(write.status, 401, host)
        }
        XCTAssertNil(engine.activeScenario, "nothing changed")
        XCTAssertEqual(try request(server, "POST", "/__sim/activate?scenario=route-500",
                                   headers: ["X-VietMap-Sim-Admin: 1", "Authorization: Bearer \(token)"],
                                   host: "192.168.1.5:\(server.port)").status, 200)
        XCTAssertEqual(engine.activeScenario, "route-500")

        for host in ["::", "192.168.1.5", "fe80::1"] {
            XCTAssertNotNil(builtInEngine(.init(adminEnabled: true, adminHosts: [host])).adminToken, host)
        }
        for host in ["127.0.0.1", "::1", "localhost", "127.0.0.2"] {
            XCTAssertNil(builtInEngine(.init(adminEnabled: true, adminHosts: [host])).adminToken, host)
        }
        XCTAssertNil(builtInEngine(.init(adminEnabled: false, adminHosts: ["0.0.0.0"])).adminToken, "no admin API, no token")
        let given = builtInEngine(.init(adminEnabled: true, adminToken: "mine", adminHosts: ["0.0.0.0"]))
        XCTAssertEqual(given.adminToken, "mine")
        XCTAssertFalse(given.adminTokenGenerated)
    }

    /// State changes from another site are refused however they are typed: by `Sec-Fetch-Site`,
    /// and by a content type that is not exactly `application/json` (a charset parameter aside).
    func testCrossSiteStateChangesAreRefusedHoweverTyped() throws {
        let engine = builtInEngine(.init(adminEnabled: true))
        let server = try startServer(engine)
        let activate = "/__sim/activate?scenario=route-500"
        let refused: [([String], String)] = [
            (["Content-Type: application/json;x", "Sec-Fetch-Site: cross-site"], "cross-site"),
            (["Content-Type: application/json;x"], "simple-request"),
            (["Content-Type: application/json; x=1"], "simple-request"),
            (["Content-Type: application/json; charset=utf-8; x=1"], "simple-request"),
            (["Content-Type: application/json;"], "simple-request"),
            (["Content-Type: application/jsonx"], "simple-request"),
            (["Content-Type: application/json-patch+json"], "simple-request"),
            (["Content-Type: text/plain", "Content-Type: application/json"], "simple-request"),
            (["Content-Type: application/json", "Sec-Fetch-Site: cross-site"], "cross-site"),
            (["Content-Type: application/json", "Sec-Fetch-Site: same-site"], "cross-site"),
            (["X-VietMap-Sim-Admin: 1", "Sec-Fetch-Site: same-site"], "cross-site"),
            (["X-VietMap-Sim-Admin: 1", "Sec-Fetch-Site: cross-site"], "cross-site"),
        ]
        for (headers, expected) in refused {
            let response = try request(server, "POST", activate, body: #"{"a":1}"#, headers: headers)
            XCTAssertEqual(response.status, 403, "\(headers)")
            XCTAssertEqual(try reason(response), expected, "\(headers)")
            XCTAssertNotNil(try response.json()["error"]?.stringValue, "\(headers)")
        }
        let cleared = try request(server, "DELETE", "/__sim/journal", headers: ["X-VietMap-Sim-Admin: 1", "Sec-Fetch-Site: cross-site"])
        XCTAssertEqual(cleared.status, 403)
        XCTAssertNil(engine.activeScenario, "nothing changed")

        let accepted: [[String]] = [
            ["Content-Type: application/json"], ["Content-Type: APPLICATION/JSON"], ["Content-Type: application/json; charset=utf-8"],
            ["Content-Type: application/json;charset=\"UTF-8\""], ["Content-Type: application/json", "Sec-Fetch-Site: same-origin"],
            ["X-VietMap-Sim-Admin: 1", "Sec-Fetch-Site: none"], ["X-VietMap-Sim-Admin: 1", "Content-Type: text/plain"],
        ]
        for headers in accepted {
            XCTAssertEqual(try request(server, "POST", activate, headers: headers).status, 200, "\(headers)")
            XCTAssertEqual(engine.activeScenario, "route-500", "\(headers)")
            XCTAssertEqual(try admin(server, "POST", "/__sim/deactivate").status, 200)
        }
        XCTAssertEqual(try request(server, "GET", "/__sim/active", headers: ["Sec-Fetch-Site: cross-site"]).status, 200,
                       "reads are not state changes (a link from another site still opens the dashboard)")
    }

    func testCrossOriginRequestsAreRefused() throws {
        let engine = builtInEngine(.init(adminEnabled: true))
        let server = try startServer(engine)
        let host = "127.0.0.1:\(server.port)"
        let csrf = try request(server, "POST", "/__sim/activate?scenario=route-500", headers: ["Origin: http://evil.example"], host: host)
        XCTAssertEqual(csrf.status, 403)
        XCTAssertEqual(try reason(csrf), "origin")
        let withHeader = try request(server, "POST", "/__sim/activate?scenario=route-500",
                                     headers: ["Origin: http://evil.example", "X-VietMap-Sim-Admin: 1"], host: host)
        XCTAssertEqual(withHeader.status, 403, "the origin check does not depend on the header")
        XCTAssertEqual(try request(server, "GET", "/__sim/journal", headers: ["Origin: null"], host: host).status, 403)
        XCTAssertEqual(try request(server, "GET", "/__sim/journal", headers: ["Origin: http://127.0.0.1:1"], host: host).status, 403,
                       "another port is another origin")
        XCTAssertNil(engine.activeScenario)

        // Same origin: reads are fine; writes still need to be non-simple.
        XCTAssertEqual(try request(server, "GET", "/__sim/scenarios", headers: ["Origin: http://\(host)"], host: host).status, 200)
        let simple = try request(server, "POST", "/__sim/activate?scenario=route-500", headers: ["Origin: http://\(host)"], host: host)
        XCTAssertEqual(simple.status, 403)
        XCTAssertEqual(try reason(simple), "simple-request")
        XCTAssertEqual(try request(server, "POST", "/__sim/activate?scenario=route-500", body: #"{"a":1}"#,
                                   headers: ["Content-Type: text/plain"]).status, 403, "a form-like content type is simple")
        XCTAssertNil(engine.activeScenario)
        XCTAssertEqual(try request(server, "POST", "/__sim/activate", body: #"{"scenario": "route-500"}"#,
                                   headers: ["Origin: http://\(host)", "Content-Type: application/json"], host: host).status, 200)
        XCTAssertEqual(engine.activeScenario, "route-500")
        XCTAssertEqual(try admin(server, "POST", "/__sim/deactivate").status, 200)
        XCTAssertNil(engine.activeScenario)
        XCTAssertEqual(try request(server, "DELETE", "/__sim/journal").status, 403)
    }

    func testAdminToken() throws {
        let engine = builtInEngine(.init(adminEnabled: true, adminToken: "s3cret"))
        let server = try startServer(engine)
        let missing = try get(server, "/__sim/states")
        XCTAssertEqual(missing.status, 401)
        XCTAssertEqual(try reason(missing), "token")
        XCTAssertNotNil(missing.header("WWW-Authenticate"))
        XCTAssertEqual(try request(server, "GET", "/__sim/states", headers: ["Authorization: Bearer s3cre"]).status, 401)
        XCTAssertEqual(try request(server, "GET", "/__sim/states", headers: ["Authorization: Basic s3cret"]).status, 401)
        XCTAssertEqual(try request(server, "GET", "/__sim/states", headers: ["Authorization: Bearer s3cret"]).status, 200)
        XCTAssertEqual(try request(server, "POST", "/__sim/activate?scenario=route-500",
                                   headers: ["Authorization: bearer s3cret", "X-VietMap-Sim-Admin: 1"]).status, 200)
        XCTAssertEqual(engine.activeScenario, "route-500")
    }

    // MARK: Bounded states, paged dump

    func testStatesAreBoundedLeastRecentlyUsedFirst() throws {
        let engine = builtInEngine(.init(adminEnabled: true, maxStates: 50))
        let server = try startServer(engine)
        let kept = search + "scenario:fail-twice-then-succeed@kept"
        XCTAssertEqual(try get(server, kept).status, 500)
        for index in 0..<120 {
            _ = try get(server, search + "scenario:fail-twice-then-succeed@flood\(index)")
            if index % 20 == 0 { _ = try get(server, kept) }  // keeps it recently used
        }
        XCTAssertEqual(try get(server, kept).status, 200, "its counter survived the flood (third call)")
        let counts = engine.stateCounts
        XCTAssertEqual(counts.kept, 50)
        XCTAssertEqual(counts.capacity, 50)
        XCTAssertEqual(counts.evicted, 71)
        XCTAssertEqual(try get(server, search + "scenario:fail-twice-then-succeed@flood0").status, 500,
                       "an evicted client starts over")

        let first = try get(server, "/__sim/states?limit=20").json()
        XCTAssertEqual(first["total"], 50)
        XCTAssertEqual(first["evicted"], 72)
        XCTAssertEqual(first["states"]?.arrayValue?.count, 20)
        XCTAssertEqual(first["states"]?[0]?["apikey"], "scenario:fail-twice-then-succeed@kept", "creation order")
        var ids = first["states"]?.arrayValue?.compactMap { $0["id"]?.intValue } ?? []
        var next = first["next"]?.intValue
        while let cursor = next {
            let page = try get(server, "/__sim/states?limit=20&after=\(cursor)").json()
            ids += page["states"]?.arrayValue?.compactMap { $0["id"]?.intValue } ?? []
            next = page["next"]?.intValue
        }
        XCTAssertEqual(ids.count, 50)
        XCTAssertEqual(ids, ids.sorted())
        XCTAssertEqual(Set(ids).count, 50)
        XCTAssertEqual(try get(server, "/__sim/states?offset=45").json()["states"]?.arrayValue?.count, 5)
        XCTAssertEqual(try get(server, "/__sim/states").json()["limit"], 100)
        for bad in ["limit=0", "limit=501", "limit=x", "after=-1", "offset=1e3"] {
            let response = try get(server, "/__sim/states?" + bad)
            XCTAssertEqual(response.status, 400, bad)
            XCTAssertNotNil(try response.json()["error"]?.stringValue, bad)
        }
    }
}
