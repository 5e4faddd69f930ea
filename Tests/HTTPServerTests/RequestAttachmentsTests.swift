import HTTPServer
import XCTest

/// Values handed down with a request, one per type: the first type attached has an inline slot, the others a
/// dictionary; each reads back what was set last, nil once removed.
final class RequestAttachmentsTests: XCTestCase {
    struct Reading: Sendable, Equatable { var endpoint: String; var key: String? }
    struct Tag: Sendable, Equatable { var value: Int }

    func testEachTypeReadsBackItsLastValue() {
        var attachments = RequestAttachments()
        XCTAssertNil(attachments[Reading.self])
        attachments[Reading.self] = Reading(endpoint: "place", key: "k")
        XCTAssertEqual(attachments[Reading.self], Reading(endpoint: "place", key: "k"))
        XCTAssertNil(attachments[Tag.self])
        attachments[Tag.self] = Tag(value: 1)
        attachments[String.self] = "s"
        XCTAssertEqual(attachments[Tag.self], Tag(value: 1))
        XCTAssertEqual(attachments[String.self], "s")
        XCTAssertEqual(attachments[Reading.self], Reading(endpoint: "place", key: "k"))

        attachments[Reading.self] = nil
        XCTAssertNil(attachments[Reading.self])
        XCTAssertEqual(attachments[Tag.self], Tag(value: 1))
        attachments[Tag.self] = nil
        XCTAssertNil(attachments[Tag.self])
        attachments[Tag.self] = Tag(value: 2)
        attachments[Reading.self] = Reading(endpoint: "route", key: nil)
        XCTAssertEqual(attachments[Tag.self], Tag(value: 2))
        XCTAssertEqual(attachments[Reading.self], Reading(endpoint: "route", key: nil))

        // A copy is a value: changing it leaves the original alone.
        var copy = attachments
        copy[Reading.self] = Reading(endpoint: "copy", key: nil)
        copy[Tag.self] = Tag(value: 3)
        XCTAssertEqual(attachments[Reading.self], Reading(endpoint: "route", key: nil))
        XCTAssertEqual(attachments[Tag.self], Tag(value: 2))
    }
}
