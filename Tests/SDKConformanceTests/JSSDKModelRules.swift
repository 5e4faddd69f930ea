import JSON

/// The JS SDK's response parsing (its zod schemas in `src/models/**`) as checks over a parsed answer.
/// Each function returns the violations — the JSON path and the zod rule that would throw, e.g.
/// `/0/boundaries/0/id: zod number required, got null` — empty when the SDK would accept the answer.
///
/// zod semantics used: unknown keys are ignored; a required key must be present and not null; an
/// `.optional()` key may be absent but not null; `.nullable()` allows null; `number` is any JSON number.
enum JSSDKModelRules {
    /// `search` / `autoCompleteSearch`: an array of `SearchResponse` (v3).
    static func searchV3List(_ json: JSONValue) -> [String] {
        var check = Check()
        check.array(json, "") { item, path, check in check.searchV3(item, path) }
        return check.violations
    }

    /// `searchV4` / `autoCompleteSearchV4`: an array of `SearchResponseV4`.
    static func searchV4List(_ json: JSONValue) -> [String] {
        var check = Check()
        check.array(json, "") { item, path, check in check.searchV4(item, path) }
        return check.violations
    }

    /// `place` / `placeV4`: one `PlaceResponse`, all 13 keys required.
    static func place(_ json: JSONValue) -> [String] {
        var check = Check()
        check.object(json, "") { object, path, check in
            for key in ["display", "name", "hs_num", "street", "address", "city", "district", "ward"] {
                check.field(object, key, path, .string, .required)
            }
            for key in ["city_id", "district_id", "ward_id", "lat", "lng"] { check.field(object, key, path, .number, .required) }
        }
        return check.violations
    }

    /// `reverse`: `data[0]` as a `ReverseResponse` (v3), every key required.
    static func reverseV3(_ json: JSONValue) -> [String] {
        var check = Check()
        check.firstElement(json, emptyRule: "zod object required, got undefined (data[0] of [])") { item, path, check in
            check.object(item, path) { object, path, check in
                for key in ["lat", "lng", "distance"] { check.field(object, key, path, .number, .required) }
                for key in ["ref_id", "address", "name", "display"] { check.field(object, key, path, .string, .required) }
                check.boundaries(object, path, .required)
                check.stringArray(object, "categories", path, .required)
            }
        }
        return check.violations
    }

    /// `reverseV4`: a non-empty array (`[]` throws "No data returned…"), `data[0]` as `ReverseResponseV4`.
    static func reverseV4(_ json: JSONValue) -> [String] {
        var check = Check()
        check.firstElement(json, emptyRule: "reverseV4 throws `No data returned from reverse geocoding API` on []") { item, path, check in
            check.reverseV4(item, path)
        }
        return check.violations
    }

    /// `route` / `tsp`: a `RouteResponse` — `license`, `code` strings, `messages` string-or-null
    /// (present), `paths` with every path and instruction key required.
    static func route(_ json: JSONValue) -> [String] {
        var check = Check()
        check.object(json, "") { object, path, check in
            check.field(object, "license", path, .string, .required)
            check.field(object, "code", path, .string, .required)
            check.field(object, "messages", path, .string, .nullable)
            check.arrayField(object, "paths", path, .required) { item, route, check in
                check.object(item, route) { p, route, check in
                    for key in ["distance", "weight", "time", "transfers"] { check.field(p, key, route, .number, .required) }
                    check.field(p, "points_encoded", route, .boolean, .required)
                    check.numberArray(p, "bbox", route)
                    check.field(p, "points", route, .string, .required)
                    check.field(p, "snapped_waypoints", route, .string, .required)
                    check.arrayField(p, "instructions", route, .required) { instruction, at, check in
                        check.object(instruction, at) { i, at, check in
                            for key in ["distance", "heading", "sign", "time"] { check.field(i, key, at, .number, .required) }
                            check.numberArray(i, "interval", at)
                            check.field(i, "text", at, .string, .required)
                            check.field(i, "street_name", at, .string, .required)
                            check.field(i, "last_heading", at, .number, .nullable)
                        }
                    }
                }
            }
        }
        return check.violations
    }

    /// `migrateAddress`: one object, every key optional (`address`, `name`, `display`, `boundaries`).
    static func migrateAddress(_ json: JSONValue) -> [String] {
        var check = Check()
        check.object(json, "") { object, path, check in
            for key in ["address", "name", "display"] { check.field(object, key, path, .string, .optional) }
            check.boundaries(object, path, .optional)
        }
        return check.violations
    }

    // MARK: - zod, re-enacted

    /// zod's modifiers: `.optional()` (absent ok), `.nullable()` (null ok), both, or neither.
    enum Presence {
        case required, optional, nullable, optionalNullable
        var allowsAbsent: Bool { self == .optional || self == .optionalNullable }
        var allowsNull: Bool { self == .nullable || self == .optionalNullable }
        var word: String {
            switch self {
            case .required: return "required"
            case .optional: return "optional"
            case .nullable: return "nullable"
            case .optionalNullable: return "optional nullable"
            }
        }
    }

    enum Kind: String { case string, number, boolean }

    /// Collects violations while walking an answer.
    struct Check {
        var violations: [String] = []

        /// The JavaScript type name zod reports (`undefined` for an absent key).
        static func jsType(_ value: JSONValue?) -> String {
            switch value {
            case nil: return "undefined"
            case .null?: return "null"
            case .bool?: return "boolean"
            case .integer?, .number?: return "number"
            case .string?: return "string"
            case .array?: return "array"
            case .object?: return "object"
            }
        }

