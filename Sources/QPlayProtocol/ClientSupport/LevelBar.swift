/// A level in dBFS drawn as a horizontal bar of block characters, in eighths of a cell
/// (`▏▎▍▌▋▊▉█`), padded with spaces to its full width so the text around it does not
/// move. The scale is linear in dB from `floor` (empty) to 0 dBFS (full): how
/// mixers and VU meters show it.
public enum LevelBar {
    /// The quietest level with a visible bar: below it a meter shows nothing useful
    /// (AVAudioPlayer-based meters use −60 too).
    public static let floor = -60.0
    static let eighths: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    public static func render(_ decibels: Double, width: Int) -> String {
        guard width > 0 else { return "" }
        let fraction = decibels.isFinite ? min(1, max(0, (decibels - floor) / -floor)) : 0
        let filled = Int((fraction * Double(width * 8)).rounded())
        var bar = String(repeating: "█", count: filled / 8)
        if filled % 8 > 0 { bar.append(eighths[filled % 8 - 1]) }
        let cells = filled / 8 + (filled % 8 > 0 ? 1 : 0)
        return bar + String(repeating: " ", count: width - cells)
    }

    /// A level as `{level_db}` shows it: one decimal, `-inf` for silence.
    public static func text(_ decibels: Double) -> String {
        guard decibels > LevelReading.floor else { return "-inf" }
        let tenths = (decibels * 10).rounded()
        let sign = tenths < 0 ? "-" : ""
        let magnitude = Int(abs(tenths))
        return "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }
}
