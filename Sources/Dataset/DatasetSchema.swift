import Search
/// The SQLite schema of a simulator dataset: the contract between the importer and search.
///
/// A dataset holds every administrative unit of both schemes (`admin_unit`, and once more as
/// searchable `place` rows) plus POIs, streets and address points, each knowing its address
/// in the new (2025, ward + province) and old (pre-2025, ward + district + province) format.
/// `place_fts` is a contentless FTS5 index over *folded* text (`TextFolding.fold`), with
/// `rowid = place.id`. Ids are assigned in order of importance (descending; ties by kind,
/// then key), so `ORDER BY rowid` over FTS matches reads the most important places first.
/// Ids are deterministic for the same inputs but are NOT stable across input changes: use
/// `place.key` (e.g. `poi:way/39514795`) as the stable identifier.
///
/// Bump ``schemaVersion`` whenever the DDL or the meaning of a column changes; bump
/// ``builderVersion`` whenever the importer would produce different rows from the same inputs
/// (category table, importance, address derivation). Both go into the cache fingerprint.
public enum DatasetSchema {
    /// Version of the table layout below; stored in `meta.schema_version`.
    public static let schemaVersion = 11

    /// Version of the import logic; part of the source fingerprint so cached datasets are rebuilt.
    public static let builderVersion = 18

    public static let createMeta = """
        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
        """

    public static let createAdminUnit = """
        CREATE TABLE admin_unit(
          scheme INTEGER NOT NULL,
          level INTEGER NOT NULL,
          code INTEGER NOT NULL,
          name TEXT NOT NULL,
          prefix TEXT NOT NULL,
          full_name TEXT NOT NULL,
          name_key TEXT NOT NULL,      -- TextFolding.fold(name): "ben thanh", "1" (query qualifiers)
          district_code INTEGER NOT NULL,
          province_code INTEGER NOT NULL,
          lat REAL NOT NULL, lng REAL NOT NULL,
          PRIMARY KEY(scheme, level, code)) WITHOUT ROWID;
        """

    public static let createPlace = """
        CREATE TABLE place(
          id INTEGER PRIMARY KEY,
          key TEXT NOT NULL UNIQUE,
          kind INTEGER NOT NULL,
          scheme INTEGER NOT NULL,
          name TEXT NOT NULL,
          hs_num TEXT NOT NULL,
          street TEXT NOT NULL,
          categories TEXT NOT NULL,
          lat REAL NOT NULL, lng REAL NOT NULL,
          importance REAL NOT NULL,
          new_ward INTEGER NOT NULL, new_province INTEGER NOT NULL,
          old_ward INTEGER NOT NULL, old_district INTEGER NOT NULL, old_province INTEGER NOT NULL,
          name_key TEXT NOT NULL,      -- TextFolding.fold(name), for ranking without folding per request
          address_key TEXT NOT NULL,   -- the folded address text indexed in place_fts.address (both formats)
          kind_key TEXT NOT NULL,      -- folded words for the place's kind (CategoryWords): "ca phe cafe coffee"
          alias_key TEXT NOT NULL      -- the other names (name:en, alt_name, old_name, …), folded, "|"-separated
        );
        """

    public static let createPlaceFTS = """
        CREATE VIRTUAL TABLE place_fts USING fts5(name, address, content='', tokenize='unicode61 remove_diacritics 0', prefix='1 2 3 4 5 6');
        """

    /// Names only, plus a coarse grid-cell token per place (see ``cellToken(latitude:longitude:)``)
    /// and the words for its kind (``CategoryWords``): "every word in the name" and "… near the
    /// focus" read a doclist of name words only, the nearness test is a doclist intersection
    /// instead of a scan of coordinates, and "cafe near the focus" is `{kind} : cafe AND {cell} : …`.
    public static let createPlaceNameFTS = """
        CREATE VIRTUAL TABLE place_name_fts USING fts5(name, cell, kind, content='', tokenize='unicode61 remove_diacritics 0', prefix='1 2 3 4 5 6');
        """

    /// Size of the grid cells indexed in `place_name_fts.cell`, in degrees: search's own.
    public static let cellDegrees = SearchIndex.cellDegrees

    /// The cell token of a point: "xq" + row·100000 + column, rows and columns counted from
    /// (-90, -180) in steps of ``cellDegrees`` — `SearchIndex.cell`, the number search uses.
    public static func cellToken(latitude: Double, longitude: Double) -> String {
        "xq\(SearchIndex.cell(Coordinate(lat: latitude, lng: longitude)))"
    }

