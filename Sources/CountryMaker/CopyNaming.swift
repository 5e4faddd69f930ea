import PBFWriter

/// How a copy's tags differ from the city's: copy 0 is the city as it is. In the others, half
/// the places (POIs, named areas; a seeded choice per element) carry the province's name after
/// their own — "Highlands Coffee Gia Lai", "Chợ Bến Thành Huế 2" for the province's second copy
/// — and addr:city/addr:province-like tags name the copy's province. Street names stay: the
/// same street names recur across provinces as they do in reality.
struct CopyNaming {
    let seed: UInt64
    let copyIndex: Int
    /// "Gia Lai", or "Gia Lai 2" for the second copy in the province.
    let suffix: String
    let provinceName: String

    init(seed: UInt64, copyIndex: Int, copy: CountryLayout.Copy, provinces: Provinces) {
        self.seed = seed
        self.copyIndex = copyIndex
        let province = provinces.provinces[copy.province]
        suffix = copy.rank == 0 ? province.shortName : "\(province.shortName) \(copy.rank + 1)"
        provinceName = province.name
    }

    var changesNothing: Bool { copyIndex == 0 }

    /// `tags` for this copy; `kind` and `id` (the original's) pick the seeded choice.
    func tags(_ tags: PBFTags, placeName: Bool, regionTags: Bool, kind: Int64, id: Int64) -> PBFTags {
        guard copyIndex > 0, placeName || regionTags else { return tags }
        let suffixed = placeName && SeededHash.value(seed, 23, Int64(copyIndex), kind, id) % 2 == 0
        guard suffixed || regionTags else { return tags }
        return tags.map { tag in
            if suffixed, tag.key == "name" { return (tag.key, "\(tag.value) \(suffix)") }
            if CityExtract.regionKeys.contains(tag.key) { return (tag.key, provinceName) }
            return tag
        }
    }
}
