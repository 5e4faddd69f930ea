import Foundation
import Search
import SimTesting
import SQLiteStore
import TestExpectations
import Testing

/// The stored old↔new mapping (`admin_link`) and the domain answers built on it, on the cached
/// default dataset.
@Suite final class AddressMigrationTests {
    static let search: Result<PlaceSearch, any Error> = Result { try PlaceSearch(databasePath: TestDataset.path()) }

    @Test func testMappingIsStored() throws {
        let db = try Database(path: try TestDataset.path(), mode: .readOnly)
        expectEqual(try db.scalarInt("SELECT COUNT(*) FROM admin_link WHERE level = 2 AND old_code = 27301 AND new_code = 27301 AND full = 1"), 1,
                       "Phường 4 (Quận 5) went wholly into Phường Chợ Quán")
        expectEqual(try db.rows("SELECT new_code FROM admin_link WHERE level = 2 AND old_code = 26737 ORDER BY rank", columns: 1).map { $0[0] },
                       ["26740", "26737"], "Đa Kao split two ways, in the old→new file's order")
        expectEqual(try db.scalarInt("SELECT COUNT(*) FROM admin_link WHERE level = 0 AND old_code = 74 AND new_code = 79"), 1,
                       "Bình Dương became part of Thành phố Hồ Chí Minh")
        expectGreaterThan(try db.scalarInt("SELECT COUNT(DISTINCT old_code) FROM admin_link WHERE level = 2"), 10_000)
    }

    @Test func testMigrationBothWays() throws {
        let migration = try Self.search.get().migration
        expectTrue(migration.isAvailable)
        let new = try unwrap(migration.migrate("197 Trần Phú, Phường 4, Quận 5, Thành phố Hồ Chí Minh", direction: .oldToNew))
        expectEqual(new.street, "197 Trần Phú")
        expectEqual(new.units.map(\.fullName), ["Phường Chợ Quán", "Thành Phố Hồ Chí Minh"])
        expectEqual(new.source.map(\.fullName), ["Phường 4", "Quận 5", "Thành Phố Hồ Chí Minh"])
        let old = try unwrap(migration.migrate("Phuong Cho Quan, TP HCM", direction: .newToOld, focus: Coordinate(lat: 10.76028, lng: 106.67527)))
        expectEqual(old.street, "")
        expectEqual(old.units.map(\.fullName), ["Phường 4", "Quận 5", "Thành Phố Hồ Chí Minh"])
        // Province only.
        expectEqual(migration.migrate("Tỉnh Bình Dương", direction: .oldToNew)?.units.map(\.code), [79])
        expectNil(migration.migrate("Quận 5", direction: .newToOld))
        expectNil(migration.migrate("", direction: .oldToNew))
    }

    @Test func testReverseNeverCrashesAndIsEmptyOnlyFarAway() throws {
        let geocoder = try Self.search.get().geocoder
        for point in [Coordinate(lat: 90, lng: 180), Coordinate(lat: -90, lng: -180), Coordinate(lat: 0, lng: 0)] {
            expectTrue(geocoder.reverse(ReverseQuery(point: point)).isEmpty, "\(point)")
        }
        // Hà Giang, far from every dataset place but in Vietnam: its ward.
        let ward = geocoder.reverse(ReverseQuery(point: Coordinate(lat: 22.8233, lng: 104.9836)))
        expectEqual(ward.map(\.match), [.area])
        expectEqual(ward.first?.newPlace?.kind, .admin)
        expectEqual(geocoder.reverse(ReverseQuery(point: Coordinate(lat: 10.7721, lng: 106.6983), limit: 0)).count, 0)
        expectEqual(geocoder.reverse(ReverseQuery(point: Coordinate(lat: 10.7721, lng: 106.6983), limit: 3)).count, 3)
    }
}
