import JSON

/// The Flutter plugin's response parsing (the `fromJson` factories in `lib/src/data/models/`) as
/// checks over a parsed answer: what would throw in Dart. Each function returns the violations —
/// JSON path and the Dart operation that throws, e.g. `/city_id: Dart `as int?` throws on double 12.0`.
///
/// Dart semantics used: `jsonDecode` gives `int` for a number literal without `.`/exponent and
/// `double` otherwise (the project's parser keeps the same distinction: `.integer` / `.number`);
/// assigning `json['k']` to a typed field is an implicit `as T?` (null/absent always fine);
/// `List<T?>.from(x)` needs a list of `T`/null; `.map(fromJson)` needs objects; `x.cast<T>()`
/// needs a list (null throws) and checks its elements on access.
enum FlutterModelRules {
    /// `autocompleteV4` / `geoCodeV4`: a list of `VietmapAutocompleteModelV4`.
    static func autocompleteV4List(_ json: JSONValue) -> [String] {
        var check = Check()
        check.list(json, "") { item, at, check in check.object(item, at) { o, check in check.autocomplete(o, at, v4: true) } }
        return check.violations
    }

    /// `autocomplete` / `geoCode` (v3): a list of `VietmapAutocompleteModel`.
    static func autocompleteV3List(_ json: JSONValue) -> [String] {
        var check = Check()
        check.list(json, "") { item, at, check in check.object(item, at) { o, check in check.autocomplete(o, at, v4: false) } }
        return check.violations
    }

    /// `placeV4` / `place`: one `VietmapPlaceModel`; the ids are `int?`.
    static func place(_ json: JSONValue) -> [String] {
        var check = Check()
        check.object(json, "") { o, check in
            for key in ["display", "name", "hs_num", "street", "address", "city", "district", "ward"] { check.cast(o, key, "", .string) }
            for key in ["city_id", "district_id", "ward_id"] { check.cast(o, key, "", .int) }
            for key in ["lat", "lng"] { check.cast(o, key, "", .num) }
        }
        return check.violations
    }

    /// `reverseV4`: a non-empty list (`[]` → `ApiServerFailure`), `data[0]` as `VietmapReverseModelV4`.
    static func reverseV4(_ json: JSONValue) -> [String] { reverse(json, v4: true) }

    /// `reverse` (v3): a non-empty list, `data[0]` as `VietmapReverseModel`.
    static func reverseV3(_ json: JSONValue) -> [String] { reverse(json, v4: false) }

    private static func reverse(_ json: JSONValue, v4: Bool) -> [String] {
        var check = Check()
        guard case .array(let items) = json else {
            return ["/: `res.data.length > 0` then `res.data[0]` expects a List, got \(Check.dartType(json))"]
        }
        guard let first = items.first else { return ["/: [] makes the plugin return ApiServerFailure('Có lỗi xảy ra')"] }
        check.object(first, "/0") { o, check in check.reverseModel(o, "/0", v4: v4) }
        return check.violations
    }

    /// `routing`: `VietMapRoutingModel` / `PathModel` / `InstructionModel`; `points` decoded at once
    /// (precision 5, lat first — a malformed string throws, uncaught).
    static func route(_ json: JSONValue) -> [String] {
        var check = Check()
        check.object(json, "") { o, check in
            for key in ["license", "code", "messages"] { check.cast(o, key, "", .string) }
            check.objectList(o, "paths", "") { p, at, check in
                for key in ["distance", "weight"] { check.cast(p, key, at, .num) }
                for key in ["time", "transfers"] { check.cast(p, key, at, .int) }
                check.cast(p, "points_encoded", at, .bool)
                check.castList(p, "bbox", at, element: .double)
                check.cast(p, "points", at, .string)
                if case .string(let points)? = p["points"] {
                    do { _ = try SDKPolylineDecoder.decode(points, precision: 5) } catch {
                        check.violations.append("\(at)/points: VietmapPolylineDecoder.decodePolyline(points, false) throws: \(error)")
                    }
                }
                check.cast(p, "snapped_waypoints", at, .string)
                check.objectList(p, "instructions", at) { i, at, check in
                    for key in ["distance", "heading", "sign", "time", "last_heading"] { check.cast(i, key, at, .num) }
                    check.castList(i, "interval", at, element: .int)
                    for key in ["text", "street_name"] { check.cast(i, key, at, .string) }
                }
            }
        }
        return check.violations
    }

    /// `matrix`: `VietmapMatrixModel` — `durations`/`distances` null or lists of lists of numbers.
    static func matrix(_ json: JSONValue) -> [String] {
        var check = Check()
        check.object(json, "") { o, check in
            for key in ["code", "messages"] { check.cast(o, key, "", .string) }
            for key in ["durations", "distances"] {
                guard let table = o[key], !table.isNull else { continue }
                check.list(table, "/" + key) { row, at, check in
                    check.list(row, at) { cell, at, check in
                        if cell.isNull || !Cast.num.accepts(cell) { check.violations.append("\(at): List<num>.from throws on \(Check.dartType(cell))") }
                    }
                }
            }
        }
        return check.violations
    }

    /// `migrateAddress`: one `VietmapMigrateAddressModel`.
    static func migrateAddress(_ json: JSONValue) -> [String] {
        var check = Check()
        check.object(json, "") { o, check in
            for key in ["address", "name", "display"] { check.cast(o, key, "", .string) }
            check.objectList(o, "boundaries", "") { b, at, check in check.boundary(b, at) }
        }
        return check.violations
    }

