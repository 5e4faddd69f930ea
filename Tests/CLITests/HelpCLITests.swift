import Foundation
import SimTesting
import VietMapWire
import XCTest

/// Help that cannot drift and mistakes that get a hint (issue #37): the main help lists every
/// endpoint of the wire home and every command; `help X` works for every command and is an error
/// for anything else; a mistyped command or option names the nearest one.
final class HelpCLITests: XCTestCase {
    var binary: URL {
        CLIRunner.executable(besideBundleOf: HelpCLITests.self)
            ?? Bundle(for: HelpCLITests.self).bundleURL.deletingLastPathComponent().appendingPathComponent("vietmap-sim")
    }

    private func run(_ arguments: [String]) throws -> CLIRunner.Outcome {
        try CLIRunner.run(binary, arguments, in: FileManager.default.temporaryDirectory, environment: [:])
    }

    func testTheMainHelpListsEveryEndpointAndCommand() throws {
        let help = try run(["--help"])
        XCTAssertEqual(help.status, 0, help.stderr)
        XCTAssertTrue(help.stdout.contains("ENDPOINTS (\(APIEndpoint.allCases.count),"), help.stdout)
        for endpoint in APIEndpoint.allCases {
            XCTAssertTrue(help.stdout.contains(" " + endpoint.documentedPath + "\n"), "\(endpoint.name) missing from --help")
        }
        for command in ["serve", "import", "scenarios", "from-har", "from-recording", "contract", "drive", "make-country", "export-tiles", "bench-routing"] {
            XCTAssertTrue(help.stdout.contains(command), "\(command) missing from --help")
        }
    }

    func testHelpForEveryCommandAndAnErrorForAnythingElse() throws {
        for command in ["serve", "import", "scenarios", "contract", "drive", "make-country", "export-tiles", "bench-routing"] {
            let help = try run(["help", command])
            XCTAssertEqual(help.status, 0, "\(command): \(help.stderr)")
            XCTAssertFalse(help.stdout.contains("ENDPOINTS ("), "help \(command) printed the main help")
        }
        let unknown = try run(["help", "nope"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertEqual(unknown.stdout, "")
        XCTAssertTrue(unknown.stderr.hasPrefix("vietmap-sim: no help for 'nope': not a command"), unknown.stderr)
        let near = try run(["help", "serv"])
        XCTAssertEqual(near.status, 2)
        XCTAssertTrue(near.stderr.contains("did you mean 'serve'?"), near.stderr)
    }

    func testAMistypedCommandOrOptionNamesTheNearestOne() throws {
        let command = try run(["serv"])
        XCTAssertEqual(command.status, 2)
        XCTAssertTrue(command.stderr.contains("unknown command 'serv'; did you mean 'serve'?"), command.stderr)
        let option = try run(["serve", "--prot", "9000"])
        XCTAssertEqual(option.status, 2)
        XCTAssertTrue(option.stderr.contains("unknown option '--prot'; did you mean '--port'?"), option.stderr)
        let far = try run(["serve", "--zzzzzz"])
        XCTAssertEqual(far.status, 2)
        XCTAssertFalse(far.stderr.contains("did you mean"), far.stderr)
    }
}
