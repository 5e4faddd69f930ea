import Foundation
@testable import Scenarios
import XCTest

/// `StateRegistry` under a reload racing the admin API's listing.
final class StateRegistryTests: XCTestCase {
    /// One thread keeps replacing a client's state (each call brings a new revision of the
    /// scenario, as a hot reload does) while another lists the states: the listing reads every
    /// state under the registry's lock, so it never sees one being replaced (run under
    /// `--sanitize=thread` this reported a race before the fix) and always lists whole summaries.
    func testListingWhileReloadedStatesAreReplaced() throws {
        let revisions = try (0..<2).map { index in
            try Scenario(json: Data(#"{"name": "s", "description": "revision \#(index)", "rules": [{"respond": {"status": 500}}]}"#.utf8))
        }
        let registry = StateRegistry(capacity: 64)
        for client in 0..<8 { _ = registry.state(for: revisions[0], clientKey: "c\(client)", apiKey: "k\(client)", seed: 1) }
        // Both at once: one thread replaces states, the other lists them.
        let listings = Locked([StateRegistry.Page]())
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for round in 0..<3_000 {
                if worker == 0 {
                    for client in 0..<8 { _ = registry.state(for: revisions[round % 2], clientKey: "c\(client)", apiKey: "k\(client)", seed: 1) }
                } else {
                    let page = registry.page(after: nil, offset: 0, limit: 100)
                    if round % 100 == 0 { listings.withLock { $0.append(page) } }
                }
            }
        }
        let pages = listings.withLock { $0 }
        XCTAssertEqual(pages.count, 30)
        for page in pages {
            XCTAssertEqual(page.total, 8)
            XCTAssertEqual(page.states.map(\.apiKey), (0..<8).map { "k\($0)" })
            XCTAssertTrue(page.states.allSatisfy { $0.scenario == "s" && $0.state == revisions[0].initialState }, "\(page.states)")
        }
    }
}