        static func matches(_ value: JSONValue, _ kind: Kind) -> Bool {
            switch (kind, value) {
            case (.string, .string), (.number, .integer), (.number, .number), (.boolean, .bool): return true
            default: return false
            }
        }

        mutating func fail(_ path: String, _ rule: String, got value: JSONValue?) {
            violations.append("\(path.isEmpty ? "/" : path): zod \(rule), got \(Self.jsType(value))")
        }

        /// True when the value may be skipped (absent/null allowed) or is present and not null.
        private mutating func present(_ value: JSONValue?, _ path: String, _ rule: String, _ presence: Presence) -> JSONValue? {
            switch value {
            case nil:
                if !presence.allowsAbsent { fail(path, rule, got: nil) }
                return nil
            case .null?:
                if !presence.allowsNull { fail(path, rule, got: .null) }
                return nil
            case let v?:
                return v
            }
        }

        mutating func field(_ object: JSONObject, _ key: String, _ path: String, _ kind: Kind, _ presence: Presence) {
            let at = path + "/" + key, rule = "\(kind.rawValue) \(presence.word)"
            if let value = present(object[key], at, rule, presence), !Self.matches(value, kind) { fail(at, rule, got: value) }
        }

        mutating func object(_ value: JSONValue, _ path: String, _ body: (JSONObject, String, inout Check) -> Void) {
            guard case .object(let object) = value else { return fail(path, "object required", got: value) }
            body(object, path, &self)
        }

        mutating func array(_ value: JSONValue, _ path: String, _ element: (JSONValue, String, inout Check) -> Void) {
            guard case .array(let items) = value else { return fail(path, "array required", got: value) }
            for (index, item) in items.enumerated() { element(item, "\(path)/\(index)", &self) }
        }

        mutating func arrayField(_ object: JSONObject, _ key: String, _ path: String, _ presence: Presence,
                                 _ element: (JSONValue, String, inout Check) -> Void) {
            let at = path + "/" + key
            guard let value = present(object[key], at, "array \(presence.word)", presence) else { return }
            array(value, at, element)
        }

        /// `data[0]` of an array answer; `emptyRule` names what the SDK does with `[]`.
        mutating func firstElement(_ value: JSONValue, emptyRule: String, _ body: (JSONValue, String, inout Check) -> Void) {
            guard case .array(let items) = value else { return fail("", "array required (the SDK reads data[0])", got: value) }
            guard let first = items.first else { return violations.append("/0: \(emptyRule)") }
            body(first, "/0", &self)
        }

        mutating func stringArray(_ object: JSONObject, _ key: String, _ path: String, _ presence: Presence) {
            arrayField(object, key, path, presence) { item, at, check in
                if !Self.matches(item, .string) { check.fail(at, "string required", got: item) }
            }
        }

        mutating func numberArray(_ object: JSONObject, _ key: String, _ path: String) {
            arrayField(object, key, path, .required) { item, at, check in
                if !Self.matches(item, .number) { check.fail(at, "number required", got: item) }
            }
        }

        /// `boundaryResponseSchema`: `type`, `id` numbers, `name`, `prefix`, `full_name` strings, all required.
        mutating func boundaries(_ object: JSONObject, _ path: String, _ presence: Presence) {
            arrayField(object, "boundaries", path, presence) { item, at, check in
                check.object(item, at) { b, at, check in
                    check.field(b, "type", at, .number, .required)
                    check.field(b, "id", at, .number, .required)
                    for key in ["name", "prefix", "full_name"] { check.field(b, key, at, .string, .required) }
                }
            }
        }

        /// `entryPointSchema`: `ref_id`, `name` strings, required.
        mutating func entryPoints(_ object: JSONObject, _ path: String) {
            arrayField(object, "entry_points", path, .optional) { item, at, check in
                check.object(item, at) { e, at, check in
                    check.field(e, "ref_id", at, .string, .required)
                    check.field(e, "name", at, .string, .required)
                }
            }
        }

        mutating func searchV3(_ value: JSONValue, _ path: String) {
            object(value, path) { o, path, check in check.searchV3Keys(o, path) }
        }

        private mutating func searchV3Keys(_ o: JSONObject, _ path: String) {
            for key in ["ref_id", "address", "name", "display"] { field(o, key, path, .string, .required) }
            boundaries(o, path, .required)
            stringArray(o, "categories", path, .required)
        }

        /// `searchResponseV4Schema`, `data_old`/`data_new` recursively (optional and nullable).
        mutating func searchV4(_ value: JSONValue, _ path: String) {
            object(value, path) { o, path, check in
                check.searchV3Keys(o, path)
                check.field(o, "distance", path, .number, .optional)
                check.entryPoints(o, path)
                for key in ["data_old", "data_new"] {
                    if let nested = check.present(o[key], path + "/" + key, "object optional nullable", .optionalNullable) {
                        check.searchV4(nested, path + "/" + key)
                    }
                }
            }
        }

        /// `reverseResponseV4Schema`: every key optional (not nullable), `data_*` recursive.
        mutating func reverseV4(_ value: JSONValue, _ path: String) {
            object(value, path) { o, path, check in
                for key in ["address", "ref_id", "name", "display"] { check.field(o, key, path, .string, .optional) }
                for key in ["lat", "lng", "distance"] { check.field(o, key, path, .number, .optional) }
                check.boundaries(o, path, .optional)
                check.stringArray(o, "categories", path, .optional)
                check.entryPoints(o, path)
                for key in ["data_old", "data_new"] {
                    if let nested = check.present(o[key], path + "/" + key, "object optional nullable", .optionalNullable) {
                        check.reverseV4(nested, path + "/" + key)
                    }
                }
            }
        }
    }
}
