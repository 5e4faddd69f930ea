/// The folded phrases that name a kind of place ("ca phe", "nha thuoc", "cay atm"), as the dataset
/// stores them (meta `kind_phrases`): a query asks for a kind only when its words split into whole
/// phrases, so "nhà" (the start of "nhà hàng", "nhà sách", and of many names) is read as a name.
struct KindPhrases: Sendable {
    private let phrases: Set<[String]>
    private let longest: Int

    init(_ phrases: [String]) {
        let split = phrases.map { $0.split(separator: " ").map(String.init) }.filter { !$0.isEmpty }
        self.phrases = Set(split)
        longest = split.map(\.count).max() ?? 0
    }

    /// Whether `words` is one phrase or several in a row ("quán cà phê", "atm ngân hàng").
    func covers(_ words: [String]) -> Bool {
        guard !words.isEmpty else { return false }
        // ends[i]: words[0..<i] splits into phrases.
        var ends = [Bool](repeating: false, count: words.count + 1)
        ends[0] = true
        for start in 0..<words.count where ends[start] {
            for length in 1...max(1, min(longest, words.count - start)) where phrases.contains(Array(words[start..<(start + length)])) {
                ends[start + length] = true
            }
        }
        return ends[words.count]
    }
}
