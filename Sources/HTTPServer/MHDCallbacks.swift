import CMicroHTTPD
import Foundation

// The C callbacks registered with libmicrohttpd. They are file-scope functions (a
// capturing @convention(c) closure crashes the Swift 6 compiler); state travels through
// the `cls` / `con_cls` pointers as Unmanaged references.

/// MHD_OPTION_URI_LOG_CALLBACK: called once per request with the raw target, before the
/// access handler. The returned context becomes `*con_cls` (one retain, released in
/// `requestCompleted`). This is the only place MHD shows the query string losslessly.
func uriLogged(_ cls: UnsafeMutableRawPointer?, _ uri: UnsafePointer<CChar>?,
               _ connection: OpaquePointer?) -> UnsafeMutableRawPointer? {
    guard let cls, let uri, let connection else { return nil }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    let tracked = vmsim_connection_socket_context(connection)
        .map { Unmanaged<TrackedConnection>.fromOpaque($0).takeUnretainedValue() }
    let context = RequestContext(core: core, connection: connection, rawTarget: uri, tracked: tracked)
    if let tracked { core.connectionGuard.requestStarted(tracked) }
    hideQueryFromMHD(uri)
    return Unmanaged.passRetained(context).toOpaque()
}

/// Ends the target string right after its `?`, so that MHD parses no query arguments.
///
/// MHD (0.9.x) calls the URI-log callback after locating the `?` and before splitting the
/// query into arguments, which it stores in the connection's memory pool (~50 bytes each):
/// a few hundred `&x` would exhaust the pool, and the request would then get no answer at
/// all. The server parses the raw query itself (`RequestContext.target`), so MHD's copy is
/// not needed. The buffer is MHD's own read buffer, writable for the connection's lifetime.
private func hideQueryFromMHD(_ uri: UnsafePointer<CChar>) {
    guard let mark = strchr(uri, Int32(UInt8(ascii: "?"))) else { return }
    let afterMark = UnsafeMutablePointer(mutating: mark) + 1
    afterMark.pointee = 0
}

/// MHD_OPTION_NOTIFY_CONNECTION: a TCP connection opened or closed. Its `TrackedConnection`
/// lives in MHD's socket context (one retain, released on close).
func connectionNotified(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                        _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                        _ code: MHD_ConnectionNotificationCode) {
    guard let cls, let connection, let socketContext else { return }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    switch code {
    case .CONNECTION_NOTIFY_STARTED:
        let tracked = core.connectionGuard.opened(socket: vmsim_connection_fd(connection))
        socketContext.pointee = Unmanaged.passRetained(tracked).toOpaque()
    default:
        guard let raw = socketContext.pointee else { return }
        socketContext.pointee = nil
        let tracked = Unmanaged<TrackedConnection>.fromOpaque(raw).takeRetainedValue()
        core.connectionGuard.closed(tracked)
    }
}

/// MHD_OPTION_NOTIFY_COMPLETED: the request is over (answered, failed or the daemon is
/// stopping). Releases the context created by `uriLogged`.
func requestCompleted(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                      _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                      _ reason: MHD_RequestTerminationCode) {
    guard let conCls, let raw = conCls.pointee else { return }
    conCls.pointee = nil
    let context = Unmanaged<RequestContext>.fromOpaque(raw).takeRetainedValue()
    context.complete()
    if let tracked = context.tracked { context.core.connectionGuard.requestCompleted(tracked) }
}

