import SystemPackage

extension DecoderError {
    /// A failure after opening, placed at the last frame decoded, the way every decoder
    /// words it: "decoder error at 1:05: …".
    init(path: FilePath, atFrame frame: Int, sampleRate: Int, _ what: String) {
        let seconds = max(0, frame) / max(1, sampleRate)
        let clock = "\(seconds / 60):\(seconds % 60 < 10 ? "0" : "")\(seconds % 60)"
        self.init(path: path, reason: "decoder error at \(clock): \(what)")
    }
}

extension BudgetedReader {
    /// Why reading stopped after opening, when the reader stopped it (nil when the
    /// library failed on its own): the same words for every format.
    func failureReason(seeking: Bool) -> String? {
        switch problem {
        case .junk: "no audio in \(junkLimitText)"
        case .time where seeking: "seeking took over \(Self.timeBudgetText)"
        case .time: "no audio within \(Self.timeBudgetText)"
        case .readError(let code): Self.describe(code)
        case nil: nil
        }
    }

    /// Why opening stopped, when the reader stopped it: `what` names the audio searched
    /// for ("no Ogg Vorbis audio in the file (searched 256 KB)").
    func openFailureReason(searchingFor what: String) -> String? {
        switch problem {
        case .junk: "no \(what) in the file (searched \(Self.junkBudgetText))"
        case .time: "no \(what) in the file (searched for \(Self.timeBudgetText))"
        case .readError(let code): Self.describe(code)
        case nil: nil
        }
    }
}
