import ArrayBlob
import Foundation

/// Every place of a dataset, column by column (the `place` table without SQL): fixed fields in
/// typed arrays, text in one byte arena — read in place from the dataset's mapped section. Row `doc` is place id `doc + 1`, so row order
/// is importance order. Search scores candidates straight from these columns and builds a
/// ``PlaceRecord`` only for the places it answers with.
final class PlaceColumns: Sendable {
    /// The text fields of a row, in arena order. A row's folded address (`place.address_key`)
    /// is its `streetKey` (a POI's folded house number and street, when the address starts with
    /// them) followed by its address group: the folded unit names, which thousands of rows share.
    enum Field: Int, CaseIterable {
        case key, name, houseNumber, street, categories, nameKey, streetKey, kindKey, aliasKey
    }
    static let fieldCount = Field.allCases.count

    let kind: StoredArray<UInt8>
    /// 0 for places of both schemes, else the ``AddressFormat`` raw value.
    let scheme: StoredArray<UInt8>
    /// For admin units the ``AdminLevel`` raw value, else 255.
    let adminLevel: StoredArray<UInt8>
    let lat: StoredArray<Double>
    let lng: StoredArray<Double>
    let importance: StoredArray<Double>
    /// new_ward, new_province, old_ward, old_district, old_province: five per row.
    let codes: StoredArray<Int32>
    /// The row's grid cell (``DatasetSchema/cellToken``'s number).
    let cell: StoredArray<Int32>
    /// Start of each text field in `arena`: `fieldCount` per row, then the end of the last.
    let textStart: StoredArray<UInt32>
    /// Each row's address group, and where in `arena` (after the rows' fields) each group's text starts
    /// (one more start than groups: the arena's end).
    let addressGroup: StoredArray<UInt32>
    let groupStart: StoredArray<UInt32>
    let arena: StoredArray<UInt8>
    /// Row numbers sorted by key (for look-ups by key).
    let byKey: StoredArray<UInt32>

    var count: Int { kind.count }

    init(kind: StoredArray<UInt8>, scheme: StoredArray<UInt8>, adminLevel: StoredArray<UInt8>, lat: StoredArray<Double>,
         lng: StoredArray<Double>, importance: StoredArray<Double>, codes: StoredArray<Int32>, cell: StoredArray<Int32>,
         textStart: StoredArray<UInt32>, addressGroup: StoredArray<UInt32>, groupStart: StoredArray<UInt32>,
         arena: StoredArray<UInt8>, byKey: StoredArray<UInt32>) {
        (self.kind, self.scheme, self.adminLevel, self.lat, self.lng, self.importance) = (kind, scheme, adminLevel, lat, lng, importance)
        (self.codes, self.cell, self.textStart, self.arena, self.byKey) = (codes, cell, textStart, arena, byKey)
        (self.addressGroup, self.groupStart) = (addressGroup, groupStart)
    }

    /// The arena range of row `doc`'s address group text.
    @inline(__always)
    func groupSpan(_ doc: Int) -> Range<Int> {
        let group = Int(addressGroup[doc])
        return Int(groupStart[group])..<Int(groupStart[group + 1])
    }

    /// The row's folded address, as the `place` table holds it.
    func addressKey(_ doc: Int) -> String {
        let street = text(doc, .streetKey)
        let range = groupSpan(doc)
        let group = arena.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
        return street.isEmpty ? group : group.isEmpty ? street : street + " " + group
    }

    /// Indexes of a text field in `arena`.
    @inline(__always)
    func span(_ doc: Int, _ field: Field) -> Range<Int> {
        let i = doc * Self.fieldCount + field.rawValue
        return Int(textStart[i])..<Int(textStart[i + 1])
    }

    func text(_ doc: Int, _ field: Field) -> String {
        let range = span(doc, field)
        return arena.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    @inline(__always) func newWard(_ doc: Int) -> Int { Int(codes[doc * 5]) }
    @inline(__always) func newProvince(_ doc: Int) -> Int { Int(codes[doc * 5 + 1]) }
    @inline(__always) func oldWard(_ doc: Int) -> Int { Int(codes[doc * 5 + 2]) }
    @inline(__always) func oldDistrict(_ doc: Int) -> Int { Int(codes[doc * 5 + 3]) }
    @inline(__always) func oldProvince(_ doc: Int) -> Int { Int(codes[doc * 5 + 4]) }
    @inline(__always) func coordinate(_ doc: Int) -> Coordinate { Coordinate(lat: lat[doc], lng: lng[doc]) }

    /// The row as the `place` table holds it.
    func record(_ doc: Int) -> PlaceRecord {
        PlaceRecord(
            id: Int64(doc + 1), key: text(doc, .key), kind: PlaceKind(rawValue: Int(kind[doc])) ?? .poi,
            scheme: AddressFormat(rawValue: Int(scheme[doc])), name: text(doc, .name), houseNumber: text(doc, .houseNumber),
            street: text(doc, .street), categories: text(doc, .categories).split(separator: ",").map(String.init),
            coordinate: coordinate(doc), importance: importance[doc],
            newWard: newWard(doc), newProvince: newProvince(doc), oldWard: oldWard(doc), oldDistrict: oldDistrict(doc),
            oldProvince: oldProvince(doc))
    }

    /// Whether the row's text field equals `bytes`.
    func field(_ doc: Int, _ field: Field, equals bytes: [UInt8]) -> Bool {
        let range = span(doc, field)
        guard range.count == bytes.count else { return false }
        guard !bytes.isEmpty else { return true }
        return arena.withUnsafeBufferPointer { arena in
            bytes.withUnsafeBufferPointer { memcmp(arena.baseAddress! + range.lowerBound, $0.baseAddress!, range.count) == 0 }
        }
    }

    /// The row whose key is `key`, if any.
    func row(key: String) -> Int? {
        let wanted = Array(key.utf8)
        var low = 0, high = byKey.count
        while low < high {
            let mid = (low + high) / 2
            if compareKey(Int(byKey[mid]), wanted) < 0 { low = mid + 1 } else { high = mid }
        }
        guard low < byKey.count, field(Int(byKey[low]), .key, equals: wanted) else { return nil }
        return Int(byKey[low])
    }

    /// Byte order of row `doc`'s key against `bytes`.
    private func compareKey(_ doc: Int, _ bytes: [UInt8]) -> Int {
        let range = span(doc, .key)
        return arena.withUnsafeBufferPointer { arena in
            bytes.withUnsafeBufferPointer { b in
                let common = min(range.count, b.count)
                let c = common == 0 ? 0 : Int(memcmp(arena.baseAddress! + range.lowerBound, b.baseAddress!, common))
                return c != 0 ? c : range.count - b.count
            }
        }
    }

    /// `byKey` for rows whose keys are `keys` (row order).
    static func keyOrder(_ keys: [[UInt8]]) -> [UInt32] {
        (0..<keys.count).sorted { keys[$0].lexicographicallyPrecedes(keys[$1]) }.map(UInt32.init)
    }
}
