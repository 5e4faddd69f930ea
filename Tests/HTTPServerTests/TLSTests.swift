import Foundation
import HTTPServer
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

    private func curl(_ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["--silent", "--show-error", "--max-time", "10", "--noproxy", "*"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
