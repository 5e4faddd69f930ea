import Foundation
import Platform

/// Where the app's code (its models' decoding, its polyline decoder) runs during a contract run.
public enum AppCodeIsolation: String, Sendable, CaseIterable {
    /// In contract workers: copies of the test process started with `posix_spawn` (the same
    /// executable and arguments; a hook in ContractKit turns them into workers before any test
    /// runs), each serving calls until the app's code traps — the trap is a finding with the
    /// worker's last stderr lines, and a new worker takes over. Linux and macOS.
    case worker
    /// In the test process, without isolation (the only choice on iOS, where a process cannot
    /// start another). A trap would end the test run, so the polyline decoder is given only
    /// polylines the strict decoder reads; the others are reported as not isolated, as is an
    /// expected crash of a baseline that therefore cannot be observed.
    case inProcess = "in-process"
    /// `worker` where processes can be started, `inProcess` elsewhere.
    case automatic

    /// The environment variable that overrides `automatic` (`worker` or `in-process`), so that
    /// CI can run the same tests both ways.
    public static let environmentVariable = "VIETMAP_CONTRACT_ISOLATION"

    /// `worker` or `inProcess`: `automatic` decided (the environment first), `worker` where
    /// processes cannot be started becomes `inProcess`.
    package func resolved(environment: [String: String] = ProcessInfo.processInfo.environment) -> AppCodeIsolation {
        var choice = self
        if choice == .automatic {
            choice = environment[Self.environmentVariable].flatMap { AppCodeIsolation(rawValue: $0) } ?? .worker
            if choice == .automatic { choice = .worker }
        }
        if choice == .worker && !ChildProcess.canSpawn { return .inProcess }
        return choice
    }
}
