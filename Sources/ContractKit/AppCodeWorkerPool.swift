import Foundation
import Platform

/// The test process' side of `AppCodeIsolation.worker`: contract workers started on demand (one
/// per concurrent call at most), each reused until the app's code traps or hangs in it.
///
/// A worker is this process' own executable started again with the same arguments and
/// `VIETMAP_CONTRACT_WORKER=1` (the `ContractWorkerHook` constructor turns it into a worker before
/// `main`): requests go to its descriptor 3, answers come from its 4, and its stdout and stderr
/// come back on one pipe whose last lines are a crash's message. `posix_spawn` only — no
/// `fork()` — so it behaves the same on Linux and macOS.
final class AppCodeWorkerPool: @unchecked Sendable {
    // @unchecked: `idle` and `started` under `lock`; a checked-out worker belongs to one call.
    /// How a call ended.
    enum Outcome: Sendable, Equatable {
        case returned(Data)
        case crashed(signal: Int32, message: String)
        case hung(seconds: Double)
        case failed(String)
        /// The worker does not know the code asked for (a type it cannot find by name).
        case refused(String)
    }

    private final class Worker {
        let pid: pid_t
        let requests: Int32, answers: Int32, messages: Int32
        var pending = Data()
        var messageTail = Data()
        init(pid: pid_t, requests: Int32, answers: Int32, messages: Int32) {
            self.pid = pid
            self.requests = requests
            self.answers = answers
            self.messages = messages
        }
        func closeDescriptors() { close(requests); close(answers); close(messages) }
    }

    private let lock = NSLock()
    private var idle: [Worker] = []
    private var startedCount = 0
    private let provider: String

    /// - Parameter provider: the mangled name of the contract's `AppContractProvider` type, "" for none.
    init(provider: String) {
        self.provider = provider
    }

    deinit { shutDown() }

    /// Workers started so far.
    var started: Int { lock.withLock { startedCount } }

    /// Ends the idle workers (their request pipe closed, they exit) and reaps them.
    func shutDown() {
        let workers = lock.withLock { () -> [Worker] in
            defer { idle = [] }
            return idle
        }
        for worker in workers {
            worker.closeDescriptors()
            _ = ChildProcess.wait(worker.pid)
        }
    }