    /// The old↔new mapping of the 2025 reform (from the mapping inputs), for address migration:
    /// `level` 2 links an old ward to a new ward, `level` 0 an old province to a new province.
    /// `rank` orders an old unit's targets as the old→new file lists them (0 first; links known
    /// only from the new→old file come after, from 1000); `full` = 1 when the new→old file says the
    /// old ward went wholly into the new one.
    public static let createAdminLink = """
        CREATE TABLE admin_link(
          level INTEGER NOT NULL,
          old_code INTEGER NOT NULL,
          new_code INTEGER NOT NULL,
          rank INTEGER NOT NULL,
          full INTEGER NOT NULL,
          PRIMARY KEY(level, old_code, new_code)) WITHOUT ROWID;
        """

    // The road graph, its contraction hierarchies and the search index are no tables: they are
    // sections after the SQLite pages (`FileSections`: `road_graph`, `road_graph_ch.<vehicle>`,
    // `search_index`), mapped and read in place by `serve`; so are the map shapes (`map_shapes`:
    // buildings, water, land use, waterways, railways; `MapShapes`, builder version ≥ 18). Datasets of builder version ≤ 13 kept
    // them in the tables `road_graph`, `road_graph_ch` and `search_index`.

    public static let createIndexes = """
        CREATE INDEX place_kind ON place(kind);
        """

    /// Every statement, in order.
    public static let allStatements: [String] = [createMeta, createAdminUnit, createAdminLink, createPlace, createPlaceFTS, createPlaceNameFTS, createIndexes]

    /// The whole DDL as one script.
    public static var ddl: String { allStatements.joined(separator: "\n") }

    /// `place.kind` values.
    public enum PlaceKind: Int, Sendable, CaseIterable, CustomStringConvertible {
        case admin = 0, poi = 1, street = 2, address = 3

        public var description: String {
            switch self {
            case .admin: return "admin"
            case .poi: return "poi"
            case .street: return "street"
            case .address: return "address"
            }
        }
    }

    /// `admin_unit.scheme` / `place.scheme` values (`place.scheme` is 0 for non-admin places).
    public enum Scheme: Int, Sendable, CaseIterable {
        /// The 2025 two-tier scheme: province → ward/commune.
        case new = 1
        /// The pre-2025 three-tier scheme: province → district → ward/commune.
        case old = 2
    }

    /// `admin_unit.level` values (the API's boundary `type`).
    public enum Level: Int, Sendable, CaseIterable {
        case province = 0, district = 1, ward = 2
    }

    /// Keys of the `meta` table.
    public enum MetaKey {
        public static let schemaVersion = "schema_version"
        public static let builderVersion = "builder_version"
        public static let sourceFingerprint = "source_fingerprint"
        /// ISO 8601, UTC.
        public static let builtAt = "built_at"
        /// Comma-separated input file names, in input order.
        public static let sources = "sources"
        public static let attribution = "attribution"
        /// `count_place`, `count_poi`, `count_street`, `count_address`, `count_admin`, and
        /// `count_admin_<scheme>_<level>` (e.g. `count_admin_2_1` = old districts).
        public static func count(_ kind: PlaceKind) -> String { "count_\(kind)" }
        public static func adminCount(scheme: Scheme, level: Level) -> String { "count_admin_\(scheme.rawValue)_\(level.rawValue)" }
        public static let placeCount = "count_place"
        /// Ordinary places whose old ward came from the input data / was derived via the mapping.
        public static let oldCodesFromData = "old_codes_from_data"
        public static let oldCodesDerived = "old_codes_derived"
        /// Every folded kind word (``CategoryWords``), space-separated: search reads it at start.
        public static let kindWords = "kind_words"
        /// Every folded kind phrase (``CategoryWords/phrases``), "|"-separated: a category query is made of them.
        public static let kindPhrases = "kind_phrases"
        /// Street initialisms derived at import, "initials=folded street name" joined by ";"
        /// ("cmt8=cach mang thang tam;nkkn=nam ky khoi nghia;…"; see ``StreetInitials``).
        public static let streetInitials = "street_initials"
    }

    /// Data attribution a dataset built from the embedded inputs must carry.
    public static let attribution = "© OpenStreetMap contributors, ODbL 1.0; administrative units: vietnamese-provinces-database (MIT, © 2021 Thang Le Quoc); old↔new mapping: dvhcvn (MIT, © 2025 dvhcvn)"
}
