import CGnuTLS
import Foundation
import HTTPServer

/// A certificate authority kept in a directory, and the server certificate it issues for
/// this machine, so that devices and simulators that trust the CA once can reach the
/// server over HTTPS under any of its names.
///
/// Files in `directory`: `ca.pem` (the certificate to trust), `ca-key.pem`, `server.pem`
/// (server certificate followed by the CA), `server-key.pem`. The CA is made once (valid
/// 10 years) and kept; the server certificate (valid 397 days, within Apple's limits) is
/// made again when the machine's addresses change or it expires within 30 days.
/// Keys are ECDSA P-256, signatures SHA-256.
///
/// The directory is kept at mode 0700 and key files are created 0600 (`O_EXCL|O_NOFOLLOW`
/// temporary files renamed into place, never readable by others). A key and its certificate
/// are two renames, so `prepare` checks that each key belongs to its certificate (and the
/// server certificate to the CA) and makes both again when not — after an interrupted run, for
/// example. Generation runs under an exclusive `flock` on `.lock` in the directory, so parallel
/// `serve --tls` processes end with one consistent set.
public struct LocalCertificateAuthority: Sendable {
    /// The result of `prepare`: what to serve with, and what happened.
    public struct Prepared: Sendable {
        public var credentials: TLSCredentials
        /// The CA certificate clients must trust.
        public var caCertificatePath: String
        /// The names in the server certificate: `DNS:…` and `IP:…` entries.
        public var subjectAltNames: [String]
        public var createdCA: Bool
        public var createdServerCertificate: Bool
    }

    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// Makes sure a CA and a server certificate covering `localhost`, 127.0.0.1, ::1,
    /// this host's name and `addresses` exist, creating or renewing them as needed.
    public func prepare(addresses: [String] = LocalAddresses.current()) throws(HTTPServerError) -> Prepared {
        let caPath = file("ca.pem"), caKeyPath = file("ca-key.pem")
        let serverPath = file("server.pem"), serverKeyPath = file("server-key.pem")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw HTTPServerError("cannot create the TLS directory \(directory.path): \(error.localizedDescription)")
        }
        guard chmod(directory.path, 0o700) == 0 else {
            throw HTTPServerError("cannot restrict the TLS directory \(directory.path) to its owner: \(String(cString: strerror(errno)))")
        }
        let lock = try lockDirectory()
        defer { close(lock) }  // releases the flock

        var createdCA = false
        var caCertificate = read(caPath), caKey = read(caKeyPath)
        if caCertificate == nil || caKey == nil || Self.describe(caCertificate!) == nil
            || !Self.isPair(keyPEM: caKey!, certificatePEM: caCertificate!) {
            let made = try Self.generate(issuer: nil, commonName: "vietmap-sim local CA (\(Self.hostName()))",
                                         dnsNames: [], ipAddresses: [], validityDays: 3650)
            try writeFiles([(made.key, caKeyPath, true), (made.certificate, caPath, false)])
            (caCertificate, caKey) = (made.certificate, made.key)
            createdCA = true
        }

        let dnsNames = Self.uniqued(["localhost", Self.hostName(), Self.hostName().isEmpty ? "" : Self.hostName() + ".local"]
            .filter { !$0.isEmpty && !$0.contains(".local.local") })
        let ips = Self.uniqued(["127.0.0.1", "::1"] + addresses)
        let wanted = Set(dnsNames.map { "DNS:" + $0 } + ips.compactMap { Self.canonicalIP($0).map { "IP:" + $0 } })