/// The MHD access handler. MHD calls it (on the connection's thread):
/// 1. once when the headers are in (`*upload_data_size == 0`): only checks limits, so the
///    answer comes later and the connection stays keep-alive;
/// 2. once per body piece (`*upload_data_size > 0`): accumulate and mark consumed;
/// 3. once when the request is complete: run the handler;
/// 4. again after a suspended request is resumed: queue the response `send` stored.
func accessHandler(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                   _ url: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?,
                   _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
                   _ uploadDataSize: UnsafeMutablePointer<Int>?,
                   _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> MHD_Result {
    guard let connection, let conCls, let raw = conCls.pointee, let uploadDataSize else { return .NO }
    let context = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
    let limits = context.core.configuration

    if !context.headersSeen {
        context.headersSeen = true
        if let tracked = context.tracked { context.core.connectionGuard.headComplete(tracked) }
        context.headers = requestHeaders(connection)
        if let framing = RequestFraming.rejection(for: context.headers) {
            // Answer before any body is read; the connection is closed after the answer.
            if let tracked = context.tracked { context.core.connectionGuard.dispatched(tracked) }
            context.markResponding()
            var response = HTTPResponse.serverError(status: framing.status, message: framing.message,
                                                    extraHeaders: limits.errorResponseHeaders)
            response.headers.set("Connection", "close")
            return queue(response, for: context)
        }
        if context.targetByteCount > limits.maxURLLength {
            context.rejection = .serverError(status: 414, message: "request URI too long", extraHeaders: limits.errorResponseHeaders)
        } else if let declared = context.headers["Content-Length"].flatMap({ Int($0) }),
                  declared > limits.maxBodyBytes {
            // Answer before the body is sent (MHD then closes the connection).
            if let tracked = context.tracked { context.core.connectionGuard.dispatched(tracked) }
            context.markResponding()
            return queue(.serverError(status: 413, message: "request body too large", extraHeaders: limits.errorResponseHeaders), for: context)
        }
        return .YES
    }

    let pieceSize = uploadDataSize.pointee
    if pieceSize > 0 {
        uploadDataSize.pointee = 0
        guard context.rejection == nil else { return .YES }  // discard
        guard context.body.count + pieceSize <= limits.maxBodyBytes else {
            // A body without Content-Length (chunked) grew too large. MHD 0.9.75 refuses to
            // queue a response mid-upload, so the rest is read and discarded, and the 413
            // goes out when the request is complete.
            context.body = Data()
            context.rejection = .serverError(status: 413, message: "request body too large", extraHeaders: limits.errorResponseHeaders)
            return .YES
        }
        if let uploadData {
            context.body.append(UnsafeRawPointer(uploadData).assumingMemoryBound(to: UInt8.self), count: pieceSize)
        }
        return .YES
    }

    if context.dispatched {
        guard let response = context.takeResumedResponse() else { return .NO }
        return queue(response, for: context)
    }
    context.dispatched = true
    if let tracked = context.tracked { context.core.connectionGuard.dispatched(tracked) }
    guard !context.core.isStopping else { return .NO }  // past the drain deadline: no new work

    if let rejection = context.rejection {
        context.markResponding()
        return queue(rejection, for: context)
    }

    var request = HTTPRequest(method: method.map { String(cString: $0) } ?? "GET", target: context.target,
                              headers: context.headers, body: context.body)
    request.clientAddress = context.tracked?.peerAddress
    if context.queryHadInvalidUTF8, request.queryError == nil {
        request.queryError = .invalidUTF8(component: request.rawQuery)
        request.query = QueryParameters()
    }
    context.body = Data()
    context.headers = HTTPHeaders()

    context.beginHandling()
    context.core.responder.respond(to: request, reply: ResponseHandle(context: context))
    switch context.finishHandling() {
    case .respond(let response):
        return queue(response, for: context)
    case .suspended:
        return .YES
    case .close:
        return .NO
    }
}

/// Collects the request headers in the order received.
private func requestHeaders(_ connection: OpaquePointer) -> HTTPHeaders {
    let collector = HeaderCollector()
    // One allocation for the fields: MHD counts them without an iterator.
    collector.headers.reserveCapacity(Int(MHD_get_connection_values(connection, .HEADER_KIND, nil, nil)))
    withExtendedLifetime(collector) {
        _ = MHD_get_connection_values(connection, .HEADER_KIND, collectHeader,
                                      Unmanaged.passUnretained(collector).toOpaque())
    }
    return collector.headers
}

private final class HeaderCollector {
    var headers = HTTPHeaders()
}

private func collectHeader(_ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?,
                           _ value: UnsafePointer<CChar>?) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let collector = Unmanaged<HeaderCollector>.fromOpaque(cls).takeUnretainedValue()
    collector.headers.add(String(cString: key), value.map { String(cString: $0) } ?? "")
    return .YES
}
