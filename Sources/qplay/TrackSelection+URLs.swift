import QPlayProtocol

extension TrackSelection {
    /// `qplay add http://…`: TEXT that is nothing but `http://` and `https://` URLs adds
    /// those streams (internet radio) instead of searching titles for them.
    var urls: [String]? {
        guard !text.isEmpty, expressions.isEmpty else { return nil }
        let isURL = { (word: String) in
            let lowered = word.lowercased()
            return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
        }
        return text.allSatisfy(isURL) ? text : nil
    }
}
