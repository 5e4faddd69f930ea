import Foundation
import HTTPProxy
import HTTPServer
import HTTPTestSupport
import XCTest

/// HTTPS with a generated local CA. FoundationNetworking (libcurl underneath) has no
/// public way to trust an extra CA, so the client here is the `curl` tool with `--cacert`.
final class TLSTests: XCTestCase {
    private func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory
    }

    func testGeneratedCertificateCoversLocalNamesAndIsKeptUntilAddressesChange() throws {
        let directory = try temporaryDirectory()
        let authority = LocalCertificateAuthority(directory: directory)
        let first = try authority.prepare(addresses: ["192.0.2.7", "2001:db8::7"])
        XCTAssertTrue(first.createdCA)
        XCTAssertTrue(first.createdServerCertificate)
        for name in ["DNS:localhost", "IP:127.0.0.1", "IP:::1", "IP:192.0.2.7", "IP:2001:db8::7"] {
            XCTAssertTrue(first.subjectAltNames.contains(name), "\(name) in \(first.subjectAltNames)")
        }
        XCTAssertEqual(first.caCertificatePath, directory.appendingPathComponent("ca.pem").path)
        let keyMode = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("ca-key.pem").path)[.posixPermissions] as? Int
        XCTAssertEqual(keyMode, 0o600)
        let caBefore = try String(contentsOfFile: first.caCertificatePath, encoding: .utf8)

        let same = try authority.prepare(addresses: ["192.0.2.7", "2001:db8::7"])
        XCTAssertFalse(same.createdCA)
        XCTAssertFalse(same.createdServerCertificate)
        XCTAssertEqual(same.credentials.certificatePEM, first.credentials.certificatePEM)

        let moved = try authority.prepare(addresses: ["192.0.2.8"])
        XCTAssertFalse(moved.createdCA, "the CA devices trust is kept")
        XCTAssertTrue(moved.createdServerCertificate)
        XCTAssertTrue(moved.subjectAltNames.contains("IP:192.0.2.8"))
        XCTAssertFalse(moved.subjectAltNames.contains("IP:192.0.2.7"))
        XCTAssertEqual(try String(contentsOfFile: moved.caCertificatePath, encoding: .utf8), caBefore)
    }

    func testServesHTTPSThatCurlVerifiesWithTheCA() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("needs /usr/bin/curl") }
        let prepared = try LocalCertificateAuthority(directory: try temporaryDirectory()).prepare(addresses: [])
        var configuration = HTTPServerConfiguration(threads: 2)
        configuration.tls = prepared.credentials
        let server = try startServer(configuration) { request, response in
            response.send(.json(Data(#"{"path":"\#(request.path)"}"#.utf8)))
        }
        for host in ["127.0.0.1", "localhost"] {
            let (status, output) = try curl(["--cacert", prepared.caCertificatePath, "https://\(host):\(server.port)/secure"])
            XCTAssertEqual(status, 0, "\(host): \(output)")
            XCTAssertEqual(output, #"{"path":"/secure"}"#)
        }
        // Without the CA the certificate is rejected (curl exit 60): verification is real.
        let (untrusted, _) = try curl(["https://127.0.0.1:\(server.port)/secure"])
        XCTAssertEqual(untrusted, 60)
        // Plain HTTP to the TLS port gets no HTTP answer.
        let (plain, _) = try curl(["http://127.0.0.1:\(server.port)/secure"])
        XCTAssertNotEqual(plain, 0)
    }

    func testBrokenKeyIsAClearStartError() throws {
        var configuration = HTTPServerConfiguration(threads: 1)
        configuration.tls = TLSCredentials(keyPEM: "not a key", certificatePEM: "not a certificate")
        let server = HTTPServer(configuration: configuration) { _, response in response.send(.text("x")) }
        XCTAssertThrowsError(try server.start()) { error in
            XCTAssertTrue("\(error)".contains("could not start"), "\(error)")
        }
    }

    private func mode(_ url: URL) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
    }

    /// Every key on disk belongs to its certificate, and the server certificate to the CA.
    private func assertConsistent(_ directory: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        func text(_ name: String) throws -> String { try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8) }
        let ca = try text("ca.pem")
        XCTAssertTrue(LocalCertificateAuthority.isPair(keyPEM: try text("ca-key.pem"), certificatePEM: ca), "CA key/certificate", file: file, line: line)
        XCTAssertTrue(LocalCertificateAuthority.isPair(keyPEM: try text("server-key.pem"), certificatePEM: try text("server.pem"), issuerPEM: ca),
                      "server key/certificate/CA", file: file, line: line)
    }

    func testTheDirectoryIsOwnerOnlyAndKeysAreNeverReadableByOthers() throws {
        let directory = try temporaryDirectory()
        XCTAssertEqual(chmod(directory.path, 0o755), 0)
        _ = try LocalCertificateAuthority(directory: directory).prepare(addresses: [])
        XCTAssertEqual(try mode(directory), 0o700)
        for name in ["ca-key.pem", "server-key.pem"] { XCTAssertEqual(try mode(directory.appendingPathComponent(name)), 0o600, name) }
        for name in ["ca.pem", "server.pem"] { XCTAssertEqual(try mode(directory.appendingPathComponent(name)), 0o644, name) }
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        XCTAssertEqual(left, [".lock", "ca-key.pem", "ca.pem", "server-key.pem", "server.pem"])
        // A fresh directory (and its missing parent) is made owner-only too.
        let nested = directory.appendingPathComponent("a/tls")
        _ = try LocalCertificateAuthority(directory: nested).prepare(addresses: [])
        XCTAssertEqual(try mode(nested), 0o700)
    }

    func testAKeyThatDoesNotMatchItsCertificateIsMadeAgain() throws {
        let directory = try temporaryDirectory(), other = try temporaryDirectory()
        let authority = LocalCertificateAuthority(directory: directory)
        let first = try authority.prepare(addresses: [])
        _ = try LocalCertificateAuthority(directory: other).prepare(addresses: [])
        func copy(_ name: String) throws {
            let target = directory.appendingPathComponent(name)
            try FileManager.default.removeItem(at: target)
            try FileManager.default.copyItem(at: other.appendingPathComponent(name), to: target)
        }
        XCTAssertFalse(LocalCertificateAuthority.isPair(keyPEM: try String(contentsOf: other.appendingPathComponent("ca-key.pem"), encoding: .utf8),
                                                         certificatePEM: first.credentials.certificatePEM))

        // The CA key of another run next to this CA certificate (an interrupted first run).
        try copy("ca-key.pem")
        let caAgain = try authority.prepare(addresses: [])
        XCTAssertTrue(caAgain.createdCA)
        XCTAssertTrue(caAgain.createdServerCertificate)
        try assertConsistent(directory)

        // Another server key: only the server certificate is made again, the CA is kept.
        try copy("server-key.pem")
        let serverAgain = try authority.prepare(addresses: [])
        XCTAssertFalse(serverAgain.createdCA)
        XCTAssertTrue(serverAgain.createdServerCertificate)
        try assertConsistent(directory)

        // A matching server key and certificate, but issued by another CA.
        try copy("server-key.pem")
        try copy("server.pem")
        let reissued = try authority.prepare(addresses: [])
        XCTAssertFalse(reissued.createdCA)
        XCTAssertTrue(reissued.createdServerCertificate)
        try assertConsistent(directory)
        XCTAssertFalse(try authority.prepare(addresses: []).createdServerCertificate, "a consistent set is kept")
    }

    func testParallelFirstRunsEndWithOneConsistentSet() throws {
        let directory = try temporaryDirectory().appendingPathComponent("tls")
        let runs = 6
        nonisolated(unsafe) var results = [Result<LocalCertificateAuthority.Prepared, HTTPServerError>?](repeating: nil, count: runs)
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: runs) { index in
            let result = Result { () throws(HTTPServerError) in try LocalCertificateAuthority(directory: directory).prepare(addresses: []) }
            lock.withLock { results[index] = result }
        }
        let prepared = try results.map { try XCTUnwrap($0).get() }
        XCTAssertEqual(prepared.filter(\.createdCA).count, 1, "one run made the CA, the others used it")
        XCTAssertEqual(Set(prepared.map(\.credentials.certificatePEM)).count, 1)
        XCTAssertEqual(Set(prepared.map(\.credentials.keyPEM)).count, 1)
        try assertConsistent(directory)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".tmp") }, [])
    }

    private func curl(_ arguments: [String]) throws -> (Int32, String) {
        try CLIRunner.curl(["--noproxy", "*"] + arguments)
    }
}
