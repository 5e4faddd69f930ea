extension Usage {
    /// The proxy options of `serve` (docs/proxy.md).
    static let serveProxyOptions = """
          --proxy PORT     also run an HTTP proxy on HOST:PORT (0 = any free port; a second stdout line
                           names it) that answers maps.vietmap.vn from this simulator: CONNECT :443
                           (TLS with a certificate from the local CA, tls/ca.pem) and http:// requests;
                           scenarios, journal and dashboard apply. Any other host: 403, never contacted
          --proxy-host HOST
                           also simulate HOST through the proxy; repeatable
          --proxy-pass HOST[:PORT]
                           let the proxy really connect to HOST (any port, or PORT): CONNECT becomes a
                           plain tunnel, http:// requests are forwarded; repeatable
        """
}