    /// Sends one request and waits for its answer; `trace` gets each trace line as it arrives.
    func call(kind: UInt8, name: String, type: String, input: Data, timeout: TimeInterval,
              trace: ((String) -> Void)? = nil) -> Outcome {
        let worker: Worker
        switch checkOut() {
        case .success(let ready): worker = ready
        case .failure(let error): return .failed(error.description)
        }
        drainMessages(worker)
        worker.messageTail = Data()
        let request = WorkerFrame.encode(kind: kind, fields: [Data(name.utf8), Data(type.utf8), input])
        guard WorkerFrame.writeAll(request, to: worker.requests) else { return ended(worker) }
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var answersOpen = true
        while true {
            if let frame = nextFrame(worker) {
                switch frame.kind {
                case WorkerFrame.traceLine:
                    trace?(String(decoding: frame.body, as: UTF8.self))
                    continue
                case WorkerFrame.result:
                    checkIn(worker)
                    return .returned(frame.body)
                case WorkerFrame.refused:
                    checkIn(worker)
                    return .refused(String(decoding: frame.body, as: UTF8.self))
                default:
                    kill(worker.pid, SIGKILL)
                    return ended(worker, note: "the contract worker sent a frame of unknown kind \(frame.kind)")
                }
            }
            if !answersOpen { return ended(worker) }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 {
                kill(worker.pid, SIGKILL)
                _ = ended(worker)
                return .hung(seconds: timeout)
            }
            var fds = [pollfd(fd: worker.answers, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: worker.messages, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, nfds_t(fds.count), Int32(min(remaining, 1) * 1000) + 1)
            if ready < 0 && errno != EINTR { return ended(worker, note: "poll: \(String(cString: strerror(errno)))") }
            if fds[1].revents != 0 { drainMessages(worker) }
            if fds[0].revents != 0 {
                let count = read(worker.answers, &buffer, buffer.count)
                if count > 0 {
                    worker.pending.append(contentsOf: buffer[0..<count])
                } else if count == 0 || errno != EINTR {
                    answersOpen = false
                }
            }
        }
    }

    /// The worker's answer pipe closed: it ended. How, from its exit status and last messages.
    private func ended(_ worker: Worker, note: String? = nil) -> Outcome {
        drainMessages(worker)
        worker.closeDescriptors()
        let termination = ChildProcess.wait(worker.pid)
        let message = Self.crashMessage(String(decoding: worker.messageTail, as: UTF8.self))
        if let note { return .failed(note) }
        switch termination {
        case .signalled(let signal)?:
            return .crashed(signal: signal, message: message)
        case .exited(let code)? where code > 128 && code < 128 + 65:
            return .crashed(signal: code - 128, message: message)
        case .exited(let code)?:
            return .failed("the contract worker exited with code \(code)\(message.isEmpty ? "" : ": " + message)")
        case nil:
            return .failed("the contract worker could not be waited for")
        }
    }


    /// The last lines a worker wrote before it ended, without the stack trace the runtime prints
    /// after "Fatal error: …" (`Current stack trace:` and its frames).
    static func crashMessage(_ text: String) -> String {
        var text = Substring(text)
        if let trace = text.range(of: "Current stack trace:") { text = text[..<trace.lowerBound] }
        return text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .suffix(3).joined(separator: " | ")
    }

    /// A whole answer frame from what the worker sent so far, if there is one.
    private func nextFrame(_ worker: Worker) -> (kind: UInt8, body: Data)? {
        let data = worker.pending
        guard data.count >= 5 else { return nil }
        let size = Int(WorkerFrame.readLength(data, at: data.startIndex + 1))
        guard data.count >= 5 + size else { return nil }
        let kind = data[data.startIndex]
        let body = data.subdata(in: data.startIndex + 5..<data.startIndex + 5 + size)
        worker.pending = data.subdata(in: data.startIndex + 5 + size..<data.endIndex)
        return (kind, body)
    }

    /// Reads what the worker wrote to stdout/stderr so far without blocking; keeps the last 64 KiB.
    private func drainMessages(_ worker: Worker) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            var fd = pollfd(fd: worker.messages, events: Int16(POLLIN), revents: 0)
            guard poll(&fd, 1, 0) > 0 else { return }
            let count = read(worker.messages, &buffer, buffer.count)
            guard count > 0 else { return }
            worker.messageTail.append(contentsOf: buffer[0..<count])
            if worker.messageTail.count > 65_536 { worker.messageTail = worker.messageTail.suffix(65_536) }
        }
    }

    private func checkIn(_ worker: Worker) {
        lock.withLock { idle.append(worker) }
    }

    private func checkOut() -> Result<Worker, SpawnError> {
        if let worker = lock.withLock({ idle.popLast() }) { return .success(worker) }
        return start()
    }

    /// Starts a worker: this executable again, same arguments, the worker's environment.
    private func start() -> Result<Worker, SpawnError> {
        guard let executable = ChildProcess.executablePath else { return .failure(SpawnError(code: ENOENT)) }
        guard let requests = ChildProcess.pipe() else { return .failure(SpawnError(code: errno)) }
        guard let answers = ChildProcess.pipe() else {
            close(requests.read); close(requests.write)
            return .failure(SpawnError(code: errno))
        }
        guard let messages = ChildProcess.pipe() else {
            for fd in [requests.read, requests.write, answers.read, answers.write] { close(fd) }
            return .failure(SpawnError(code: errno))
        }
        var environment = ProcessInfo.processInfo.environment
        environment["VIETMAP_CONTRACT_WORKER"] = "1"
        environment[ContractWorker.providerVariable] = provider
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let spawned = ChildProcess.spawn(path: executable, arguments: Array(CommandLine.arguments.dropFirst()), environment: environment,
                                         descriptors: [1: messages.write, 2: messages.write,
                                                       WorkerFrame.requestDescriptor: requests.read,
                                                       WorkerFrame.answerDescriptor: answers.write])
        close(requests.read); close(answers.write); close(messages.write)
        switch spawned {
        case .success(let pid):
            lock.withLock { startedCount += 1 }
            return .success(Worker(pid: pid, requests: requests.write, answers: answers.read, messages: messages.read))
        case .failure(let error):
            close(requests.write); close(answers.read); close(messages.read)
            return .failure(error)
        }
    }
}
