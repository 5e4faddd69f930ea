import VietMapWire
import JSON
import Search

/// `GET /api/migrate-address/v3`: `text` (an address), `migrate_type` (1 old→new, the default;
/// 2 new→old) and `focus` (`lat,lng`; required for 2, as VietMap's docs and JS SDK say) → one
/// object `{"address","name","display","boundaries"}` in the other scheme (``AddressMigration``).
///
/// The simulator's choices: `name` is the street part as typed, `address` the units joined by
/// "," (as autocomplete's address items), `display` the two joined by a space; a text in which no
/// unit of the source scheme is recognised is a 404 `NOT_FOUND` in the `{"code","message"}` shape.
struct MigrateAddressEndpoint {
    let search: PlaceSearch
    let renderer: PlaceRenderer

    /// Longer texts are a 400 (an address is a line, not a document).
    static let maxTextLength = 500

    func respond(_ parameters: RequestParameters) throws(APIError) -> EndpointAnswer {
        let text = try parameters.required(.text)
        guard text.count <= Self.maxTextLength else {
            throw .invalidRequest("parameter 'text' is longer than \(Self.maxTextLength) characters")
        }
        var direction = MigrationDirection.oldToNew
        if let raw = try parameters.integer(.migrateType) {
            guard let value = MigrationDirection(rawValue: raw) else {
                throw .invalidRequest("parameter 'migrate_type' must be 1 (old to new) or 2 (new to old), got \(raw)")
            }
            direction = value
        }
        let focus = try parameters.coordinate(.focus)
        if direction == .newToOld && focus == nil {
            throw .invalidRequest("missing required parameter 'focus' (required when migrate_type=2)")
        }
        guard let migrated = search.migration.migrate(text, direction: direction, focus: focus) else {
            throw .notFound("no administrative unit of the \(direction == .oldToNew ? "old" : "new") scheme recognised in 'text'")
        }
        return EndpointAnswer(body: renderer.migratedAddress(migrated))
    }
}
