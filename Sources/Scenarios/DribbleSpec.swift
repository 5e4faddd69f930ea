import HTTPServer

/// Sends the body in `chunks` pieces spread over `overMs` milliseconds (`"dribble"`), the
/// first piece right away with the headers. No thread is held meanwhile.
struct DribbleSpec: Sendable, Equatable {
    var chunks: Int
    var overMs: Int

    var transport: TransportBehaviour {
        .dribble(chunks: chunks, intervalMilliseconds: chunks > 1 ? overMs / (chunks - 1) : 0)
    }
}