    // MARK: - Dart, re-enacted

    /// The implicit cast of a `dynamic` JSON value to a nullable field type.
    enum Cast: String {
        case string = "String?", num = "num?", int = "int?", double = "double", bool = "bool?"

        func accepts(_ value: JSONValue) -> Bool {
            switch (self, value) {
            case (_, .null): return self != .double
            case (.string, .string), (.bool, .bool), (.int, .integer), (.double, .number): return true
            case (.num, .integer), (.num, .number): return true
            default: return false
            }
        }
    }

    /// Collects violations while walking an answer.
    struct Check {
        var violations: [String] = []

        /// The Dart runtime type `jsonDecode` gives the value.
        static func dartType(_ value: JSONValue) -> String {
            switch value {
            case .null: return "Null"
            case .bool: return "bool"
            case .integer(let i): return "int \(i)"
            case .number(let d): return "double \(d)"
            case .string: return "String"
            case .array: return "List"
            case .object: return "Map"
            }
        }

        mutating func cast(_ object: JSONObject, _ key: String, _ path: String, _ type: Cast) {
            guard let value = object[key], !type.accepts(value) else { return }
            violations.append("\(path)/\(key): Dart `as \(type.rawValue)` throws on \(Self.dartType(value))")
        }

        mutating func object(_ value: JSONValue, _ path: String, _ body: (JSONObject, inout Check) -> Void) {
            guard case .object(let object) = value else {
                return violations.append("\(path.isEmpty ? "/" : path): fromJson(Map<String, dynamic>) throws on \(Self.dartType(value))")
            }
            body(object, &self)
        }

        mutating func list(_ value: JSONValue, _ path: String, _ element: (JSONValue, String, inout Check) -> Void) {
            guard case .array(let items) = value else {
                return violations.append("\(path.isEmpty ? "/" : path): `.map`/`List.from` needs a List, got \(Self.dartType(value))")
            }
            for (index, item) in items.enumerated() { element(item, "\(path)/\(index)", &self) }
        }

        /// `json[key] != null ? …map((x) => Model.fromJson(x)) : …` — null/absent fine, else a list of objects.
        mutating func objectList(_ object: JSONObject, _ key: String, _ path: String, _ body: (JSONObject, String, inout Check) -> Void) {
            guard let value = object[key], !value.isNull else { return }
            list(value, path + "/" + key) { item, at, check in check.object(item, at) { o, check in body(o, at, &check) } }
        }

        /// `List<String?>.from(json[key])` when not null.
        mutating func stringList(_ object: JSONObject, _ key: String, _ path: String) {
            guard let value = object[key], !value.isNull else { return }
            list(value, path + "/" + key) { item, at, check in
                if !Cast.string.accepts(item) { check.violations.append("\(at): List<String?>.from throws on \(Self.dartType(item))") }
            }
        }

        /// `json[key].cast<T>()`: a list is required (null throws), every element must be a `T`.
        mutating func castList(_ object: JSONObject, _ key: String, _ path: String, element: Cast) {
            let at = path + "/" + key, name = element == .double ? "double" : "int"
            guard let value = object[key], case .array(let items) = value else {
                return violations.append("\(at): `json['\(key)'].cast<\(name)>()` throws on \(object[key].map(Self.dartType) ?? "absent (null)")")
            }
            let type: Cast = element == .double ? .double : .int
            for (index, item) in items.enumerated() where item.isNull || !type.accepts(item) {
                violations.append("\(at)/\(index): cast<\(name)>() element throws on access: \(Self.dartType(item))")
            }
        }

        mutating func boundary(_ b: JSONObject, _ path: String) {
            for key in ["type", "id"] { cast(b, key, path, .num) }
            for key in ["name", "prefix", "full_name"] { cast(b, key, path, .string) }
        }

        /// `VietmapAutocompleteModel(.V4).fromJson`; `data_old`/`data_new` always read with the v3 model.
        mutating func autocomplete(_ o: JSONObject, _ path: String, v4: Bool) {
            for key in ["ref_id", "address", "name", "display"] { cast(o, key, path, .string) }
            cast(o, "distance", path, .num)
            stringList(o, "categories", path)
            objectList(o, "boundaries", path) { b, at, check in check.boundary(b, at) }
            if v4 { entryPoints(o, path) }
            for key in ["data_old", "data_new"] {
                guard let nested = o[key], !nested.isNull else { continue }
                object(nested, path + "/" + key) { n, check in check.autocomplete(n, path + "/" + key, v4: false) }
            }
        }

        /// `VietmapReverseModel(.V4).fromJson`; the v4 model reads `data_old`/`data_new` as v4.
        mutating func reverseModel(_ o: JSONObject, _ path: String, v4: Bool) {
            for key in ["lat", "lng", "distance"] { cast(o, key, path, .num) }
            for key in ["ref_id", "address", "name", "display"] { cast(o, key, path, .string) }
            stringList(o, "categories", path)
            objectList(o, "boundaries", path) { b, at, check in check.boundary(b, at) }
            guard v4 else { return }
            entryPoints(o, path)
            for key in ["data_old", "data_new"] {
                guard let nested = o[key], !nested.isNull else { continue }
                object(nested, path + "/" + key) { n, check in check.reverseModel(n, path + "/" + key, v4: true) }
            }
        }

        mutating func entryPoints(_ o: JSONObject, _ path: String) {
            objectList(o, "entry_points", path) { e, at, check in
                check.cast(e, "ref_id", at, .string)
                check.cast(e, "name", at, .string)
            }
        }
    }
}
