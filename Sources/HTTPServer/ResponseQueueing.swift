import CMicroHTTPD
import Foundation
import Platform

/// Hands `response` to MHD for the request of `context`, applying its transport
/// behaviour. Returns what the access handler must return: .NO makes MHD close the
/// connection without sending anything more.
func queue(_ response: HTTPResponse, for context: RequestContext) -> MHD_Result {
    let body = response.body
    // An explicit Content-Length that matches the body changes nothing (MHD computes the
    // same); a wrong one is sent verbatim, and the body then ends by closing the connection.
    let declaredLength = response.headers["Content-Length"]?.trimmingCharacters(in: .whitespaces)
    let overridesLength = declaredLength.map { $0 != String(body.count) } ?? false

    var sendLimit = body.count
    var chunks = 1
    var interval = 0
    switch response.transport {
    case .closeWithoutResponse:
        return .NO
    case .reset:
        abortWithReset(context.connection)
        return .NO
    case .truncate(let afterBytes):
        sendLimit = afterBytes
    case .dribble(let count, let intervalMilliseconds):
        chunks = count
        interval = intervalMilliseconds
    case .normal:
        break
    }

    let mhdResponse: OpaquePointer?
    if sendLimit < body.count || (chunks > 1 && body.count > 1) || overridesLength {
        mhdResponse = BodyStream(context: context, body: body, sendLimit: sendLimit, chunks: chunks,
                                 intervalMilliseconds: interval, announcesLength: !overridesLength).makeResponse()
    } else if body.count >= HeldBody.minimumBytes {
        mhdResponse = HeldBody.makeResponse(body)
    } else {
        mhdResponse = body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                            .RESPMEM_MUST_COPY)
        }
    }
    guard let mhdResponse else { return .NO }
    defer { MHD_destroy_response(mhdResponse) }

    for (name, value) in response.headers.fields where !HTTPHeaders.sameName(name, "Content-Length") {
        // MHD refuses malformed fields (e.g. containing CR/LF); they are dropped. `withCString` lends a native
        // string's own bytes (the implicit conversion made a copy of each).
        _ = name.withCString { name in value.withCString { value in MHD_add_response_header(mhdResponse, name, value) } }
    }
    if context.core.isDraining {
        // Shutting down: finish this request, then close instead of waiting for another.
        _ = MHD_add_response_header(mhdResponse, "Connection", "close")
    }
    if overridesLength, let declaredLength {
        // HTTP/1.0-compatible mode: no chunked encoding, the body ends when the connection closes.
        _ = vmsim_set_response_flags(mhdResponse, [.RF_INSANITY_HEADER_CONTENT_LENGTH, .RF_HTTP_1_0_COMPATIBLE_STRICT])
        _ = MHD_add_response_header(mhdResponse, "Content-Length", declaredLength)
    }
    guard (100...999).contains(response.status) else { return .NO }
    return MHD_queue_response(context.connection, UInt32(response.status), mhdResponse)
}

/// Makes the kernel answer the client with a TCP RST instead of a FIN, although MHD still
/// calls shutdown(SHUT_WR) and close() on the socket (``Sockets/abortWithReset(_:)``).
private func abortWithReset(_ connection: OpaquePointer) {
    let fd = vmsim_connection_fd(connection)
    guard fd >= 0 else { return }
    Sockets.abortWithReset(fd)
}

/// A response body MHD sends from the `Data` itself, without the copy `RESPMEM_MUST_COPY` makes (a
/// malloc and a memcpy per answer: a cached tile is 10 KB on average, up to a few hundred). The
/// `Data` is held until MHD frees the response.
///
/// The bytes' address is stable while held: a `Data` of more than 14 bytes keeps them in a
/// heap storage it shares (copy-on-write: holding it makes any later change elsewhere copy).
/// Smaller bodies sit inline in the `Data` value itself and are copied.
private final class HeldBody {
    /// Bodies below this are copied (far above the 14 bytes a `Data` holds inline; a copy is as cheap).
    static let minimumBytes = 1024

    let body: Data

    private init(_ body: Data) {
        self.body = body
    }

    static func makeResponse(_ body: Data) -> OpaquePointer? {
        let held = HeldBody(body)
        let base = held.body.withUnsafeBytes { UnsafeMutableRawPointer(mutating: $0.baseAddress) }
        let retained = Unmanaged.passRetained(held)
        guard let response = MHD_create_response_from_buffer_with_free_callback_cls(
            held.body.count, base, releaseHeldBody, retained.toOpaque())
        else {
            retained.release()
            return nil
        }
        return response
    }
}

private func releaseHeldBody(_ cls: UnsafeMutableRawPointer?) {
    guard let cls else { return }
    Unmanaged<HeldBody>.fromOpaque(cls).release()
}
