import Foundation

/// How a request's body is delimited (RFC 9112 §6), checked when its head is complete:
/// the cases libmicrohttpd 0.9.75 gets wrong are refused before any body is read.
///
/// - Several `Content-Length` fields (or values) that differ: 400. libmicrohttpd would use
///   the first, a proxy in front might use another (request smuggling).
/// - `Transfer-Encoding` together with `Content-Length`: 400.
/// - `Transfer-Encoding` whose final coding is not `chunked` (e.g. `gzip`): 400, as the body
///   length cannot be determined; `chunked` after other codings (e.g. `gzip, chunked`): 501,
///   as the server decodes no other coding. libmicrohttpd would otherwise read such a body
///   until the connection closes, holding the request without an answer.
///
/// A single valid `Content-Length`, repeated identical values, and plain `chunked` pass.
/// Malformed `Content-Length` values are left to libmicrohttpd (it answers 400 itself).
enum RequestFraming {
    struct Rejection: Equatable {
        var status: Int
        var message: String
    }

    /// Why the head `headers` cannot be framed safely, or nil when it can.
    static func rejection(for headers: HTTPHeaders) -> Rejection? {
        let lengths = headers.values(for: "Content-Length").flatMap(listElements)
        let codings = headers.values(for: "Transfer-Encoding").flatMap(listElements).map { $0.lowercased() }
        if Set(lengths).count > 1 {
            return Rejection(status: 400, message: "conflicting Content-Length values")
        }
        guard !codings.isEmpty || headers.contains("Transfer-Encoding") else { return nil }
        if !lengths.isEmpty {
            return Rejection(status: 400, message: "both Transfer-Encoding and Content-Length")
        }
        if codings.last != "chunked" {
            return Rejection(status: 400, message: "Transfer-Encoding must end with chunked")
        }
        if codings.count > 1 {
            return Rejection(status: 501, message: "unsupported transfer coding")
        }
        return nil
    }

    /// The comma-separated elements of a field value, trimmed, empty ones dropped.
    private static func listElements(_ value: String) -> [String] {
        value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
