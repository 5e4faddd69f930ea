import Foundation
import TextFolding

/// Words people type for a kind of place, Vietnamese (with or without accents) and English,
/// by raw OSM `key=value`. Indexed in `place_name_fts.kind` and `place.kind_key` (folded), so
/// "cà phê", "cafe" and "coffee" find cafés near the focus whatever their names are.
/// Lookup: the exact `key=value`, else nothing (kind words must be precise: "nhà sách" is a
/// bookshop, not any shop).
public enum CategoryWords {
    private static let phraseTable: [String: String] = {
        var table: [String: String] = [:]
        // Phrases separated by ", "; a place's kind words are all of them, space-separated.
        func add(_ phrases: String, _ tags: String...) { for tag in tags { table[tag] = phrases } }
        add("cà phê, quán cà phê, cafe, coffee, café", "amenity=cafe", "shop=coffee")
        add("trà, tea, quán trà", "shop=tea")
        add("nhà hàng, quán ăn, restaurant", "amenity=restaurant", "amenity=food_court")
        add("đồ ăn nhanh, fast food", "amenity=fast_food")
        add("bar, quán bar, pub", "amenity=bar", "amenity=pub", "amenity=biergarten")
        add("vũ trường, nightclub, club, bar", "amenity=nightclub")
        add("karaoke", "leisure=karaoke")
        add("khách sạn, hotel", "tourism=hotel", "building=hotel")
        add("nhà nghỉ, nhà khách, guest house, hostel, motel", "tourism=guest_house", "tourism=hostel", "tourism=motel")
        add("ngân hàng, bank", "amenity=bank")
        add("đổi tiền, money exchange", "amenity=bureau_de_change")
        add("atm, cây atm", "amenity=atm")
        add("bệnh viện, hospital", "amenity=hospital", "building=hospital")
        add("phòng khám, clinic", "amenity=clinic", "amenity=doctors")
        add("nha khoa, dentist", "amenity=dentist")
        add("nhà thuốc, hiệu thuốc, quầy thuốc, pharmacy, drugstore", "amenity=pharmacy", "shop=chemist")
        add("thú y, veterinary", "amenity=veterinary")
        add("trường, trường học, school", "amenity=school", "building=school")
        add("trường mầm non, mầm non, nhà trẻ, kindergarten", "amenity=kindergarten", "building=kindergarten")
        add("trường đại học, đại học, university", "amenity=university", "building=university")
        add("trường cao đẳng, cao đẳng, college", "amenity=college", "building=college")
        add("thư viện, library", "amenity=library")
        add("chùa, đền, nhà thờ, church, pagoda, temple", "amenity=place_of_worship")
        add("bảo tàng, museum", "tourism=museum")
        add("công viên, park", "leisure=park")
        add("vườn hoa, garden", "leisure=garden")
        add("sân vận động, stadium", "leisure=stadium")
        add("nhà hát, theatre, theater", "amenity=theatre")
        add("rạp chiếu phim, rạp phim, cinema", "amenity=cinema")
        add("chợ, market", "amenity=marketplace")
        add("trung tâm thương mại, mall", "shop=mall")
        add("trung tâm thương mại, bách hóa, department store, mall", "shop=department_store")
        add("siêu thị, supermarket", "shop=supermarket")
        add("cửa hàng tiện lợi, convenience store", "shop=convenience")
        add("nhà sách, hiệu sách, sách, bookstore, bookshop, books", "shop=books")
        add("cây xăng, trạm xăng, xăng, gas station, petrol station, fuel", "amenity=fuel")
        add("bãi đỗ xe, bãi giữ xe, parking", "amenity=parking")
        add("bưu điện, post office", "amenity=post_office")
        add("công an, police", "amenity=police")
        add("ga, nhà ga, station", "railway=station")
        add("bến xe, bus station", "amenity=bus_station")
        add("sân bay, airport", "aeroway=aerodrome")
        add("đại sứ quán, embassy", "amenity=embassy", "office=diplomatic")
        add("hồ, lake", "natural=water", "water=lake")
        add("quảng trường, square", "place=square")
        return table
    }()

    /// Per raw OSM `key=value`: its folded kind words, space-separated (`place.kind_key`).
    public static let table: [String: String] = phraseTable.mapValues { phrases in
        phrases.split(separator: ",").map { TextFolding.fold(String($0)) }.joined(separator: " ")
    }

    /// Every folded kind phrase ("ca phe", "nha thuoc", "atm"), sorted: a query is a category query
    /// only when its words are whole phrases ("nhà" alone, the start of "nhà hàng" and "nhà sách",
    /// is not; see docs/search.md, "Category words").
    public static let phrases: [String] = Set(phraseTable.values.flatMap { phrases in
        phrases.split(separator: ",").map { TextFolding.fold(String($0)) }
    }).sorted()

    /// Other tags that say what a place also is, as the `key=value` of its kind: a restaurant
    /// with `cuisine=coffee_shop` is a café, a bank with `atm=yes` has an ATM, a clinic with
    /// `healthcare=pharmacy` is a pharmacy. (`cuisine` is a `;` list.)
    public static func impliedCategories(_ tags: [String: String]) -> [String] {
        var out: [String] = []
        let cuisine = (tags["cuisine"] ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if cuisine.contains(where: { $0 == "coffee_shop" || $0 == "coffee" }) { out.append("amenity=cafe") }
        if cuisine.contains("bubble_tea") || cuisine.contains("tea") { out.append("shop=tea") }
        if tags["atm"] == "yes" { out.append("amenity=atm") }
        if let care = tags["healthcare"], let implied = Self.healthcare[care] { out.append(implied) }
        if tags["shop"] == "coffee" { out.append("amenity=cafe") }
        return out
    }

    private static let healthcare = ["pharmacy": "amenity=pharmacy", "hospital": "amenity=hospital", "clinic": "amenity=clinic",
                                     "doctor": "amenity=doctors", "dentist": "amenity=dentist"]

    /// The folded kind words of a raw OSM category, "" when none.
    public static func words(forOSM category: String) -> String { table[category] ?? "" }
}
