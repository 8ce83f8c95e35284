import Foundation

/// The printed table: one row per measure, qplay and MPD side by side, the codec
/// library's decode floor where there is one, and whether the row meets the targets
/// (qplay ≤ MPD; on a CPU row with a floor, qplay ≤ 2 × the floor).
struct ResultTable {
    private static let widths = [70, 27, 22, 14, 11, 16]
    private var lines: [String] = []

    init() {
        row("measure", "qplay", "MPD", "decode floor", "qplay ≤ MPD", "qplay ≤ 2× floor")
        lines.append("|" + Self.widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|")
    }

    mutating func row(_ cells: String...) {
        let padded = zip(cells, Self.widths).map { cell, width in
            cell.count >= width ? cell : cell + String(repeating: " ", count: width - cell.count)
        }
        lines.append("| " + padded.joined(separator: " | ") + " |")
    }

    func print() {
        for line in lines { Swift.print(line) }
    }

    static func cpu(_ figure: CPUFigure?) -> String {
        guard let figure else { return "—" }
        let text = "\(fixed(figure.percent, 2)) %"
        return figure.playedThrough
            ? text : "\(text) (played \(fixed(figure.playedSeconds, 1)) of \(fixed(figure.windowSeconds, 0)) s)"
    }

    static func latencies(_ values: Latencies?) -> String {
        guard let values else { return "—" }
        let text = "\(fixed(values.percentile(50), 1)) / \(fixed(values.percentile(99), 1))"
        return values.missed > 0 ? "\(text) (\(values.missed) missed)" : text
    }

    /// Only figures of audio actually played are compared.
    static func verdict(_ qplay: CPUFigure?, _ mpd: CPUFigure?) -> String {
        guard let qplay, let mpd, qplay.playedThrough, mpd.playedThrough else { return "—" }
        return qplay.percent <= mpd.percent ? "yes" : "no"
    }

    /// qplay's CPU against twice the codec library's floor, with the ratio.
    static func verdict(_ qplay: CPUFigure?, floor: Double?) -> String {
        guard let qplay, qplay.playedThrough, let floor, floor > 0 else { return "—" }
        let ratio = qplay.percent / floor
        return "\(ratio <= 2 ? "yes" : "no") (\(fixed(ratio, 1))×)"
    }

    /// Both the median and the tail, and no more misses.
    static func verdict(_ qplay: Latencies?, _ mpd: Latencies?) -> String {
        guard let qplay, let mpd, !qplay.milliseconds.isEmpty, !mpd.milliseconds.isEmpty else { return "—" }
        let met = qplay.percentile(50) <= mpd.percentile(50) && qplay.percentile(99) <= mpd.percentile(99)
            && qplay.missed <= mpd.missed
        return met ? "yes" : "no"
    }

    static func fixed(_ value: Double, _ digits: Int) -> String {
        value.isFinite ? String(format: "%.\(digits)f", value) : "?"
    }
}
