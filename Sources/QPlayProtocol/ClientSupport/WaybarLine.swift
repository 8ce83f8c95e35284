/// One line of waybar's custom-module JSON (`return-type: json`):
/// `{"alt", "class", "percentage", "text", "tooltip"}`; class and alt are the state
/// (`output-error` while playing into a failing output), percentage the position in
/// the track. waybar reads `text` and `tooltip` as Pango
/// markup: the tags in them are escaped (`PangoText`), a `--format` template's own
/// text is not, so it may hold markup.
public struct WaybarLine: Sendable, Hashable, Codable {
    public var text: String
    public var tooltip: String
    public var `class`: String
    public var alt: String
    public var percentage: Int

    public init(status: Status, format: String?) {
        text =
            format.map { StatusFormat.render($0, status: status, escaping: PangoText.escape) }
            ?? PangoText.escape(StatusFormat.defaultText(status))
        // `output-error` while playing into an output that fails: a format-icons ▶ keyed
        // on `playing` would claim sound that nobody hears.
        let silent = StatusFormat.isSilentlyPlaying(status)
        `class` = silent ? "output-error" : status.state.rawValue
        alt = `class`
        if status.state == .stopped || status.track == nil {
            tooltip = "qplay: stopped"
            percentage = 0
            return
        }
        let track = status.track!
        var lines = [track.title]
        let byline = [track.artist, track.album].compactMap { $0 }.filter { !$0.isEmpty }
        if !byline.isEmpty { lines.append(byline.joined(separator: " — ")) }
        var time = TimeText.format(status.position ?? 0)
        if let duration = status.duration { time += " / " + TimeText.format(duration) }
        lines.append("\(time)  (\(status.state.rawValue), volume \(status.volume)%)")
        if silent, let error = status.output.error { lines.append("output \(status.output.name): \(error)") }
        tooltip = PangoText.escape(lines.joined(separator: "\n"))
        if let duration = status.duration, duration > 0 {
            percentage = min(100, max(0, Int(saturating: (status.position ?? 0) / duration * 100)))
        } else {
            percentage = 0
        }
    }

    /// The line for when no daemon answers: empty text, so waybar hides the module.
    public static let offline = WaybarLine(text: "", tooltip: "qplay: no daemon", class: "offline", alt: "offline", percentage: 0)

    public init(text: String, tooltip: String, class: String, alt: String, percentage: Int) {
        self.text = text
        self.tooltip = tooltip
        self.class = `class`
        self.alt = alt
        self.percentage = percentage
    }
}
