/// The one writer of `{"code":…,"message":…}` bodies: VietMap's errors of the search family
/// (`ErrorEnvelope.codeMessage`) and the answers the transport gives itself (the server's 413 and 414,
/// the proxy's refusals), with any `extra` members after those two.
public enum CodeMessageBody {
    /// The body's bytes.
    public static func bytes(code: String, message: String, extra: [(String, JSONValue)] = []) -> [UInt8] {
        var writer = JSONWriter(capacity: 64 + message.utf8.count)
        writer.beginObject()
        writer.member("code", code)
        writer.member("message", message)
        for (name, value) in extra {
            writer.key(name)
            writer.value(value)
        }
        writer.endObject()
        return writer.bytes
    }
}
