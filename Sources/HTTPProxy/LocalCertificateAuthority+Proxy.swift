import Foundation
import HTTPServer

extension LocalCertificateAuthority {
    /// What the proxy (`serve --proxy`) shows clients: a certificate for `hosts` (DNS names or
    /// IP literals) signed by this CA, made in memory at every start (ECDSA P-256, 397 days) —
    /// only the CA is kept on disk, so a device that trusts `ca.pem` trusts every proxied host.
    public func proxyCertificate(for hosts: [String]) throws(HTTPServerError) -> (credentials: TLSCredentials, caCertificatePath: String) {
        let prepared = try prepare()
        guard let caCertificate = try? String(contentsOf: file("ca.pem"), encoding: .utf8),
              let caKey = try? String(contentsOf: file("ca-key.pem"), encoding: .utf8),
              Self.isPair(keyPEM: caKey, certificatePEM: caCertificate) else {
            throw HTTPServerError("cannot read the local CA in \(directory.path) (ca.pem, ca-key.pem)")
        }
        var dnsNames: [String] = [], ips: [String] = []
        for host in hosts {
            var v4 = in_addr(), v6 = in6_addr()
            if inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1 {
                ips.append(host)
            } else if !dnsNames.contains(host) {
                dnsNames.append(host)
            }
        }
        let made = try Self.generate(issuer: (caKey, caCertificate), commonName: dnsNames.first ?? ips.first ?? "vietmap-sim proxy",
                                     dnsNames: dnsNames, ipAddresses: ips, validityDays: 397)
        return (TLSCredentials(keyPEM: made.key, certificatePEM: made.certificate + caCertificate), prepared.caCertificatePath)
    }
}
