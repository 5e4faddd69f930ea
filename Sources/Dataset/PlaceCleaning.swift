import Foundation
import TextFolding

/// Rules that drop or repair vandalised and advertising values at import (docs/search.md).
/// Each rule counts what it did; the counts go into the import report.
///
/// 1. `foreign-script-street`: an `addr:street` written in a non-Latin script (Chợ Bến Thành's
///    "滨城市场night") is dropped — Vietnamese addresses are in Latin script.
/// 2. `foreign-script-name`: a name with no Latin letter at all ("វាល") is replaced by the place's
///    first Latin-script other name ("Nguyen Hue"); without one the place is dropped
///    (`foreign-script-name-dropped`: a bookshop called "停车点", "parking spot").
/// 3. `foreign-script-alias`: other names in a non-Latin script are not indexed (nobody types them here).
///    `city-name-alias`: an other name that only names a city or the country ("tphcm") is not indexed.
/// 4. `phone-in-name`: a phone number inside a name is cut out ("Spa ABC 0909 123 456" → "Spa ABC").
/// 5. `url-in-name`: a web address in parentheses, after a final dash or starting with http/www is
///    cut out of a name ("Cty Minh Bách (minhbach.vn)" → "Cty Minh Bách"); a name that is a domain
///    ("Didongviet.vn", a brand) stays.
/// 6. `advertising`: a place whose name advertises (abortion services, "giá rẻ", "uy tín", "hotline",
///    "khuyến mãi") is dropped.
/// 7. `stacked-duplicates`: five or more places within about 20 m whose names start with the same two
///    words ("Nhà hộ sinh A" ×38) keep only the most important one.
/// 8. `phone-in-address`: a phone number in the house number or the street (Vietnamese, or any
///    international "+90 545 …") is cut out: "+905452465656" is no house number.
/// A name left empty by 4–5 drops the place (`emptied-name`).
struct PlaceCleaning {
    private(set) var counts: [String: Int] = [:]

    /// Other names that only name a city or the country (a hotel whose `name_en` is "tphcm").
    static let cityNames: Set<String> = ["tphcm", "tp hcm", "hcm", "hcmc", "ho chi minh", "ho chi minh city", "sai gon", "saigon",
                                         "ha noi", "hanoi", "viet nam", "vietnam"]

    static let advertising = ["pha thai", "hut thai", "gia re", "uy tin", "khuyen mai", "hotline", "lien he"]

    /// Whether `text` holds a letter of a non-Latin script (Vietnamese is Latin: Latin-1,
    /// Latin Extended-A/B and Latin Extended Additional).
    static func hasNonLatinLetter(_ text: String) -> Bool {
        text.unicodeScalars.contains { s in
            s.value >= 0x0370 && !(0x1E00...0x1EFF).contains(s.value) && s.properties.isAlphabetic
        }
    }

    static let phonePattern = try! NSRegularExpression(pattern: #"(\+?84|\b0)[0-9][0-9 .\-]{6,14}[0-9]"#)
    /// A phone number in an address field: the Vietnamese pattern, or "+" and 9 digits or more.
    static let addressPhonePattern = try! NSRegularExpression(pattern: #"(\+?84|\b0)[0-9][0-9 .\-]{6,14}[0-9]|\+[0-9][0-9 .\-]{7,16}[0-9]"#)
    /// A web address in parentheses, after a dash at the end, or starting with http/www. A name
    /// that merely *is* a domain ("Didongviet.vn", a shop's brand) is left alone.
    static let urlPattern = try! NSRegularExpression(
        pattern: #"\(\s*[^()\s]+\.(vn|com|net|org|info|biz)\b[^()]*\)|\s+[-–|]\s+[A-Za-z0-9\-./:]+\.(vn|com|net|org|info|biz)\b\S*\s*$|https?://\S+|\bwww\.\S+"#,
        options: [.caseInsensitive])

    /// The name with `pattern`'s matches cut out and separators left dangling trimmed.
    static func cutting(_ pattern: NSRegularExpression, from name: String) -> String? {
        let range = NSRange(name.startIndex..., in: name)
        guard pattern.firstMatch(in: name, range: range) != nil else { return nil }
        let cut = pattern.stringByReplacingMatches(in: name, range: range, withTemplate: " ")
        return TextFolding.clean(cut).trimmingCharacters(in: CharacterSet(charactersIn: " -–—,;:|/()."))
    }

    mutating func count(_ rule: String) { counts[rule, default: 0] += 1 }

    /// Cleans one place; `false` when it must be dropped.
    mutating func clean(_ place: inout ImportedPlace) -> Bool {
        if !place.street.isEmpty, Self.hasNonLatinLetter(place.street) {
            place.street = ""
            count("foreign-script-street")
        }
        if Self.hasNonLatinLetter(place.name), !place.name.unicodeScalars.contains(where: { $0.isASCII && $0.properties.isAlphabetic }) {
            guard let latin = place.aliases.first(where: { !Self.hasNonLatinLetter($0) }) else {
                count("foreign-script-name-dropped")
                return false
            }
            place.name = latin
            count("foreign-script-name")
        }
        let before = place.aliases.count
        place.aliases.removeAll { Self.hasNonLatinLetter($0) }
        if place.aliases.count < before { count("foreign-script-alias") }
        let beforeCity = place.aliases.count
        place.aliases.removeAll { Self.cityNames.contains(TextFolding.fold($0)) }
        if place.aliases.count < beforeCity { count("city-name-alias") }
        var addressHadPhone = false
        if let cut = Self.cutting(Self.addressPhonePattern, from: place.hsNum) { place.hsNum = cut; addressHadPhone = true }
        if let cut = Self.cutting(Self.addressPhonePattern, from: place.street) { place.street = cut; addressHadPhone = true }
        if addressHadPhone { count("phone-in-address") }
        if let cut = Self.cutting(Self.phonePattern, from: place.name) {
            place.name = cut
            count("phone-in-name")
        }
        if let cut = Self.cutting(Self.urlPattern, from: place.name) {
            place.name = cut
            count("url-in-name")
        }
        if TextFolding.fold(place.name).isEmpty {
            count("emptied-name")
            return false
        }
        let folded = " " + TextFolding.fold(place.name) + " "
        if Self.advertising.contains(where: { folded.contains(" \($0) ") }) {
            count("advertising")
            return false
        }
        return true
    }

    /// Drops stacks of five or more places within about 20 m whose names start with the same two
    /// words, keeping the most important (then the first) of each stack.
    mutating func droppingStacks(_ places: [ImportedPlace]) -> [ImportedPlace] {
        struct Key: Hashable { let cellLat: Int, cellLng: Int, words: String }
        func key(_ p: ImportedPlace) -> Key {
            Key(cellLat: Int((p.lat / 0.0002).rounded()), cellLng: Int((p.lng / 0.0002).rounded()),
                words: TextFolding.tokens(p.name).prefix(2).joined(separator: " "))
        }
        var groups: [Key: [Int]] = [:]
        for (index, place) in places.enumerated() { groups[key(place), default: []].append(index) }
        var dropped = Set<Int>()
        for members in groups.values where members.count >= 5 {
            let keep = members.max { (places[$0].importance, -$0) < (places[$1].importance, -$1) }!
            for index in members where index != keep { dropped.insert(index) }
        }
        if !dropped.isEmpty { counts["stacked-duplicates", default: 0] += dropped.count }
        return places.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
    }
}