        var createdServer = false
        var serverCertificate = read(serverPath), serverKey = read(serverKeyPath)
        let current = serverCertificate.flatMap(Self.describe)
        let renewBy = Date().addingTimeInterval(30 * 86_400)
        if createdCA || serverKey == nil || current == nil || Set(current!.names) != wanted || current!.expires < renewBy
            || !Self.isPair(keyPEM: serverKey!, certificatePEM: serverCertificate!, issuerPEM: caCertificate!) {
            let made = try Self.generate(issuer: (caKey!, caCertificate!), commonName: "vietmap-sim (\(Self.hostName()))",
                                         dnsNames: dnsNames, ipAddresses: ips, validityDays: 397)
            let chain = made.certificate + caCertificate!
            try writeFiles([(made.key, serverKeyPath, true), (chain, serverPath, false)])
            (serverCertificate, serverKey) = (chain, made.key)
            createdServer = true
        }
        let names = Self.describe(serverCertificate!)?.names ?? []
        return Prepared(credentials: TLSCredentials(keyPEM: serverKey!, certificatePEM: serverCertificate!),
                        caCertificatePath: caPath.path, subjectAltNames: names,
                        createdCA: createdCA, createdServerCertificate: createdServer)
    }

    /// The subjectAltName entries (`DNS:…`, `IP:…`) and expiry of the first certificate in
    /// a PEM text, or nil when it cannot be read.
    public static func describe(_ certificatePEM: String) -> (names: [String], expires: Date)? {
        var buffer = [CChar](repeating: 0, count: 8192)
        var expires = time_t(0)
        guard vmsim_tls_describe(certificatePEM, &buffer, buffer.count, &expires) == 0, expires > 0 else { return nil }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (text.split(separator: ",").map(String.init), Date(timeIntervalSince1970: TimeInterval(expires)))
    }

    /// Whether `keyPEM` is the private key of the (first) certificate in `certificatePEM` and,
    /// with `issuerPEM`, whether that certificate is signed by the issuer's key. False when
    /// either cannot be read.
    public static func isPair(keyPEM: String, certificatePEM: String, issuerPEM: String? = nil) -> Bool {
        vmsim_tls_check_pair(keyPEM, certificatePEM, issuerPEM) == 1
    }

    // MARK: Generation

    static func generate(issuer: (key: String, certificate: String)?, commonName: String,
                         dnsNames: [String], ipAddresses: [String],
                         validityDays: UInt32) throws(HTTPServerError) -> (key: String, certificate: String) {
        var ipBytes: [UInt8] = []
        var ipLengths: [UInt32] = []
        for address in ipAddresses {
            var v4 = in_addr(), v6 = in6_addr()
            if inet_pton(AF_INET, address, &v4) == 1 {
                ipBytes += withUnsafeBytes(of: &v4) { Array($0) } + [UInt8](repeating: 0, count: 12)
                ipLengths.append(4)
            } else if inet_pton(AF_INET6, address, &v6) == 1 {
                ipBytes += withUnsafeBytes(of: &v6) { Array($0) }
                ipLengths.append(16)
            }
        }
        var cNames = dnsNames.map { strdup($0) }
        defer { cNames.forEach { free($0) } }
        var keyOut: UnsafeMutablePointer<CChar>?
        var certificateOut: UnsafeMutablePointer<CChar>?
        var error = [CChar](repeating: 0, count: 256)
        let rc = cNames.withUnsafeMutableBufferPointer { names -> Int32 in
            names.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: max(1, names.count)) { namePointer in
                vmsim_tls_generate(issuer?.key, issuer?.certificate, commonName,
                                   dnsNames.isEmpty ? nil : namePointer, dnsNames.count,
                                   ipBytes, ipLengths, ipLengths.count, validityDays,
                                   &keyOut, &certificateOut, &error, error.count)
            }
        }
        guard rc == 0, let keyOut, let certificateOut else {
            let message = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw HTTPServerError("could not generate a TLS certificate (GnuTLS: \(message))")
        }
        defer {
            vmsim_tls_free(keyOut)
            vmsim_tls_free(certificateOut)
        }
        return (String(cString: keyOut), String(cString: certificateOut))
    }

    // MARK: Files

    func file(_ name: String) -> URL { directory.appendingPathComponent(name) }

    private func read(_ url: URL) -> String? {
        try? String(contentsOf: url, encoding: .utf8)
    }

    /// Opens `.lock` in the directory and waits for an exclusive `flock` on it; closing the
    /// descriptor releases it.
    private func lockDirectory() throws(HTTPServerError) -> Int32 {
        let path = file(".lock").path
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw HTTPServerError("cannot open \(path): \(String(cString: strerror(errno)))") }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw HTTPServerError("cannot lock \(path): \(reason)")
            }
        }
        return fd
    }

    /// Writes each file to a new temporary file (`O_CREAT|O_EXCL|O_NOFOLLOW`, mode 0600 for
    /// secrets, 0644 otherwise), then renames them into place in order, so a crash never leaves
    /// half a file and a key is never readable by others. A crash between the renames leaves a
    /// key that does not match its certificate, which `prepare` detects.
    private func writeFiles(_ files: [(text: String, url: URL, secret: Bool)]) throws(HTTPServerError) {
        var temporaries: [URL] = []
        defer { temporaries.forEach { unlink($0.path) } }
        for (text, url, secret) in files {
            let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UUID().uuidString).tmp")
            let mode: mode_t = secret ? 0o600 : 0o644
            let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            guard fd >= 0 else { throw HTTPServerError("cannot create \(temporary.path): \(String(cString: strerror(errno)))") }
            temporaries.append(temporary)
            let bytes = Array(text.utf8)
            var offset = 0, failure: String?
            if fchmod(fd, mode) != 0 { failure = "chmod: \(String(cString: strerror(errno)))" }
            while failure == nil, offset < bytes.count {
                let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
                if written > 0 { offset += written } else if written < 0 && errno == EINTR { continue } else {
                    failure = String(cString: strerror(errno))
                }
            }
            if failure == nil, fsync(fd) != 0 { failure = "fsync: \(String(cString: strerror(errno)))" }
            close(fd)
            if let failure { throw HTTPServerError("cannot write \(url.path): \(failure)") }
        }
        for (temporary, file) in zip(temporaries, files) {
            guard rename(temporary.path, file.url.path) == 0 else {
                throw HTTPServerError("cannot write \(file.url.path): rename: \(String(cString: strerror(errno)))")
            }
        }
        temporaries = []
    }

    // MARK: Names

    private static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // Only a valid DNS name can go into a certificate.
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.")
        return name.allSatisfy(allowed.contains) ? name.lowercased() : ""
    }

    private static func canonicalIP(_ text: String) -> String? {
        var v4 = in_addr(), v6 = in6_addr()
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        if inet_pton(AF_INET, text, &v4) == 1 {
            inet_ntop(AF_INET, &v4, &buffer, socklen_t(buffer.count))
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            inet_ntop(AF_INET6, &v6, &buffer, socklen_t(buffer.count))
        } else {
            return nil
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func uniqued(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }
}

/// The machine's own IP addresses, read from its interfaces (getifaddrs; nothing is
/// contacted).
public enum LocalAddresses {
    /// Addresses of interfaces that are up, without loopback and IPv6 link-local ones
    /// (which need a zone and cannot go into a certificate).
    public static func current() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var result: [String] = []
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            let flags = Int32(entry.pointee.ifa_flags)
            guard let address = entry.pointee.ifa_addr, flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0
            else { continue }
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                    var raw = v4.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &raw, &buffer, socklen_t(buffer.count))
                }
            case AF_INET6:
                let isLinkLocal = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 -> Bool in
                    var raw = v6.pointee.sin6_addr
                    let bytes = withUnsafeBytes(of: &raw) { Array($0) }
                    _ = inet_ntop(AF_INET6, &raw, &buffer, socklen_t(buffer.count))
                    return bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80
                }
                if isLinkLocal { continue }
            default:
                continue
            }
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !text.isEmpty, !result.contains(text) { result.append(text) }
        }
        return result
    }
}
