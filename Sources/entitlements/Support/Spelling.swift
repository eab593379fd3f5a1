/// "Did you mean …?" for a misspelt command or option.
enum Spelling {
    /// The candidate closest to `word` when it is close enough to be a typo: at most one edit for short
    /// words, two for longer ones (an insertion, a deletion, a substitution or two swapped neighbours each
    /// count as one). Ties go to the earlier candidate.
    ///
    /// A word that is no typo of any candidate but the start of exactly one (`validate` for
    /// `validate-user-id`, at least three letters) suggests that one. A word longer than any name
    /// (a pasted document) is not compared at all.
    static func suggestion(for word: String, among candidates: [String]) -> String? {
        let found = suggestions(for: word, among: candidates)
        return found.count == 1 ? found[0] : nil
    }

    /// What ``suggestion(for:among:)`` finds or, failing that, every candidate (at most three) that holds
    /// the word as whole dash-separated parts: `--tolerance` in `--expiry-tolerance`, `field` in
    /// `--ignore-field`.
    static func suggestions(for word: String, among candidates: [String]) -> [String] {
        guard word.count <= 64 else { return [] }
        let typed = Array(word.lowercased())
        let allowed = typed.count <= 4 ? 1 : 2
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(typed, Array(candidate.lowercased()))
            if distance <= allowed, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        if let best { return [best.candidate] }
        let start = word.lowercased().drop { $0 == "-" }
        guard start.count >= 3 else { return [] }
        let extended = candidates.filter { $0.lowercased().drop { $0 == "-" }.hasPrefix(start) }
        if extended.count == 1 { return extended }
        let containing = candidates.filter {
            ("-" + $0.lowercased().drop { $0 == "-" } + "-").contains("-" + start + "-")
        }
        return containing.count <= 3 ? containing : []
    }

    /// `; did you mean '--ignore-field'?` (`'--a' or '--b'` when several hold the word), or nothing.
    static func hint(for word: String, among candidates: [String]) -> String {
        let found = suggestions(for: word, among: candidates)
        guard !found.isEmpty else { return "" }
        return "; did you mean " + found.map { "'\($0)'" }.joined(separator: " or ") + "?"
    }

    /// Optimal string alignment distance (Levenshtein plus transpositions of neighbours).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = [Int](0...b.count)
        var beforePrevious = previous
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            beforePrevious = previous
            previous = current
        }
        return previous[b.count]
    }
}
