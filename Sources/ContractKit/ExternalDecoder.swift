import Foundation
import Platform

/// An app's models and decoder in any language: a shell command run once per answer
/// (`vietmap-sim contract --decoder 'node decode.js'`).
///
/// The protocol: `/bin/sh -c 'COMMAND "$@"' vietmap-decoder ENDPOINT` — the endpoint's name
/// (`autocomplete`, `place`, `route`, `reverse-v3`, …) as the command's first argument, the response
/// body on standard input, `VIETMAP_ENDPOINT`, `VIETMAP_QUERY` (the request's query string, without
/// the key) and `VIETMAP_STATUS` in its environment. Exit 0: the app's models decoded it. Another
/// exit status: a decode failure, standard error the message (a first line `/json/pointer: message`
/// names the place). Killed by a signal (or an exit status 128+N from a shell that was) or not done
/// within the timeout: a crash (hang) of the app's code. The command runs for every answer, errors
/// included; the decoder decides what its client would decode (`VIETMAP_STATUS`).
package struct ExternalDecoder: Sendable {
    package let command: String
    /// How findings name it: `decoder 'node decode.js'`.
    package var name: String { "decoder '\(command)'" }
    /// Identity for gap rules (an app's "type").
    let token = Token()

    final class Token: Sendable {}

    package init(command: String) {
        self.command = command
    }

    /// The most standard error kept (bytes).
    static let stderrLimit = 64 * 1024

    /// Runs the command on one answer (`ChildProcess.spawn`: Foundation's `Process` is not safe to
    /// start from many threads at once on Linux, and scenarios run concurrently).
    func decode(_ body: Data, endpoint: String, query: String, status: Int, timeout: TimeInterval) -> DecodeVerdict {
        var environment = ProcessInfo.processInfo.environment
        environment["VIETMAP_ENDPOINT"] = endpoint
        environment["VIETMAP_QUERY"] = query
        environment["VIETMAP_STATUS"] = String(status)
        // A decoder that exits without reading all of its input must not end this process.
        Signals.ignoreBrokenPipes()
        guard let input = ChildProcess.pipe() else { return .failed("\(name): pipe: \(String(cString: strerror(errno)))") }
        guard let errors = ChildProcess.pipe() else {
            close(input.read); close(input.write)
            return .failed("\(name): pipe: \(String(cString: strerror(errno)))")
        }
        let spawned = ChildProcess.spawn(path: "/bin/sh", arguments: ["-c", command + " \"$@\"", "vietmap-decoder", endpoint],
                                         environment: environment, descriptors: [0: input.read, 2: errors.write])
        close(input.read)
        close(errors.write)
        let pid: pid_t
        switch spawned {
        case .success(let started): pid = started
        case .failure(let error):
            close(input.write); close(errors.read)
            return .failed("\(name) could not be started: \(error)")
        }
        // Feed stdin (non-blocking, between reads of stderr): a decoder that does not read its
        // input, or writes a lot to stderr, must block neither side.
        _ = fcntl(input.write, F_SETFL, fcntl(input.write, F_GETFL) | O_NONBLOCK)
        var stderrText = Data()
        var offset = 0
        var inputOpen = true, errorsOpen = true
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        if body.isEmpty { close(input.write); inputOpen = false }
        while errorsOpen {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 {
                kill(pid, SIGKILL)
                if inputOpen { close(input.write) }
                close(errors.read)
                _ = ChildProcess.wait(pid)
                return .hung(seconds: timeout)
            }
            var fds = [pollfd(fd: errors.read, events: Int16(POLLIN), revents: 0)]
            if inputOpen { fds.append(pollfd(fd: input.write, events: Int16(POLLOUT), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), Int32(min(remaining, 1) * 1000) + 1)
            if ready < 0 && errno != EINTR { break }
            if inputOpen, fds.count > 1, fds[1].revents != 0 {
                let written = body.withUnsafeBytes { raw in write(input.write, raw.baseAddress! + offset, raw.count - offset) }
                if written > 0 { offset += written }
                if written < 0 && errno != EAGAIN && errno != EINTR || offset >= body.count {
                    close(input.write)
                    inputOpen = false
                }
            }
            if fds[0].revents != 0 {
                let count = read(errors.read, &buffer, buffer.count)
                if count > 0 {
                    if stderrText.count < Self.stderrLimit { stderrText.append(contentsOf: buffer[0..<min(count, Self.stderrLimit - stderrText.count)]) }
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    errorsOpen = false
                }
            }
        }
        if inputOpen { close(input.write) }
        close(errors.read)
        let termination = ChildProcess.wait(pid)
        let text = String(decoding: stderrText, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard case .exited(let code)? = termination else {
            if case .signalled(let signal)? = termination { return .crashed(signal: signal, message: Self.lastLines(text)) }
            return .failed("\(name): the command could not be waited for")
        }
        if code == 0 { return .decoded }
        if code > 128 && code < 128 + 65 { return .crashed(signal: code - 128, message: Self.lastLines(text)) }
        return Self.failure(text, code: code)
    }

    /// `/0/ref_id: refId is required` → pointer `/0/ref_id`; otherwise the first line, no pointer.
    static func failure(_ text: String, code: Int32) -> DecodeVerdict {
        let first = text.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? ""
        guard !first.isEmpty else { return .threw(message: "exit status \(code), no message", pointer: nil) }
        if first.hasPrefix("/"), let colon = first.range(of: ": ") {
            let pointer = String(first[..<colon.lowerBound])
            if !pointer.contains(" ") { return .threw(message: String(first[colon.upperBound...]), pointer: pointer) }
        }
        return .threw(message: first, pointer: nil)
    }

    static func lastLines(_ text: String) -> String {
        text.split(separator: "\n").suffix(3).joined(separator: " | ")
    }

    /// `a=b&c=d` of the request, percent-encoded, without `apikey`.
    static func queryString(_ parameters: [(name: String, value: String)]) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+;")
        return parameters.filter { $0.name.lowercased() != "apikey" }.map { parameter in
            (parameter.name.addingPercentEncoding(withAllowedCharacters: allowed) ?? parameter.name) + "="
                + (parameter.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? parameter.value)
        }.joined(separator: "&")
    }
}
