@testable import ContractKit
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `IsolatedCall` when calls overlap (scenarios run concurrently): a child must not hold another
/// call's pipe, nor the process's other descriptors (the in-process server's sockets).
final class IsolatedCallTests: XCTestCase {
    /// Quick calls run in a loop on three threads while a fourth thread's calls hang. Without the
    /// fork lock, a hanging child forked while a quick call's pipe was being set up inherits that
    /// call's write end, so the quick call sees no end of file until the hanging child is killed:
    /// it is reported as hung and retried (often several times per run of this test).
    func testAHangingCallDoesNotMakeConcurrentCallsWaitOrRetry() {
        let quickStatistics = CallStatistics(), hangingStatistics = CallStatistics()
        let lock = NSLock()
        nonisolated(unsafe) var hanging: [IsolatedCall.Outcome] = [], quick: [IsolatedCall.Outcome] = []
        nonisolated(unsafe) var done = false
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            if thread == 0 {
                // The hanging child lives 3 s, longer than a quick call's 1.5 s timeout: a quick call
                // that waited for it would be reported hung and retried (counted below). No
                // assertion on elapsed time: a loaded machine may be slow, not wrong.
                for _ in 0..<1 {
                    let outcome = IsolatedCall.run(timeout: 3, statistics: hangingStatistics) { while true { sleep(1) } }
                    lock.withLock { hanging.append(outcome) }
                }
                lock.withLock { done = true }
                return
            }
            while !lock.withLock({ done }) {
                let outcome = IsolatedCall.run(timeout: 1.5, statistics: quickStatistics) { Data("done".utf8) }
                lock.withLock { quick.append(outcome) }
            }
        }
        XCTAssertEqual(hanging, [.hung(seconds: 3)])
        XCTAssertEqual(hangingStatistics.snapshot.calls, 2, "a hang is retried once")
        XCTAssertGreaterThan(quick.count, 10)
        XCTAssertEqual(quick.filter { $0 != .returned(Data("done".utf8)) }, [])
        XCTAssertEqual(quickStatistics.snapshot.calls, quick.count, "quick calls retried after a false hang")
    }

    /// The child keeps only 0, 1, 2 (its stderr pipe) and 3 (its result pipe): a socket the
    /// parent has open — like the in-process server's — is closed in it.
    func testTheChildClosesTheParentsDescriptors() throws {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThan(socketFD, 3)
        defer { close(socketFD) }
        let outcome = IsolatedCall.run(timeout: 10) {
            let open = (0..<Int32(4096)).filter { fcntl($0, F_GETFD) != -1 }
            return Data(open.map(String.init).joined(separator: ",").utf8)
        }
        guard case .returned(let data) = outcome else { return XCTFail("\(outcome)") }
        let open = String(decoding: data, as: UTF8.self).split(separator: ",").compactMap { Int32($0) }
        XCTAssertEqual(open.filter { $0 >= 2 }, [2, 3], "descriptors open in the child: \(open)")
        XCTAssertFalse(open.contains(socketFD))
        // The parent's descriptor is untouched.
        XCTAssertNotEqual(fcntl(socketFD, F_GETFD), -1)
    }

    /// Many overlapping calls all come back with their own answer, none retried.
    func testOverlappingCallsEachGetTheirOwnAnswer() {
        let statistics = CallStatistics()
        nonisolated(unsafe) var answers = [IsolatedCall.Outcome?](repeating: nil, count: 24)
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: answers.count) { index in
            let outcome = IsolatedCall.run(timeout: 10, statistics: statistics) {
                usleep(UInt32(20_000 * (index % 4)))
                return Data("answer \(index)".utf8)
            }
            lock.withLock { answers[index] = outcome }
        }
        for (index, answer) in answers.enumerated() {
            XCTAssertEqual(answer, .returned(Data("answer \(index)".utf8)))
        }
        XCTAssertEqual(statistics.snapshot.calls, answers.count)
    }
}
